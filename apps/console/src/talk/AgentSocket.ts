import { TalkAgentErrors, type TalkAgentReply } from '@intercom/contract';
import { PendingReplies } from './PendingReplies';
import { ProbeSchedule } from './ProbeSchedule';
import { TalkError } from './talkTypes';

/** Calls `probe` when the user may have just started the agent; returns the unsubscribe. */
export type WakeSource = (probe: () => void) => () => void;

/** A wake probe comes no sooner than this after the last attempt (focus can bounce). */
export const WAKE_GAP_MS = 2_000;

/** The window gaining focus or the tab becoming visible: the user is back, perhaps from starting the agent. */
export const windowWake: WakeSource = (probe) => {
  if (typeof window === 'undefined' || typeof document === 'undefined') return () => undefined;
  const visible = () => {
    if (document.visibilityState === 'visible') probe();
  };
  window.addEventListener('focus', probe);
  document.addEventListener('visibilitychange', visible);
  return () => {
    window.removeEventListener('focus', probe);
    document.removeEventListener('visibilitychange', visible);
  };
};

export interface AgentSocketHandlers {
  open: () => void;
  close: () => void;
  text: (message: Record<string, unknown>) => void;
  binary?: (data: ArrayBuffer) => void;
}

/**
 * One of the agent's two WebSocket services, probed while it is down on the ProbeSchedule (backoff
 * to a minute, 5 s right after a loss) and again at once when the window gains focus.
 */
export class AgentSocket {
  private socket: WebSocket | null = null;
  private retry: ReturnType<typeof setTimeout> | undefined;
  private nextId = 1;
  private readonly pending = new PendingReplies();
  private stopped = true;
  private schedule: ProbeSchedule;
  private lastAttempt = -Infinity;
  private unwake: (() => void) | undefined;

  constructor(
    private readonly url: string,
    private readonly handlers: AgentSocketHandlers,
    private readonly wake: WakeSource = windowWake,
    private readonly random: () => number = Math.random,
  ) {
    this.schedule = new ProbeSchedule(random);
  }

  get open(): boolean {
    return this.socket?.readyState === WebSocket.OPEN;
  }

  get started(): boolean {
    return !this.stopped;
  }

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.schedule = new ProbeSchedule(this.random);
    this.unwake = this.wake(() => this.onWake());
    this.connect();
  }

  stop(): void {
    this.stopped = true;
    this.unwake?.();
    this.unwake = undefined;
    clearTimeout(this.retry);
    const socket = this.socket;
    this.socket = null;
    socket?.close();
    this.pending.failAll(TalkAgentErrors.serverUnreachable);
  }

  /** Down and waiting: probe now rather than at the scheduled time. */
  private onWake(): void {
    if (this.stopped || this.socket || Date.now() - this.lastAttempt < WAKE_GAP_MS) return;
    clearTimeout(this.retry);
    this.connect();
  }

  private connect(): void {
    if (this.stopped) return;
    this.lastAttempt = Date.now();
    let socket: WebSocket;
    try {
      socket = new WebSocket(this.url);
    } catch {
      this.scheduleRetry();
      return;
    }
    socket.binaryType = 'arraybuffer';
    this.socket = socket;
    socket.onopen = () => {
      this.schedule.connected();
      this.handlers.open();
    };
    socket.onmessage = (message: MessageEvent<string | ArrayBuffer>) => {
      if (typeof message.data !== 'string') {
        this.handlers.binary?.(message.data);
        return;
      }
      let parsed: Record<string, unknown>;
      try {
        parsed = JSON.parse(message.data) as Record<string, unknown>;
      } catch {
        return;
      }
      if (typeof parsed.id === 'number' && typeof parsed.ok === 'boolean') this.settle(parsed);
      else this.handlers.text(parsed);
    };
    // A refused connection fires error then close; close alone decides.
    socket.onerror = () => undefined;
    socket.onclose = () => {
      if (this.socket !== socket) return;
      this.socket = null;
      this.pending.failAll(TalkAgentErrors.serverUnreachable);
      this.handlers.close();
      this.scheduleRetry();
    };
  }

  private scheduleRetry(): void {
    if (this.stopped) return;
    clearTimeout(this.retry);
    this.retry = setTimeout(() => this.connect(), this.schedule.next());
  }

  private settle(reply: Record<string, unknown>): void {
    const answer = reply as TalkAgentReply;
    this.pending.settle(answer.id, reply, answer.ok ? undefined : answer);
  }

  /** Sends `{cmd, id, ...args}` and resolves with the reply; rejects with the reply's code. */
  command(cmd: string, args: Record<string, unknown> = {}): Promise<Record<string, unknown>> {
    const socket = this.socket;
    if (!socket || socket.readyState !== WebSocket.OPEN) {
      return Promise.reject(new TalkError(TalkAgentErrors.serverUnreachable));
    }
    const id = this.nextId++;
    return this.pending.wait(id, () => socket.send(JSON.stringify({ cmd, id, ...args })));
  }
}
