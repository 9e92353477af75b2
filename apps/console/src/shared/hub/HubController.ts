import {
  GpsBlockReader,
  HubMethods,
  HubTargets,
  SESSION_ENDED_CODES,
  hubCloseCode,
  isGpsRecord,
  pushMsgSchema,
  pushNotifySchema,
  type OnlineUser,
  type PushMsg,
  type PushNotify,
} from '@intercom/contract';
import { gpsBlockMessage, onlineBlockMessage, refusesMessagePack, type HubProtocolName } from './hubProtocolChoice';
import { LiveStore } from './LiveStore';
import { isUnauthorized, reconnectDelayMs } from './reconnectDelay';

/** The part of `@microsoft/signalr`'s HubConnection this controller uses (tests pass a fake). */
export interface HubConnectionLike {
  start(): Promise<void>;
  stop(): Promise<void>;
  invoke(methodName: string, ...args: unknown[]): Promise<unknown>;
  on(methodName: string, handler: (argument: unknown) => void): void;
  onclose(callback: (error?: Error) => void): void;
  onreconnecting(callback: (error?: Error) => void): void;
  onreconnected(callback: (connectionId?: string) => void): void;
}

/** What the session check after a 401 or a session Close found. */
export type SessionCheck = 'ended' | 'valid';

export interface HubControllerDeps {
  /** A new, unstarted connection (with the session token and an automatic-reconnect policy). */
  createConnection(protocol: HubProtocolName): HubConnectionLike;
  /**
   * The protocol to try first (JSON unless told). From MessagePack the controller falls back to JSON
   * for good when the server refuses it or sends a position block this console cannot read.
   */
  protocol?: HubProtocolName;
  /**
   * The hub said the session is over (401, or a Close naming 1001/50008/50012/50014). The console's
   * session-failure path decides; `valid` makes the controller try again with back-off.
   */
  checkSession(reason: Error): Promise<SessionCheck>;
  /** Connected again after a loss and subscribed: refetch what the pushes patch. */
  onResync(): void;
  sleep?: (ms: number) => Promise<void>;
  random?: () => number;
  store?: LiveStore;
}

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

function endsSession(error: Error | undefined): error is Error {
  if (!error) return false;
  if (isUnauthorized(error)) return true;
  const code = hubCloseCode(error.message);
  return code !== undefined && SESSION_ENDED_CODES.includes(code);
}

/**
 * A GPS or GPSArray message checked with the contract's record guard instead of zod: they carry
 * every user that moved (50,000 a second in a large enterprise) and zod cost as much as the JSON
 * parse. Undefined for any other message (or a bad one, which zod then refuses).
 */
function gpsMessage(argument: unknown): PushMsg | undefined {
  const message = argument as { type?: unknown; data?: unknown } | null;
  if (message?.type !== 'GPS' && message?.type !== 'GPSArray') return undefined;
  if (!Array.isArray(message.data) || !message.data.every(isGpsRecord)) return undefined;
  return { type: message.type, data: message.data };
}

/** The contract's OnlineUser, checked by hand for the same reason as `gpsMessage` (a snapshot lists 50,000). */
function isOnlineUser(value: unknown): value is OnlineUser {
  const user = value as Partial<OnlineUser> | null;
  return (
    typeof user === 'object' &&
    user !== null &&
    Number.isSafeInteger(user.U_ID) &&
    Number.isSafeInteger(user.E_ID) &&
    typeof user.Phone === 'string' &&
    typeof user.UserName === 'string' &&
    typeof user.online === 'boolean' &&
    Number.isSafeInteger(user.time)
  );
}

/** A long list of online users (`OnlineUser`, `Online`, `OnlineChange`) checked by hand; else undefined. */
function onlineMessage(argument: unknown): PushMsg | PushNotify | undefined {
  const message = argument as { type?: unknown; data?: { count?: unknown; delta?: unknown; users?: unknown } } | null;
  if (message?.type === 'OnlineUser') {
    const users = message.data as unknown;
    return Array.isArray(users) && users.every(isOnlineUser) ? { type: 'OnlineUser', data: users } : undefined;
  }
  if (message?.type !== 'Online' && message?.type !== 'OnlineChange') return undefined;
  const { count, delta, users } = message.data ?? {};
  if (!Number.isSafeInteger(count) || !Array.isArray(users) || !users.every(isOnlineUser)) return undefined;
  if (message.type === 'Online') return { type: 'Online', data: { count: count as number, users } };
  if (!Number.isSafeInteger(delta)) return undefined;
  return { type: 'OnlineChange', data: { count: count as number, delta: delta as number, users } };
}

/**
 * Owns this tab's one connection to `/FuncService` (STYLE.md: traccar-web SocketController):
 * connects once, subscribes to FuncGPS and FuncNotify, feeds the LiveStore, and keeps trying
 * while the server cannot be reached. `withAutomaticReconnect` covers a lost connection; when the
 * client gives up or was never connected, the controller's own loop starts it again. Every
 * connection belongs to a generation, so a stopped or replaced one can no longer touch the state.
 */
export class HubController {
  readonly store: LiveStore;
  private readonly sleep: (ms: number) => Promise<void>;
  private readonly random: () => number;
  private generation = 0;
  private running = false;
  private connection: HubConnectionLike | null = null;
  private protocol: HubProtocolName;

  constructor(private readonly deps: HubControllerDeps) {
    this.store = deps.store ?? new LiveStore();
    this.protocol = deps.protocol ?? 'json';
    this.sleep = deps.sleep ?? defaultSleep;
    this.random = deps.random ?? Math.random;
  }

