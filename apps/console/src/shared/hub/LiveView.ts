import type { Notification } from '@intercom/contract';
import { USER_MAP_STATES, type UserMapState } from './userMapState';
import type { LiveViewChanges, StateChanges, WatchedUser } from './hubWorkerMessages';
import type { HubStatus } from './liveSnapshot';

/** What the page holds of the hub's state: what its screens show, kept by the hub worker's views. */
export interface LiveViewSnapshot {
  status: HubStatus;
  /** Chat-online users in scope; undefined until the first snapshot arrived. */
  onlineCount: number | undefined;
  /** Users whose fix is fresh. */
  gpsOnlineCount: number;
  /** Unhandled alarms by N_ID. */
  alarms: ReadonlyMap<number, Notification>;
  /** The state of every user with a position (one the hub has no fix of is not here). */
  states: ReadonlyMap<number, UserMapState>;
  /** The users some screen watches (useWatchedUser), by U_ID. */
  watched: ReadonlyMap<number, WatchedUser>;
}

/**
 * The events of a burst: the online delta of its OnlineChanges, whether an alarm was pushed, and
 * (only when one was) that an incident of the scope changed.
 */
export interface HubBurst {
  onlineDelta: number;
  alarmPushed: boolean;
  incidentChanged?: true;
}

export type BurstListener = (burst: HubBurst) => void;

const EMPTY: LiveViewSnapshot = {
  status: 'idle',
  onlineCount: undefined,
  gpsOnlineCount: 0,
  alarms: new Map(),
  states: new Map(),
  watched: new Map(),
};

function withStates(states: ReadonlyMap<number, UserMapState>, changes: StateChanges): Map<number, UserMapState> {
  const next = changes.replace ? new Map<number, UserMapState>() : new Map(states);
  changes.ids.forEach((id, i) => {
    const state = USER_MAP_STATES[changes.codes[i]!];
    if (state && state !== 'offline') next.set(id, state);
    else next.delete(id);
  });
  return next;
}

/**
 * The page's copy of the hub state (the hub worker's LiveViewPublisher sends what changed, once a
 * burst). For useSyncExternalStore: a new snapshot object per change, and within it a new map only
 * for what changed, so what reads the alarms does not re-render when a user's state changes.
 */
export class LiveView {
  private snapshot = EMPTY;
  private readonly listeners = new Set<() => void>();
  private readonly burstListeners = new Set<BurstListener>();

  readonly getSnapshot = (): LiveViewSnapshot => this.snapshot;

  readonly subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  };

  /** Calls `listener` with every later burst's events. */
  subscribeBursts(listener: BurstListener): () => void {
    this.burstListeners.add(listener);
    return () => {
      this.burstListeners.delete(listener);
    };
  }

  apply(changes: LiveViewChanges): void {
    const next: LiveViewSnapshot = { ...this.snapshot };
    if (changes.status !== undefined) next.status = changes.status;
    if ('onlineCount' in changes) next.onlineCount = changes.onlineCount;
    if (changes.gpsOnlineCount !== undefined) next.gpsOnlineCount = changes.gpsOnlineCount;
    if (changes.alarms) next.alarms = new Map(changes.alarms.map((alarm) => [alarm.N_ID, alarm]));
    if (changes.states) next.states = withStates(next.states, changes.states);
    if (changes.watched) {
      const watched = new Map(next.watched);
      for (const [id, user] of changes.watched) watched.set(id, user);
      next.watched = watched;
    }
    this.snapshot = next;
    for (const listener of [...this.listeners]) listener();
    const { onlineDelta, alarmPushed, incidentChanged } = changes;
    if (onlineDelta === 0 && !alarmPushed && !incidentChanged) return;
    const burst: HubBurst = incidentChanged
      ? { onlineDelta, alarmPushed, incidentChanged }
      : { onlineDelta, alarmPushed };
    for (const listener of [...this.burstListeners]) listener(burst);
  }

  /** A user no screen watches any more is forgotten. */
  forget(userId: number): void {
    if (!this.snapshot.watched.has(userId)) return;
    const watched = new Map(this.snapshot.watched);
    watched.delete(userId);
    this.snapshot = { ...this.snapshot, watched };
    for (const listener of [...this.listeners]) listener();
  }

  /** The hub cannot be reached from here at all (the worker failed): shown as disconnected. */
  fail(): void {
    this.snapshot = { ...this.snapshot, status: 'disconnected' };
    for (const listener of [...this.listeners]) listener();
  }
}
