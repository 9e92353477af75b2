import { HubCloseErrors } from '@intercom/contract';
import type { AuthContext } from '../auth/authContext.js';
import type { Clock, ClockTimer } from '../core/clock.js';
import type { HubOptions, TransportKind } from './hubOptions.js';
import { ProtocolError, checkHandshake, handshakeError, type HubMessage } from './hubProtocol.js';
import { HandshakeReader, JSON_WIRE, joinPayloads, wireOf, type HubWire, type Payload } from './hubWire.js';
import type { ServerStream } from './serverStream.js';
import type { TransportSink } from './transports.js';

/** What the connection needs from the hub that owns it. */
export interface ConnectionHost {
  readonly options: HubOptions;
  /** The time the connection's timestamps and close timer read (AppDeps.clock). */
  readonly clock: Clock;
  dispatch(connection: HubConnection, message: HubMessage): void;
  connected(connection: HubConnection): void;
  disposed(connection: HubConnection, reason: string): void;
}

interface Queued {
  /** Text of the JSON protocol, bytes of MessagePack; its length counts as characters. */
  text: Payload;
  /** Pushes are dropped when the connection closes; replies and control records never are. */
  droppable: boolean;
}

export interface SendOptions {
  /** A push: the feeds hold what a slow client cannot take yet (LiveFeeds), so none is refused here. */
  droppable?: boolean;
}

/** A streaming transport never gets one write larger than this; a long poll takes the whole queue. */
const MAX_WRITE_CHARS = 64 * 1024;

/**
 * One SignalR connection: its identity, the transport it is bound to, its outgoing queue with the
 * backpressure cap, and the handshake. Records it receives go to the hub's dispatcher.
 */
export class HubConnection {
  readonly createdAt: number;
  readonly streams = new Map<string, ServerStream>();
  sink: TransportSink | null = null;
  /** A WebSocket upgrade is under way for this connection; a second one is refused. */
  claimed = false;
  handshaken = false;
  attachedAt = 0;
  lastSentAt: number;
  /** When the client last sent anything (records, pings); a silent one is dropped (clientTimeoutMs). */
  lastReceivedAt: number;
  /** Any traffic from the client since the hub last touched the session. */
  active = true;
  /** The most characters ever waiting for this client at once (queue and transport): a slow consumer's bound. */
  peakPendingChars = 0;
  /** Characters of the last snapshot; the cap on unread replies never falls below two of them. */
  snapshotChars = 0;
  /** A token that recently resolved to this connection's account, and when. */
  verifiedToken: string | undefined;
  verifiedAt = 0;
  private lifecycle: 'open' | 'closing' | 'closed' = 'open';
  private queue: Queued[] = [];
  private queuedChars = 0;
  /** Droppable records (pushes) in the queue, not yet handed to the transport. */
  private queuedPushes = 0;
  private tellingReady = false;
  private ending = false;
  private closeTimer: ClockTimer | null = null;
  private readonly handshake: HandshakeReader;
  /** The protocol the handshake chose; null before it. */
  private chosenWire: HubWire | null = null;
  private readonly readyHandlers = new Set<() => void>();
  private readonly disposeHandlers = new Set<() => void>();

  constructor(
    /** Public name, used for addressing. */
    readonly connectionId: string,
    /** Secret: the `id` of every later request. */
    readonly connectionToken: string,
    readonly principal: AuthContext,
    private readonly host: ConnectionHost,
  ) {
    this.handshake = new HandshakeReader(host.options.maxMessageChars);
    this.createdAt = host.clock.now();
    this.lastSentAt = this.createdAt;
    this.lastReceivedAt = this.createdAt;
  }

  /** How this connection's records are written (JSON until the handshake chose otherwise). */
  get wire(): HubWire {
    return this.chosenWire ?? JSON_WIRE;
  }

  get transport(): TransportKind | null {
    return this.sink?.kind ?? null;
  }

  get state(): 'open' | 'closing' | 'closed' {
    return this.lifecycle;
  }

  /** Closing, and the last record has been handed to the transport. */
  get drained(): boolean {
    return this.lifecycle === 'closed' || (this.lifecycle === 'closing' && this.ending);
  }

  /** Characters waiting for the client: queued here plus held by the transport. */
  get pendingChars(): number {
    return this.queuedChars + (this.sink?.buffered() ?? 0);
  }

  /**
   * Whether a push sent now would go to the transport at once: no push waits in the queue and the
   * transport takes writes. A feed holds (conflates) its changes while this is false, and sends
   * them when the `onReadyForPushes` handlers are called.
   */
  get readyForPushes(): boolean {
    return this.lifecycle === 'open' && this.queuedPushes === 0 && (this.sink?.ready() ?? false);
  }

  attach(sink: TransportSink): void {
    this.sink = sink;
    this.attachedAt = this.host.clock.now();
    this.pump();
  }

  /** Called whenever the connection becomes `readyForPushes` (the transport drained, a poll came). */
  onReadyForPushes(handler: () => void): () => void {
    this.readyHandlers.add(handler);
    return () => this.readyHandlers.delete(handler);
  }

  onDispose(handler: () => void): () => void {
    this.disposeHandlers.add(handler);
    return () => this.disposeHandlers.delete(handler);
  }

  /** Data from the client: the handshake first, then hub messages of the protocol it chose. */
  receive(data: string | Uint8Array): void {
    if (this.lifecycle !== 'open') return;
    this.active = true;
    this.lastReceivedAt = this.host.clock.now();
    let messages: HubMessage[];
    try {
      const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
      const rest = this.chosenWire ? bytes : this.readHandshake(bytes);
      if (!rest || !this.chosenWire || this.lifecycle !== 'open') return;
      messages = rest.length === 0 ? [] : this.chosenWire.read(rest);
    } catch (error) {
      if (!(error instanceof ProtocolError)) throw error;
      this.close({ error: HubCloseErrors.protocolError });
      return;
    }
    for (const message of messages) {
      if (this.lifecycle !== 'open') return;
      this.host.dispatch(this, message);
    }
  }

