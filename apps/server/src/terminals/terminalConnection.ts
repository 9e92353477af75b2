import {
  TerminalCloseCodes,
  VideoFrame,
  TerminalErrors,
  terminalClientMessageSchema,
  type TerminalClientMessage,
  type TerminalCloseReason,
  type TerminalConfig,
  type TerminalErrorCode,
  type TerminalServerMessage,
  type TalkServerMessage,
} from '@intercom/contract';
import { FrameLimits, frameKind } from '@intercom/terminal-client';
import type { Socket } from 'node:net';
import type { RawData, WebSocket } from 'ws';
import type { TerminalLoginStamp } from '../bus/eventBus.js';
import type { BinarySink } from '../http/webSocketFrame.js';
import { AudioOutbox } from '../talk/audioOutbox.js';
import type { Talker } from '../talk/floorMachine.js';
import type { Seat } from '../talk/talkPeer.js';
import { RefusalEpisodes, type RefusalEpisode, type RefusalKind } from '../core/refusalEpisodes.js';
import { TokenBucket } from '../core/tokenBucket.js';
import { tcpSocketOf } from '../http/webSocketFrame.js';
import type { TalkService } from '../talk/talkService.js';
import type { VideoPeer, VideoService } from '../video/videoService.js';
import { handleReport } from './terminalReports.js';
import type { ReportingUser, TerminalService } from './terminalService.js';
import type { TerminalOptions } from './terminalOptions.js';

/** What a connection asks of its gateway. */
export interface ConnectionHost {
  readonly service: TerminalService;
  readonly options: TerminalOptions;
  readonly talk: TalkService;
  readonly video: VideoService;
  login(connection: TerminalConnection, message: Extract<TerminalClientMessage, { type: 'login' }>): Promise<void>;
  closed(connection: TerminalConnection): void;
}

const KNOWN_TYPES: ReadonlySet<string> = new Set(terminalClientMessageSchema.options.map((o) => o.shape.type.value));
/** The messages the talk and video services handle, queued in order by `talkMessage`. */
const TALK_TYPES = {
  join: true,
  leave: true,
  floorRequest: true,
  floorRelease: true,
  call: true,
  hangup: true,
  channels: true,
  videoCaps: true,
  videoApply: true,
  videoFree: true,
  videoList: true,
} as const;
type TalkClientMessage = Extract<TerminalClientMessage, { type: keyof typeof TALK_TYPES }>;
/** Unread replies beyond which a terminal that never reads is dropped. */
const MAX_BUFFERED_BYTES = 1024 * 1024;
const CONNECTING = 0;
const OPEN = 1;

type Result = Record<string, unknown>;
type Frame =
  | { raw: Record<string, unknown>; seq: number | null; fault?: undefined }
  | { raw?: undefined; seq: null; fault: [TerminalErrorCode, string] };

const fault = (code: TerminalErrorCode, message: string): Frame => ({ seq: null, fault: [code, message] });

/**
 * One terminal socket: parses and validates each frame, enforces the size and rate limits, and
 * answers every message with an `ack` or an `error` carrying its `seq`. Nothing a terminal sends
 * can throw out of here, so one bad terminal never disturbs another.
 */
