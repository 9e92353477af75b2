import type { TalkAgentEvent } from '@intercom/contract';
import { frameBytes, sortAgentMessage, type AgentMessage } from './agentMessages.js';
import { AgentClientErrors, AgentCommandError, AgentReplies, type AgentReply } from './agentReplies.js';
import type { ReconnectSchedule } from './backoff.js';
import { CLOSE_ABNORMAL, SOCKET_OPEN, type AgentSocketLike } from './socketLike.js';
import { runtimeTimers, type AgentTimers } from './timers.js';

export interface AgentClientOptions {
  /** Opens a new socket: once per `start` and once per reconnect; throwing counts as a failed attempt. */
  connect: () => AgentSocketLike;
  /** A command unanswered this long fails with `timeout` (default AGENT_REPLY_TIMEOUT_MS). */
  timeoutMs?: number;
  /** The error a refusal, a timeout or a lost socket rejects with (default AgentCommandError). */
  error?: (code: string, message?: string) => Error;
  /** A fresh schedule per `start`: after a failed or lost connection the client tries again; absent or false: it stays closed. */
  reconnect?: (() => ReconnectSchedule) | false;
  /** Where timeouts and reconnect delays wait (default the runtime's timers). */
  timers?: AgentTimers;
}

export type AgentClientEvents<E> = {
  open: [];
  /** The socket closed (not after `stop`); commands waiting have failed with `closed`. */
  close: [code: number, reason: string];
  /** Every reply and event, in arrival order (replies to nobody's id, `id: null` ones included). */
  message: [message: AgentMessage];
  /** A push `{event, ...}` of the service. */
  event: [event: E];
  /** A binary frame (the talk service's video), as bytes. */
  frame: [bytes: Uint8Array];
  /** A frame that is no protocol message (not JSON, not a reply or event): dropped, never thrown. */
  invalid: [data: unknown];
  /** The next attempt is planned in `delayMs`. */
  reconnect: [delayMs: number];
};

type Listener = (...args: never[]) => void;

/**
 * A client of one of the talk agent's services (docs/talk-agent-protocol.md), modelled on
 * terminal-client's TerminalSocket: each command gets the next `id` and settles with the reply of
 * that id (AgentReplies); pushes are typed `event`s (`E`: TalkAgentEvent or MonitorAgentEvent) and
 * binary frames `frame`s; with `reconnect` it tries again on its schedule after a refused or lost
 * connection. One class for the browser's WebSocket (the console) and `ws` (tests, bench).
 */
export class AgentClient<E extends { event: string } = TalkAgentEvent> {
  private socket: AgentSocketLike | null = null;
  private readonly replies: AgentReplies;
  private readonly listeners = new Map<keyof AgentClientEvents<E>, Set<Listener>>();
  private readonly openWaiters = new Set<{ resolve: () => void; reject: (error: Error) => void }>();
  private schedule: ReconnectSchedule | undefined;
  private retry: unknown;
  private lastAttemptAt = -Infinity;
  private running = false;

  constructor(private readonly options: AgentClientOptions) {
    this.replies = new AgentReplies({
      send: (text) => this.socket?.send(text),
      timeoutMs: options.timeoutMs,
      error: (code, message) => this.error(code, message),
      timers: options.timers,
    });
  }

  get isOpen(): boolean {
    return this.socket?.readyState === SOCKET_OPEN;
  }

  /** Between `start` and `stop`, connected or not. */
  get started(): boolean {
    return this.running;
  }

  /** Commands waiting for their replies. */
  get waiting(): number {
    return this.replies.waiting;
  }

  on<K extends keyof AgentClientEvents<E>>(name: K, listener: (...args: AgentClientEvents<E>[K]) => void): () => void {
    let set = this.listeners.get(name);
    if (!set) this.listeners.set(name, (set = new Set()));
    set.add(listener as Listener);
    return () => void set.delete(listener as Listener);
  }

  /** Connects (a started client does nothing). */
  start(): void {
    if (this.running) return;
    this.running = true;
    this.schedule = this.options.reconnect ? this.options.reconnect() : undefined;
    this.attempt();
  }

  /** Closes for good until the next `start`: no `close` event, no reconnect; waiting commands fail with `closed`. */
  stop(): void {
    this.running = false;
    this.timers.cancel(this.retry);
    this.retry = undefined;
    const socket = this.socket;
    this.socket = null;
    if (socket) {
      detach(socket);
      socket.close();
    }
    this.lost(AgentClientErrors.closed, 'the client stopped');
  }

