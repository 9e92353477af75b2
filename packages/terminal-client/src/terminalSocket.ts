import { TerminalCloseCodes, TerminalLimits, type TerminalServerMessage } from '@intercom/contract';
import { Emitter } from './emitter.js';
import { SOCKET_OPEN, type SocketLike } from './socketLike.js';
import { after, cancel, every, type TimerHandle } from './timers.js';

export type TerminalAck = Extract<TerminalServerMessage, { type: 'ack' }>;
export type TerminalErrorReply = Extract<TerminalServerMessage, { type: 'error' }>;
/** A message to send: `type` and its fields; TerminalSocket numbers it (`seq`). */
export type TerminalRequest = Readonly<Record<string, unknown>>;

/** Codes of failures found on this side; the server's codes (TerminalErrors) never take these. */
export const TerminalClientErrors = {
  /** No reply within the request's timeout. */
  timeout: 'timeout',
  /** The connection closed before the reply came. */
  closed: 'closed',
  /** The socket was not open when the request was made. */
  notConnected: 'not_connected',
} as const;

/** A request that failed: the server's `error` reply (its code, message, field, retryAfterMs) or a local failure. */
export class TerminalRequestError extends Error {
  override readonly name = 'TerminalRequestError';
  readonly field: string | undefined;
  readonly retryAfterMs: number | undefined;

  constructor(
    /** The server's code (`busy`, `invalid`, ...) or one of TerminalClientErrors. */
    readonly code: string,
    message: string,
    /** The server's reply; undefined for a local failure. */
    readonly reply?: TerminalErrorReply,
  ) {
    super(message);
    this.field = reply?.field;
    this.retryAfterMs = reply?.retryAfterMs;
  }
}

export interface ReconnectOptions {
  /** First delay (default 1 s); each failed attempt doubles it up to maxMs (default 30 s), ±50 % jitter. */
  initialMs?: number;
  maxMs?: number;
  /** Close codes after which reconnecting is pointless (default: 1000 after a logout, 4001 replaced). */
  finalCloseCodes?: readonly number[];
}

export interface TerminalSocketOptions {
  /** Opens a new socket: called once at construction and once per reconnect. */
  connect: () => SocketLike;
  /**
   * A request unanswered this long rejects with `timeout` (default 10 s); false: no timer, the request
   * waits until its reply or the close (a load driver with thousands in flight skips a timer each).
   */
  requestTimeoutMs?: number | false;
  /** Heartbeat period after a login; default: the login ack's `config.heartbeat` (30 s for a seat); false: none. */
  heartbeatMs?: number | false;
  /** Reconnect with back-off after a drop; absent or false: a closed TerminalSocket stays closed. */
  reconnect?: ReconnectOptions | false;
  /** Jitter source (tests pin it). */
  random?: () => number;
}

export type TerminalSocketEvents = {
  open: [];
  /** Every text message from the server, replies included, in arrival order. */
  message: [message: TerminalServerMessage];
  /** Messages that are not a reply to a numbered message: pushes, and errors with `seq: null`. */
  push: [message: TerminalServerMessage];
  /** A binary frame (audio or video), as bytes. */
  frame: [bytes: Uint8Array];
  /** `reason`: the `closing` message's reason when one came first, else the WebSocket's. */
  close: [code: number, reason: string];
  /** A reconnect is planned in `delayMs`. */
  reconnect: [delayMs: number];
};

interface Pending {
  resolve(ack: TerminalAck): void;
  reject(error: TerminalRequestError): void;
  /** Undefined for a request without a timeout. */
  timer: TimerHandle;
}

const DEFAULT_REQUEST_TIMEOUT_MS = 10_000;
const DEFAULT_FINAL_CLOSES: readonly number[] = [TerminalCloseCodes.normal, TerminalCloseCodes.replaced];

/**
 * A client of the server's `/terminal` (docs/terminal-protocol.md): every message gets the next
 * `seq`, and `request` settles with the reply of that seq (ack, or a TerminalRequestError of the
 * error). Pushes and binary frames are events. After `login` it sends heartbeats; optionally it
 * reconnects with back-off (the caller logs in again on `open`).
 */
export class TerminalSocket extends Emitter<TerminalSocketEvents> {
  private socket: SocketLike;
  private seq = 0;
  private readonly pending = new Map<number, Pending>();
  private heartbeat: TimerHandle;
  private heartbeatPeriodMs = 0;
  private reconnectTimer: TimerHandle;
  /** The last password login's `resume` token and its phone (docs/terminal-protocol.md, "Login"). */
  private resume: { phone: string; token: string } | undefined;
  private backoffMs: number;
  private closingReason = '';
  private stopped = false;