export class TerminalConnection implements VideoPeer {
  state: 'new' | 'loggingIn' | 'online' | 'closing' = 'new';
  user: ReportingUser | null = null;
  config: TerminalConfig | null = null;
  /** Set at login: orders this login against the same user's logins on other instances. */
  loginStamp: TerminalLoginStamp | null = null;
  /** Set at login: who this connection is on a floor. */
  talker: Talker = { key: '', uid: 0, name: '', priority: 0 };
  /** A dispatcher seat (login with an AuthCode) instead of a terminal user. */
  seat: Seat | null = null;
  /** Audio to this listener: bounded, drops its own oldest frames when it falls behind. */
  readonly outbox: AudioOutbox;
  /** Where a viewer's video queue writes (VideoService gives each watched stream its own queue). */
  readonly binary: BinarySink;
  /** Why the server closed the socket; null when the terminal or the network did. */
  closeReason: TerminalCloseReason | null = null;
  /** Logins refused on this socket for credentials or limits; at `loginFailuresPerSocket` it closes. */
  loginFailures = 0;
  /** Times on the service's clock (AppDeps.clock): the gateway's sweep judges them by it. */
  readonly openedAt: number;
  lastMessageAt: number;
  private readonly messages: TokenBucket;
  /** Refused messages and frames, counted per episode against `floodCloseAfter`. */
  private readonly refusals: RefusalEpisodes;
  private corked = false;
  /** Talk messages in the order they came (join, floor and call handling may wait for the database). */
  private talkQueue: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly socket: WebSocket,
    private readonly host: ConnectionHost,
    readonly ip: string,
  ) {
    this.openedAt = host.service.clock.now();
    this.lastMessageAt = this.openedAt;
    this.messages = new TokenBucket(host.options.messagesPerSecond, host.options.messagesBurst, this.openedAt);
    this.refusals = new RefusalEpisodes(
      host.options.floodQuietMs,
      (episode) => this.logEpisode(episode),
      host.service.clock,
    );
    // Text (floor events) and binary (audio, video) share the socket, in the order queued.
    this.binary = { send: (data, done) => socket.send(data, { binary: typeof data !== 'string' }, done) };
    this.outbox = new AudioOutbox({ send: (entry, done) => this.sendWire(entry, done) });
    socket.on('message', (data, isBinary) => this.receive(data, isBinary));
    socket.on('close', () => {
      this.refusals.end();
      if (this.state !== 'closing') this.state = 'closing';
      host.closed(this);
      host.service.safety.detach(this);
    });
    // ws reports protocol errors (a frame above 1 MiB, bad UTF-8) here and closes the socket itself.
    socket.on('error', () => undefined);
  }

  get E_ID(): number {
    return this.seat?.E_ID ?? this.user?.E_ID ?? 0;
  }

  receive(data: RawData, isBinary: boolean): void {
    if (this.state === 'closing') return;
    const now = this.host.service.clock.now();
    this.lastMessageAt = now;
    try {
      if (isBinary) return this.binaryFrame(data, now);
      const frame = this.parse(data);
      if (!this.messages.take(now)) return this.refuse(frame.seq, now);
      if (frame.fault) return this.error(frame.seq, frame.fault[0], frame.fault[1]);
      const { raw, seq } = frame;
      const type = raw.type;
      if (typeof type !== 'string') return this.error(seq, TerminalErrors.invalid, 'type is missing', 'type');
      if (!KNOWN_TYPES.has(type))
        return this.error(seq, TerminalErrors.unknownType, `unknown type ${type.slice(0, 32)}`);
      const result = terminalClientMessageSchema.safeParse(raw);
      if (!result.success) {
        const issue = result.error.issues[0];
        const field = issue?.path.join('.') || undefined;
        return this.error(seq, TerminalErrors.invalid, issue?.message ?? 'invalid', field);
      }
      this.dispatch(result.data, now);
    } catch {
      this.error(null, TerminalErrors.internal, 'internal error');
    }
  }

  /** The frame as a JSON object and its seq, or why it is not one (checked before decoding). */
  private parse(data: RawData): Frame {
    const size = Array.isArray(data) ? data.reduce((n, b) => n + b.length, 0) : data.byteLength;
    if (size > this.host.options.maxMessageBytes) return fault(TerminalErrors.tooLarge, 'message too large');
    const buffer = Buffer.isBuffer(data) ? data : Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data);
    let parsed: unknown;
    try {
      parsed = JSON.parse(buffer.toString('utf8'));
    } catch {
      return fault(TerminalErrors.badJson, 'not JSON');
    }
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
      return fault(TerminalErrors.invalid, 'a message is a JSON object');
    }
    const raw = parsed as Record<string, unknown>;
    const seq = typeof raw.seq === 'number' && Number.isSafeInteger(raw.seq) && raw.seq >= 0 ? raw.seq : null;
    return { raw, seq };
  }

  /**
   * A binary frame: audio (kind 1) or video (kind 2), each with its own rate limit in its service,
   * not the message bucket. Any other kind goes to the talk service, which answers `bad_frame`.
   * Malformed frames are answered each time (each answer says what is wrong) and counted as refusals.
   */
  private binaryFrame(data: RawData, now: number): void {
    const buffer = Buffer.isBuffer(data) ? data : Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data);
    if (this.state !== 'online') return this.badFrame(now, TerminalErrors.notLoggedIn, 'log in first');
    if (frameKind(buffer) === VideoFrame.kindVideo) {
      if (buffer.length > FrameLimits.videoUpBytes)
        return this.badFrame(now, TerminalErrors.tooLarge, 'video frame too large');
      return this.host.video.frame(this, buffer, now);
    }
    if (buffer.length > FrameLimits.audioUpBytes)
      return this.badFrame(now, TerminalErrors.tooLarge, 'audio frame too large');
    // The talk service times the floor on its own clock (AppDeps.clock), frames included.
    this.host.talk.audio(this, buffer);
  }

  /**
   * A refused binary frame (RefusingPeer): counted in the current episode, which closes the socket
   * as flooding at `floodCloseAfter`; an episode gets one error reply at most, not one per frame.
   */
  refused(kind: RefusalKind, now: number, reply?: readonly [TerminalErrorCode, string]): void {
    if (this.countRefusal(kind, now) || !reply || !this.refusals.reply()) return;
    this.error(null, reply[0], reply[1]);
  }

  /** A malformed binary frame: counted like any refusal, and answered every time. */
  badFrame(now: number, code: TerminalErrorCode, message: string): void {
    if (!this.countRefusal('badFrames', now)) this.error(null, code, message);
  }

  ack(seq: number, result: Result = {}): void {
    this.send({ ...result, type: 'ack', seq });
  }

  error(seq: number | null, code: TerminalErrorCode, message: string, field?: string, retryAfterMs?: number): void {
    this.send({
      type: 'error',
      seq,
      code,
      message,
      ...(field ? { field } : {}),
      ...(retryAfterMs !== undefined ? { retryAfterMs } : {}),
    });
  }

  notify(message: TalkServerMessage): void {
    if (this.socket.readyState === OPEN) this.outbox.push(JSON.stringify(message));
  }

  send(message: TerminalServerMessage): void {
    if (this.socket.readyState !== OPEN) return;
    if (this.socket.bufferedAmount > MAX_BUFFERED_BYTES) {
      this.socket.terminate();
      return;
    }
    this.cork();
    this.socket.send(JSON.stringify(message));
  }

  /**
   * An audio outbox's entry: text through ws, an audio frame already framed (webSocketFrame) straight
   * to the TCP socket. ws writes synchronously here (/terminal negotiates no compression, so its
   * sender never queues), so a frame written past it keeps its place among ws's own messages.
   */
  private sendWire(entry: Buffer | string, done: (error?: Error | null) => void): void {
    if (typeof entry === 'string') return this.socket.send(entry, done);
    const raw = this.rawSocket();
    if (this.socket.readyState !== OPEN || !raw) return done(new Error('socket closed'));
    raw.write(entry, done);
  }

  private rawSocket(): Socket | undefined {
    return tcpSocketOf(this.socket);
  }

  /**
   * A pipelining terminal sends many messages in one TCP read; corking the socket until the end of
   * the tick sends all their replies in one write instead of one system call each.
   */
  private cork(): void {
    const raw = this.rawSocket();
    if (this.corked || !raw) return;
    this.corked = true;
    raw.cork();
    process.nextTick(() => {
      this.corked = false;
      raw.uncork();
    });
  }

  /** Tells the terminal why (when it can still hear it) and closes the socket. */
  close(reason: TerminalCloseReason, code: number): void {
    if (this.state === 'closing') return;
    this.state = 'closing';
    this.closeReason = reason;
    this.send({ type: 'closing', reason });
    // A socket already closing (the WebSocket plugin closes every client on shutdown) keeps its queued acks.
    if (this.socket.readyState === OPEN) this.socket.close(code, reason);
    else if (this.socket.readyState === CONNECTING) this.socket.terminate();
  }

  private dispatch(message: TerminalClientMessage, now: number): void {
    const { seq } = message;
    if (message.type === 'heartbeat') return this.ack(seq, { serverTime: now });
    if (message.type === 'login') {
      if (this.state !== 'new') return this.error(seq, TerminalErrors.alreadyLoggedIn, 'already logged in');
      this.state = 'loggingIn';
      this.host.login(this, message).then(
        // A terminal user's check-ins and standing still are watched from now (docs/safety.md).
        () => this.state === 'online' && this.user && this.host.service.safety.attach(this),
        () => {
          if (this.state === 'loggingIn') this.state = 'new';
          this.error(seq, TerminalErrors.internal, 'login failed');
        },
      );
      return;
    }
    if (this.state !== 'online') return this.error(seq, TerminalErrors.notLoggedIn, 'log in first');
    if (message.type === 'logout') {
      this.ack(seq);
      return this.close('logout', 1000);
    }
    if (this.talkMessage(message)) return;
    const user = this.user;
    if (!user) return this.error(seq, TerminalErrors.notSupported, `a dispatcher seat sends no ${message.type}`);
    handleReport(this, this.host.service, user, message, now);
  }

  /**
   * Channel, floor, call and video messages go to the talk and video services, one after the other: a terminal that
   * sends `join` and `floorRequest` without waiting gets them handled in that order. False for any
   * other message; the predicate lets `dispatch` check that its own switch covers the rest.
   */
  private talkMessage(message: TerminalClientMessage): message is TalkClientMessage {
    if (!Object.hasOwn(TALK_TYPES, message.type)) return false;
    this.queueTalk(message as TalkClientMessage);
    return true;
  }

  private queueTalk(message: TalkClientMessage): void {
    const talk = this.host.talk;
    const { seq } = message;
    let run: () => unknown;
    switch (message.type) {
      case 'join':
        run = () => talk.join(this, message.cid, seq);
        break;
      case 'leave':
        run = () => talk.leave(this, message.cid, seq);
        break;
      case 'floorRequest':
        run = () => talk.floorRequest(this, message.cid, seq);
        break;
      case 'floorRelease':
        run = () => talk.floorRelease(this, message.cid, seq);
        break;
      case 'call':
        run = () => talk.call(this, message.uid, seq);
        break;
      case 'hangup':
        run = () => talk.hangup(this, message.cid, seq);
        break;
      case 'channels':
        run = () => talk.channels(this, seq);
        break;
      case 'videoCaps':
        run = () => this.host.video.caps(this, message.codecs, seq);
        break;
      case 'videoApply':
        run = () => this.host.video.apply(this, message.uid, seq);
        break;
      case 'videoFree':
        run = () => this.host.video.free(this, message.uid, seq);
        break;
      case 'videoList':
        run = () => this.host.video.list(this, seq);
        break;
    }
    this.talkQueue = this.talkQueue
      .then(run)
      .catch(() => this.error(seq, TerminalErrors.internal, 'internal error; send it again'));
  }

  /**
   * A message over the rate (`messagesPerSecond` on average, `messagesBurst` at once): dropped and
   * answered with its seq, every time (the terminal sends it again later).
   */
  private refuse(seq: number | null, now: number): void {
    if (this.countRefusal('messages', now)) return;
    const retryAfterMs = Math.ceil(1000 / this.host.options.messagesPerSecond);
    this.error(seq, TerminalErrors.rateLimited, 'too many messages', undefined, retryAfterMs);
  }

  /** Counts a refusal; true when it closed the socket as flooding. */
  private countRefusal(kind: RefusalKind, now: number): boolean {
    if (this.state === 'closing') return true;
    if (this.refusals.refuse(kind, now) < this.host.options.floodCloseAfter) return false;
    this.close('flooding', TerminalCloseCodes.policy);
    // Logged now: a client that never answers the close keeps the socket for ws's close timeout.
    this.refusals.end();
    return true;
  }

  /** One line per episode, however many frames it refused. */
  private logEpisode(episode: RefusalEpisode): void {
    const who = this.seat ? { A_ID: this.seat.A_ID, dispatchNo: this.seat.dispatchNo } : { U_ID: this.user?.U_ID };
    const line = { ...who, E_ID: this.E_ID, ip: this.ip, ...episode };
    const log = this.host.talk.log;
    if (episode.closed && this.closeReason === 'flooding') log.warn(line, 'refusal episode');
    else log.info(line, 'refusal episode');
  }
}