  /** The handshake: answers it, and returns what followed it (undefined until it is complete). */
  private readHandshake(bytes: Uint8Array): Uint8Array | undefined {
    const read = this.handshake.push(bytes);
    if (!read) return undefined;
    const answer = checkHandshake(read.record, this.sink?.kind !== 'ServerSentEvents');
    if ('error' in answer) {
      this.enqueue(handshakeError(answer.error), false);
      this.finish();
      return undefined;
    }
    this.chosenWire = wireOf(answer.protocol, this.host.options.maxMessageChars);
    this.handshaken = true;
    this.enqueue(this.chosenWire.handshakeOk, false);
    this.host.connected(this);
    return read.rest;
  }

  /**
   * Queues a record. Pushes are never refused: LiveFeeds sends one only when the connection is
   * `readyForPushes` (or a snapshot), and holds the rest merged by key.
   */
  send(text: Payload, options: SendOptions = {}): boolean {
    if (this.lifecycle !== 'open' || !this.handshaken) return false;
    const droppable = options.droppable ?? false;
    const cap = Math.max(this.host.options.maxQueueChars, 2 * this.snapshotChars);
    if (!droppable && this.queuedChars > 4 * cap) {
      // The client sends but never reads its replies: nothing else bounds this queue.
      this.close({ error: HubCloseErrors.overloaded });
      return false;
    }
    this.enqueue(text, droppable);
    return true;
  }

  /** Hands queued records to the transport for as long as it takes them. */
  pump(): void {
    const sink = this.sink;
    if (!sink || this.lifecycle === 'closed') return;
    while (this.queue.length > 0 && sink.ready()) {
      const limit = sink.kind === 'LongPolling' ? Number.POSITIVE_INFINITY : MAX_WRITE_CHARS;
      let count = 0;
      let size = 0;
      for (const item of this.queue) {
        if (count > 0 && size + item.text.length > limit) break;
        count += 1;
        size += item.text.length;
      }
      // One record keeps its string: a push shared by a scope stays one string (one encoding).
      const taken = this.queue.splice(0, count);
      const payload = count === 1 ? (taken[0]?.text ?? '') : joinPayloads(taken.map((item) => item.text));
      this.queuedChars -= size;
      for (const item of taken) if (item.droppable) this.queuedPushes -= 1;
      this.lastSentAt = this.host.clock.now();
      sink.write(payload);
    }
    this.peakPendingChars = Math.max(this.peakPendingChars, this.pendingChars);
    if (this.lifecycle === 'closing' && this.queue.length === 0 && !this.ending) {
      this.ending = true;
      sink.end(true);
    }
    this.tellReady();
  }

  /** Lets the feeds send what they held back; a push they send from here pumps again, not recursing. */
  private tellReady(): void {
    if (this.tellingReady || this.readyHandlers.size === 0 || !this.readyForPushes) return;
    this.tellingReady = true;
    try {
      for (const handler of this.readyHandlers) handler();
    } finally {
      this.tellingReady = false;
    }
  }

  /**
   * Closes with a Close record (error text, and whether the client may reconnect), after the
   * records already queued; pushes still queued are dropped first.
   */
  close(options: { error?: string; allowReconnect?: boolean } = {}): void {
    if (this.lifecycle !== 'open') return;
    if (this.handshaken) {
      this.dropBacklog();
      this.enqueue(this.wire.close(options.error, options.allowReconnect), false);
    }
    this.finish();
  }

  /**
   * The client sent Close. A long-polling client still sends DELETE, which must find the connection
   * (202), so that one only stops taking records; the others end at once.
   */
  closedByClient(): void {
    if (this.lifecycle !== 'open') return;
    if (this.sink?.kind !== 'LongPolling') {
      this.dispose('closed by the client');
      return;
    }
    this.queue = [];
    this.queuedChars = 0;
    this.queuedPushes = 0;
    this.finish();
  }

  /** Ends the connection at once: streams stop, a held poll gets 204, a socket is cut. */
  dispose(reason: string): void {
    if (this.lifecycle === 'closed') return;
    this.lifecycle = 'closed';
    this.closeTimer?.cancel();
    this.queue = [];
    this.queuedChars = 0;
    this.queuedPushes = 0;
    for (const stream of [...this.streams.values()]) stream.abandon();
    for (const handler of this.disposeHandlers) handler();
    this.disposeHandlers.clear();
    this.readyHandlers.clear();
    if (!this.ending) {
      this.ending = true;
      this.sink?.end(false);
    }
    this.host.disposed(this, reason);
  }

  private enqueue(text: Payload, droppable: boolean): void {
    this.queue.push({ text, droppable });
    this.queuedChars += text.length;
    if (droppable) this.queuedPushes += 1;
    this.pump();
  }

  private dropBacklog(): void {
    this.queue = this.queue.filter((item) => !item.droppable);
    this.queuedChars = this.queue.reduce((sum, item) => sum + item.text.length, 0);
    this.queuedPushes = 0;
  }

  /** Ends after the queue drains; a client that never takes it is cut after the disconnect timeout. */
  private finish(): void {
    this.lifecycle = 'closing';
    if (!this.sink) {
      this.dispose('closed before a transport connected');
      return;
    }
    this.closeTimer = this.host.clock.timeout(
      () => this.dispose('close not taken in time'),
      this.host.options.disconnectTimeoutMs,
    );
    this.pump();
  }
}