  /**
   * Waiting for a retry: tries now instead (the user may have just started the agent), unless the
   * last attempt was less than `minGapMs` ago. True when it tried.
   */
  reconnectNow(minGapMs = 0): boolean {
    if (!this.running || this.socket || this.timers.now() - this.lastAttemptAt < minGapMs) return false;
    this.timers.cancel(this.retry);
    this.attempt();
    return true;
  }

  /** Resolves when the socket is open; rejects when it closes (or the client stops) first. */
  opened(): Promise<void> {
    if (this.isOpen) return Promise.resolve();
    if (!this.running) return Promise.reject(this.error(AgentClientErrors.notConnected, 'the client is stopped'));
    return new Promise((resolve, reject) => this.openWaiters.add({ resolve, reject }));
  }

  /** Sends `{cmd, id, ...args}`; resolves with the reply, refused or not (`timeoutMs`: this one's own). */
  request(cmd: string, args: Record<string, unknown> = {}, timeoutMs?: number): Promise<AgentReply> {
    if (!this.isOpen) return Promise.reject(this.error(AgentClientErrors.notConnected, `${cmd}: not connected`));
    return this.replies.request(cmd, args, timeoutMs);
  }

  /** As `request`, but a refusal rejects with its code and message. */
  command(cmd: string, args: Record<string, unknown> = {}): Promise<AgentReply> {
    if (!this.isOpen) return Promise.reject(this.error(AgentClientErrors.notConnected, `${cmd}: not connected`));
    return this.replies.command(cmd, args);
  }

  private attempt(): void {
    this.lastAttemptAt = this.timers.now();
    let socket: AgentSocketLike;
    try {
      socket = this.options.connect();
    } catch {
      this.lost(AgentClientErrors.notConnected, 'the connection could not be opened');
      this.scheduleRetry();
      return;
    }
    this.socket = socket;
    // A browser's default `blob` arrives asynchronously; `ws`'s Buffer already is a Uint8Array.
    if (socket.binaryType !== 'nodebuffer') socket.binaryType = 'arraybuffer';
    socket.onopen = () => {
      this.schedule?.connected();
      for (const waiter of this.openWaiters) waiter.resolve();
      this.openWaiters.clear();
      this.emit('open');
    };
    socket.onmessage = (event) => this.received(event.data);
    // A refused connection fires error, then close; close alone decides.
    socket.onerror = () => undefined;
    socket.onclose = (event) => this.closed(socket, event?.code ?? CLOSE_ABNORMAL, event?.reason ?? '');
  }

  private received(data: unknown): void {
    if (typeof data !== 'string') {
      const bytes = frameBytes(data);
      if (bytes) this.emit('frame', bytes);
      else this.emit('invalid', data);
      return;
    }
    const sorted = sortAgentMessage(data);
    if (sorted.kind === 'invalid') {
      this.emit('invalid', data);
      return;
    }
    this.emit('message', sorted.message);
    if (sorted.kind === 'event') this.emit('event', sorted.message as unknown as E);
    else this.replies.receive(sorted.message);
  }

  private closed(socket: AgentSocketLike, code: number, reason: string): void {
    if (this.socket !== socket) return;
    detach(socket);
    this.socket = null;
    this.lost(AgentClientErrors.closed, `the connection closed (${code}) before the reply`);
    this.emit('close', code, reason);
    this.scheduleRetry();
  }

  /** Every command and `opened` waiting fails. */
  private lost(code: string, message: string): void {
    this.replies.failAll(code, message);
    for (const waiter of this.openWaiters) waiter.reject(this.error(code, message));
    this.openWaiters.clear();
  }

  private scheduleRetry(): void {
    if (!this.running || !this.schedule) return;
    this.timers.cancel(this.retry);
    const delayMs = this.schedule.next();
    this.retry = this.timers.after(delayMs, () => {
      this.retry = undefined;
      if (this.running && !this.socket) this.attempt();
    });
    this.emit('reconnect', delayMs);
  }

  private emit<K extends keyof AgentClientEvents<E>>(name: K, ...args: AgentClientEvents<E>[K]): void {
    const set = this.listeners.get(name);
    if (!set) return;
    for (const listener of [...set]) (listener as (...a: AgentClientEvents<E>[K]) => void)(...args);
  }

  private error(code: string, message?: string): Error {
    return this.options.error ? this.options.error(code, message) : new AgentCommandError(code, message);
  }

  private get timers(): AgentTimers {
    return this.options.timers ?? runtimeTimers;
  }
}

function detach(socket: AgentSocketLike): void {
  socket.onopen = socket.onmessage = socket.onclose = null;
}