  constructor(private readonly options: TerminalSocketOptions) {
    super();
    this.backoffMs = this.reconnectOptions()?.initialMs ?? 1000;
    this.socket = this.attach(options.connect());
  }

  get isOpen(): boolean {
    return this.socket.readyState === SOCKET_OPEN;
  }

  /** Bytes the current socket has not sent yet. */
  get bufferedAmount(): number {
    return this.socket.bufferedAmount;
  }

  /** Resolves when the current socket is open; rejects if it closes first. */
  opened(): Promise<void> {
    if (this.isOpen) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const offOpen = this.on('open', () => {
        offClose();
        resolve();
      });
      const offClose = this.on('close', (code) => {
        offOpen();
        reject(
          new TerminalRequestError(TerminalClientErrors.closed, `the connection closed (${code}) before it opened`),
        );
      });
    });
  }

  /** Sends `message` with the next seq without waiting; returns the seq, 0 when the socket is not open. */
  send(message: TerminalRequest): number {
    if (!this.isOpen) return 0;
    this.seq += 1;
    this.socket.send(JSON.stringify({ seq: this.seq, ...message }));
    return this.seq;
  }

  /**
   * Sends `message` and settles with its reply: the ack, or a TerminalRequestError. `timeoutMs`
   * (default: the option's) false: no timer, it settles with the reply or the close.
   */
  request(message: TerminalRequest, timeoutMs = this.options.requestTimeoutMs): Promise<TerminalAck> {
    const seq = this.send(message);
    const what = String(message.type);
    if (!seq) {
      return Promise.reject(new TerminalRequestError(TerminalClientErrors.notConnected, `${what}: not connected`));
    }
    return new Promise((resolve, reject) => {
      const ms = timeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
      const timer =
        ms === false
          ? undefined
          : after(ms, () => {
              this.pending.delete(seq);
              reject(new TerminalRequestError(TerminalClientErrors.timeout, `${what}: no reply within ${ms} ms`));
            });
      this.pending.set(seq, { resolve, reject, timer });
    });
  }

  /** Like `request`, but an `error` reply resolves too (test clients assert on refusals); rejects on timeout or close. */
  async exchange(message: TerminalRequest, timeoutMs?: number | false): Promise<TerminalAck | TerminalErrorReply> {
    try {
      return await this.request(message, timeoutMs);
    } catch (error) {
      if (error instanceof TerminalRequestError && error.reply) return error.reply;
      throw error;
    }
  }

  /**
   * Logs in (`{phone, password}` or a seat's `{authCode}`); on the ack heartbeats start and the back-off
   * resets. The `resume` token of this socket's last password login for the same phone goes along (the
   * server then skips the password's costly check); a login refused with it forgets it.
   */
  async login(fields: TerminalRequest): Promise<TerminalAck> {
    const phone = typeof fields.phone === 'string' ? fields.phone : undefined;
    const resume = phone !== undefined && this.resume?.phone === phone ? this.resume.token : undefined;
    let ack: TerminalAck;
    try {
      ack = await this.request({ type: 'login', ...(resume ? { resume } : {}), ...fields });
    } catch (error) {
      if (resume && error instanceof TerminalRequestError && error.reply) this.resume = undefined;
      throw error;
    }
    if (phone !== undefined && typeof ack.resume === 'string') this.resume = { phone, token: ack.resume };
    this.backoffMs = this.reconnectOptions()?.initialMs ?? 1000;
    const config = ack.config as { heartbeat?: unknown } | undefined;
    this.startHeartbeat(typeof config?.heartbeat === 'number' ? config.heartbeat : TerminalLimits.heartbeatSeconds);
    return ack;
  }

  /** Logs out; the server acks and closes, and no reconnect follows, whatever the close code. */
  logout(timeoutMs?: number | false): Promise<TerminalAck> {
    this.stopReconnecting();
    return this.request({ type: 'logout' }, timeoutMs);
  }

  /** Sends a binary frame; false when the socket is not open. */
  sendFrame(bytes: Uint8Array): boolean {
    if (!this.isOpen) return false;
    // Node's Buffer types its memory as possibly shared; frames never are, and `ws` takes either.
    this.socket.send(bytes as Uint8Array<ArrayBuffer>);
    return true;
  }

  /** Closes for good: no reconnect; pending requests reject with `closed` when the socket has closed. */
  close(code?: number, reason?: string): void {
    this.stopReconnecting();
    this.socket.close(code, reason);
  }

  private stopReconnecting(): void {
    this.stopped = true;
    cancel(this.reconnectTimer);
    this.reconnectTimer = undefined;
  }

  private attach(socket: SocketLike): SocketLike {
    // A browser's default `blob` arrives asynchronously; `ws`'s Buffer already is a Uint8Array.
    if (socket.binaryType !== 'nodebuffer') socket.binaryType = 'arraybuffer';
    this.closingReason = '';
    socket.onopen = () => this.emit('open');
    socket.onmessage = (event) => this.received(event.data);
    // The close event follows an error; it is the one that settles everything.
    socket.onerror = () => undefined;
    socket.onclose = (event) => this.closed(socket, event.code, event.reason);
    return socket;
  }

  private received(data: unknown): void {
    if (typeof data !== 'string') {
      const bytes = asBytes(data);
      if (bytes) this.emit('frame', bytes);
      return;
    }
    const message = parse(data);
    if (!message) return;
    if (message.type === 'closing') this.closingReason = message.reason;
    if (message.type === 'config' && this.heartbeat !== undefined) this.startHeartbeat(message.config.heartbeat);
    this.emit('message', message);
    if ((message.type !== 'ack' && message.type !== 'error') || typeof message.seq !== 'number') {
      this.emit('push', message);
      return;
    }
    const waiting = this.pending.get(message.seq);
    if (!waiting) return;
    this.pending.delete(message.seq);
    cancel(waiting.timer);
    if (message.type === 'ack') waiting.resolve(message);
    else waiting.reject(new TerminalRequestError(message.code, message.message, message));
  }

  private closed(socket: SocketLike, code: number, reason: string): void {
    socket.onopen = socket.onmessage = socket.onclose = null;
    cancel(this.heartbeat);
    this.heartbeat = undefined;
    const failure = `the connection closed (${code}) before the reply`;
    for (const waiting of this.pending.values()) {
      cancel(waiting.timer);
      waiting.reject(new TerminalRequestError(TerminalClientErrors.closed, failure));
    }
    this.pending.clear();
    this.emit('close', code, this.closingReason || reason);
    const reconnect = this.reconnectOptions();
    if (!reconnect || this.stopped || (reconnect.finalCloseCodes ?? DEFAULT_FINAL_CLOSES).includes(code)) return;
    const delayMs = this.backoffMs * (0.5 + (this.options.random ?? Math.random)());
    this.backoffMs = Math.min(this.backoffMs * 2, reconnect.maxMs ?? 30_000);
    this.reconnectTimer = after(
      delayMs,
      () => {
        this.reconnectTimer = undefined;
        this.socket = this.attach(this.options.connect());
      },
      true,
    );
    this.emit('reconnect', delayMs);
  }

  /**
   * Reconnects at once when a reconnect is waiting out its back-off (the device says its network is
   * back), with the back-off reset; does nothing otherwise.
   */
  reconnectNow(): void {
    if (this.reconnectTimer === undefined || this.stopped) return;
    cancel(this.reconnectTimer);
    this.reconnectTimer = undefined;
    this.backoffMs = this.reconnectOptions()?.initialMs ?? 1000;
    this.socket = this.attach(this.options.connect());
  }

  /** (Re)starts heartbeats every `seconds`, unless the options fix or forbid them. */
  private startHeartbeat(seconds: number): void {
    const { heartbeatMs } = this.options;
    if (heartbeatMs === false) return;
    const periodMs = heartbeatMs ?? seconds * 1000;
    if (this.heartbeat !== undefined && periodMs === this.heartbeatPeriodMs) return;
    cancel(this.heartbeat);
    this.heartbeatPeriodMs = periodMs;
    this.heartbeat = every(periodMs, () => void this.request({ type: 'heartbeat' }).catch(() => undefined));
  }

  private reconnectOptions(): ReconnectOptions | undefined {
    return this.options.reconnect || undefined;
  }
}

/** A server message, or undefined for text that is not one (bad JSON is ignored, not fatal). */
function parse(text: string): TerminalServerMessage | undefined {
  try {
    const value: unknown = JSON.parse(text);
    if (typeof value === 'object' && value !== null && typeof (value as { type?: unknown }).type === 'string') {
      return value as TerminalServerMessage;
    }
  } catch {
    // Not JSON: ignored like any message this client does not understand.
  }
  return undefined;
}

function asBytes(data: unknown): Uint8Array | undefined {
  if (data instanceof Uint8Array) return data;
  if (data instanceof ArrayBuffer) return new Uint8Array(data);
  return undefined;
}
