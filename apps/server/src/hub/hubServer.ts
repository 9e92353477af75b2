import { randomBytes } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { HubCloseErrors } from '@intercom/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { AuthContext } from '../auth/authContext.js';
import type { Clock, ClockTimer } from '../core/clock.js';
import type { SessionPolicy } from '../auth/sessions.js';
import type { DB } from '../db/schema.js';
import type { EventBus } from '../bus/eventBus.js';
import { HubConnection, type ConnectionHost } from './hubConnection.js';
import { hubOptionsOf, type HubOptions, type TransportKind } from './hubOptions.js';
import { HubMethods, type HubMethod } from './hubMethods.js';
import { MessageType, type HubMessage } from './hubProtocol.js';
import { checkHubSessions } from './sessionWatch.js';
import { LongPollingSink } from './transports.js';

export interface HubEvents {
  connected: [HubConnection];
  disconnected: [HubConnection, string];
  message: [HubConnection, HubMessage];
}

export interface HubServerDeps {
  db: Kysely<DB>;
  bus: EventBus;
  sessionPolicy: SessionPolicy;
  log: FastifyBaseLogger;
  /** The time of the protocol's timers and the session check (AppDeps.clock). */
  clock: Clock;
}

export interface NegotiateBody {
  connectionId: string;
  connectionToken?: string;
  negotiateVersion: number;
  availableTransports: { transport: TransportKind; transferFormats: string[] }[];
}

function closeErrorOf(reason: string | null): string {
  if (reason === 'replaced') return HubCloseErrors.sessionReplaced;
  if (reason === 'expired') return HubCloseErrors.tokenExpired;
  return HubCloseErrors.sessionEnded;
}

function newId(bytes: number): string {
  return randomBytes(bytes).toString('base64url');
}

export { HubError, type HubCallContext, type HubMethod } from './hubMethods.js';

/**
 * The hub: every connection by its secret token, the dispatcher of hub messages (methods are run
 * by hubMethods.ts), the timers of the protocol (handshake, keep-alive, dead long-polling clients) and the link between
 * hub connections and the sessions behind them.
 */
export class HubServer extends EventEmitter<HubEvents> implements ConnectionHost {
  readonly options: HubOptions;
  private readonly byToken = new Map<string, HubConnection>();
  private readonly methods: HubMethods;
  private readonly perSession = new Map<number, number>();
  private readonly scanTimer: ClockTimer;
  private readonly sessionTimer: ClockTimer;
  private readonly unsubscribeBus: () => void;
  private checkingSessions = false;
  private closing = false;

  constructor(
    private readonly deps: HubServerDeps,
    options: Partial<HubOptions> = {},
  ) {
    super();
    this.options = hubOptionsOf(options);
    this.methods = new HubMethods(deps.log);
    const { keepAliveMs, clientTimeoutMs, handshakeTimeoutMs, disconnectTimeoutMs } = this.options;
    const shortest = Math.min(
      keepAliveMs > 0 ? keepAliveMs : Infinity,
      clientTimeoutMs > 0 ? clientTimeoutMs : Infinity,
      handshakeTimeoutMs,
      disconnectTimeoutMs,
    );
    this.scanTimer = deps.clock.interval(() => this.scan(), Math.max(20, Math.min(1000, shortest / 2)));
    this.sessionTimer = deps.clock.interval(() => void this.checkSessions(), this.options.sessionCheckMs);
    this.unsubscribeBus = deps.bus.on('sessionsEnded', (event) => this.closeSessions(event.sessionIds, event.reason));
  }

  get clock(): Clock {
    return this.deps.clock;
  }

  get isClosing(): boolean {
    return this.closing;
  }

  get size(): number {
    return this.byToken.size;
  }

  addMethod(name: string, method: HubMethod): void {
    this.methods.add(name, method);
  }

  /**
   * A negotiated connection of `principal` (negotiate v0 has no separate token), or undefined when
   * its session already holds the most connections allowed.
   */
  create(principal: AuthContext, negotiateVersion = 1): HubConnection | undefined {
    const sessionId = principal.session.S_ID;
    const held = this.perSession.get(sessionId) ?? 0;
    if (held >= this.options.maxConnectionsPerSession) return undefined;
    this.perSession.set(sessionId, held + 1);
    const connectionId = newId(16);
    const token = negotiateVersion >= 1 ? newId(32) : connectionId;
    const connection = new HubConnection(connectionId, token, principal, this);
    this.byToken.set(token, connection);
    return connection;
  }

  negotiateBody(connection: HubConnection, negotiateVersion: number): NegotiateBody {
    const availableTransports = this.options.transports.map((transport) => ({
      transport,
      transferFormats: transport === 'ServerSentEvents' ? ['Text'] : ['Text', 'Binary'],
    }));
    if (negotiateVersion < 1) {
      return { connectionId: connection.connectionId, negotiateVersion: 0, availableTransports };
    }
    return {
      connectionId: connection.connectionId,
      connectionToken: connection.connectionToken,
      negotiateVersion: 1,
      availableTransports,
    };
  }

  get(token: string): HubConnection | undefined {
    const connection = this.byToken.get(token);
    return connection && connection.state !== 'closed' ? connection : undefined;
  }

