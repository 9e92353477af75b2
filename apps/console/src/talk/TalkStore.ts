import type { TalkState, TalkStatus } from './talkTypes';

const INITIAL: TalkState = {
  mode: null,
  agent: 'unknown',
  connection: 'idle',
  seat: null,
  current: null,
  monitored: [],
  floors: new Map(),
  calls: new Map(),
  mic: 'off',
  micLevel: 0,
  lastLoss: null,
  videos: [],
  secureContext: true,
  webCodecs: true,
  names: new Map(),
  authCode: null,
};

/**
 * The state the talk UI shows, replaced (never mutated) on every change for useSyncExternalStore,
 * and the SPEC.md 8 statuses as they happen. Every part of the talk client writes here.
 */
export class TalkStore {
  private state: TalkState;
  private readonly listeners = new Set<() => void>();
  private readonly statusListeners = new Set<(status: TalkStatus) => void>();

  constructor(private readonly secureContext: boolean) {
    this.state = { ...INITIAL, secureContext };
  }

  getState = (): TalkState => this.state;

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  onStatus(listener: (status: TalkStatus) => void): () => void {
    this.statusListeners.add(listener);
    return () => this.statusListeners.delete(listener);
  }

  set(patch: Partial<TalkState>): void {
    this.state = { ...this.state, ...patch };
    for (const listener of this.listeners) listener();
  }

  status(status: TalkStatus): void {
    for (const listener of this.statusListeners) listener(status);
  }

  /** Signed out: nothing of the last account stays. */
  reset(): void {
    this.state = { ...INITIAL, secureContext: this.secureContext };
    for (const listener of this.listeners) listener();
  }
}