  /** Connects unless already running (a second signed-in screen shares the connection). */
  start(): void {
    if (this.running) return;
    this.running = true;
    this.store.setStatus('connecting');
    void this.connect(++this.generation, 0);
  }

  /** Closes the connection and forgets its data (logout, session end, leaving the signed-in screens). */
  stop(): void {
    if (!this.running) return;
    this.running = false;
    this.generation += 1;
    const connection = this.connection;
    this.connection = null;
    this.store.reset('idle');
    void connection?.stop().catch(() => undefined);
  }

  /**
   * A new connection with a new scope: the server fixes a connection's enterprises when it is
   * negotiated, so switching the working enterprise must reconnect.
   */
  restart(): void {
    if (!this.running) return;
    this.stop();
    this.start();
  }

  private isCurrent(generation: number, connection: HubConnectionLike): boolean {
    return generation === this.generation && connection === this.connection;
  }

  /** Attempts from `firstAttempt` on, with back-off, until one connects and subscribes. */
  private async connect(generation: number, firstAttempt: number): Promise<void> {
    for (let attempt = firstAttempt; generation === this.generation; attempt++) {
      if (attempt > 0) {
        await this.sleep(reconnectDelayMs(attempt, this.random));
        if (generation !== this.generation) return;
      }
      const connection = this.build(generation);
      this.connection = connection;
      try {
        await connection.start();
        if (!this.isCurrent(generation, connection)) return;
        await this.subscribe(connection);
        if (!this.isCurrent(generation, connection)) return;
        this.store.setStatus('connected');
        if (attempt > 0) this.deps.onResync();
        return;
      } catch (error) {
        if (!this.isCurrent(generation, connection)) return;
        this.connection = null;
        void connection.stop().catch(() => undefined);
        if (error instanceof Error && endsSession(error)) {
          void this.endSession(generation, error);
          return;
        }
        if (this.protocol === 'messagepack' && refusesMessagePack(error)) {
          // Again at once, in JSON.
          this.protocol = 'json';
          attempt -= 1;
          continue;
        }
        this.store.setStatus('disconnected');
      }
    }
  }

  private async subscribe(connection: HubConnectionLike): Promise<void> {
    // Each invocation resolves after its snapshot has arrived (docs/realtime.md). On MessagePack the
    // snapshot comes packed: half the bytes of a big fleet's (docs/realtime.md, "Position blocks").
    // So do the online users of both snapshots: 4 MB of MessagePack maps at 50,000 users, unpacked.
    if (this.protocol === 'messagepack') {
      await connection.invoke(HubMethods.FuncGPS, { packed: true });
      await connection.invoke(HubMethods.FuncNotify, { packed: true });
    } else {
      await connection.invoke(HubMethods.FuncGPS);
      await connection.invoke(HubMethods.FuncNotify);
    }
  }

  private build(generation: number): HubConnectionLike {
    const connection = this.deps.createConnection(this.protocol);
    const blocks = new GpsBlockReader();
    // A block this console cannot read: it must not go on without what it held, so JSON from now on.
    const unreadable = (block: { message: unknown } | { unreadable: string } | undefined) => {
      if (!block || !('unreadable' in block)) return false;
      this.protocol = 'json';
      this.restart();
      return true;
    };
    const takeMsg = (argument: unknown) => {
      if (!this.isCurrent(generation, connection)) return;
      const block = gpsBlockMessage(argument, blocks) ?? onlineBlockMessage(argument, 'pushMsg');
      if (unreadable(block)) return;
      const message =
        (block && 'message' in block ? block.message : undefined) ??
        gpsMessage(argument) ??
        onlineMessage(argument) ??
        pushMsgSchema.safeParse(argument).data;
      if (message) this.store.receive(message);
    };
    const takeNotify = (argument: unknown) => {
      if (!this.isCurrent(generation, connection)) return;
      const block = onlineBlockMessage(argument, 'pushNotify');
      if (unreadable(block)) return;
      const message =
        (block && 'message' in block ? block.message : undefined) ??
        onlineMessage(argument) ??
        pushNotifySchema.safeParse(argument).data;
      if (message) this.store.receive(message);
    };
    connection.on(HubTargets.pushMsg, takeMsg);
    connection.on(HubTargets.pushNotify, takeNotify);
    connection.onreconnecting(() => {
      if (this.isCurrent(generation, connection)) this.store.setStatus('reconnecting');
    });
    connection.onreconnected(() => {
      if (!this.isCurrent(generation, connection)) return;
      // A reconnect is a new connection on the server: subscriptions must be made again.
      this.subscribe(connection).then(
        () => {
          if (!this.isCurrent(generation, connection)) return;
          this.store.setStatus('connected');
          this.deps.onResync();
        },
        () => {
          // Lost again while subscribing: closing hands over to onclose, which starts over.
          if (this.isCurrent(generation, connection)) void connection.stop().catch(() => undefined);
        },
      );
    });
    connection.onclose((error) => {
      if (!this.isCurrent(generation, connection)) return;
      this.connection = null;
      if (endsSession(error)) {
        void this.endSession(generation, error);
        return;
      }
      // The automatic reconnect gave up, or the server closed without allowing one.
      this.store.setStatus('disconnected');
      void this.connect(generation, 1);
    });
    return connection;
  }

  private async endSession(generation: number, reason: Error): Promise<void> {
    this.store.setStatus('ended');
    const check = await this.deps.checkSession(reason);
    if (generation !== this.generation) return;
    if (check === 'valid') {
      this.store.setStatus('disconnected');
      void this.connect(generation, 1);
    }
  }
}