  find(connectionId: string): HubConnection | undefined {
    for (const connection of this.byToken.values()) if (connection.connectionId === connectionId) return connection;
    return undefined;
  }

  connections(): HubConnection[] {
    return [...this.byToken.values()];
  }

  /**
   * Closes the hub connections of ended sessions with the reason's error text (no reconnect). The
   * reason is an `EndReason`, or the session row's EndReason column as read (any text, or null).
   */
  closeSessions(sessionIds: readonly number[], reason: string | null): number {
    const ended = new Set(sessionIds);
    let count = 0;
    for (const connection of this.connections()) {
      if (!ended.has(connection.principal.session.S_ID)) continue;
      connection.close({ error: closeErrorOf(reason) });
      count += 1;
    }
    return count;
  }

  closeConnection(connectionId: string, options: { error?: string; allowReconnect?: boolean } = {}): boolean {
    const connection = this.find(connectionId);
    connection?.close(options);
    return connection !== undefined;
  }

  /** Drops a connection without a Close record, as a crash or a lost network would. */
  abortConnection(connectionId: string, reason = 'aborted by the server'): boolean {
    const connection = this.find(connectionId);
    connection?.dispose(reason);
    return connection !== undefined;
  }

  /** Shutdown: every client is told to reconnect (to another instance, or after the restart). */
  async close(graceMs = 1000): Promise<void> {
    if (this.closing) return;
    this.closing = true;
    this.scanTimer.cancel();
    this.sessionTimer.cancel();
    this.unsubscribeBus();
    for (const connection of this.connections()) {
      connection.close({ error: HubCloseErrors.serverRestarting, allowReconnect: true });
    }
    const deadline = Date.now() + graceMs;
    const waiting = () => this.connections().some((connection) => !connection.drained);
    while (waiting() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    for (const connection of this.connections()) connection.dispose('server closed');
  }

  // ---- ConnectionHost ----

  connected(connection: HubConnection): void {
    this.emit('connected', connection);
  }

  disposed(connection: HubConnection, reason: string): void {
    this.byToken.delete(connection.connectionToken);
    const sessionId = connection.principal.session.S_ID;
    const held = (this.perSession.get(sessionId) ?? 1) - 1;
    if (held > 0) this.perSession.set(sessionId, held);
    else this.perSession.delete(sessionId);
    this.emit('disconnected', connection, reason);
  }

  dispatch(connection: HubConnection, message: HubMessage): void {
    this.emit('message', connection, message);
    switch (message.type) {
      case MessageType.Invocation:
        if (message.streamIds?.length) {
          this.methods.reply(connection, message.invocationId, {
            error: 'Client-to-server streaming is not supported.',
          });
        } else {
          this.methods.invoke(connection, message.target, message.arguments, message.invocationId);
        }
        break;
      case MessageType.StreamInvocation:
        this.methods.startStream(connection, message.target, message.arguments, message.invocationId);
        break;
      case MessageType.CancelInvocation:
        connection.streams.get(message.invocationId)?.cancel();
        break;
      case MessageType.Close:
        connection.closedByClient();
        break;
      case MessageType.Ping:
      case MessageType.Completion:
      case MessageType.StreamItem:
      case MessageType.Ack:
      case MessageType.Sequence:
        // Pings only prove the client is there; completions, stream items, acks and sequences
        // answer features this hub never uses.
        break;
    }
  }

  // ---- timers ----

  private scan(): void {
    const now = this.deps.clock.now();
    const { keepAliveMs, clientTimeoutMs, handshakeTimeoutMs, disconnectTimeoutMs } = this.options;
    for (const connection of this.byToken.values()) {
      if (connection.state === 'closed') continue;
      const sink = connection.sink;
      if (!sink) {
        if (now - connection.createdAt > disconnectTimeoutMs) connection.dispose('transport never connected');
        continue;
      }
      if (!connection.handshaken) {
        if (now - connection.attachedAt > handshakeTimeoutMs) connection.dispose('no handshake in time');
        continue;
      }
      if (sink instanceof LongPollingSink) {
        if (!sink.polling && now - sink.lastPollEndAt > disconnectTimeoutMs)
          connection.dispose('long polling client gone');
      } else if (clientTimeoutMs > 0 && now - connection.lastReceivedAt > clientTimeoutMs) {
        // Half-open socket or a hung client: the kernel may not notice for many minutes.
        connection.dispose('client timeout');
      } else if (keepAliveMs > 0 && now - connection.lastSentAt >= keepAliveMs && connection.pendingChars === 0) {
        connection.send(connection.wire.ping);
      }
    }
  }

  /** One pass of the session check (realtime/sessionWatch.ts); the timer runs it every sessionCheckMs. */
  async checkSessions(now = this.deps.clock.now()): Promise<void> {
    if (this.checkingSessions || this.byToken.size === 0) return;
    this.checkingSessions = true;
    try {
      const { db, sessionPolicy } = this.deps;
      await checkHubSessions(
        db,
        sessionPolicy,
        this.connections(),
        (id, reason) => this.closeSessions([id], reason),
        now,
      );
    } catch (error) {
      this.deps.log.error({ err: error }, 'hub session check failed');
    } finally {
      this.checkingSessions = false;
    }
  }
}
