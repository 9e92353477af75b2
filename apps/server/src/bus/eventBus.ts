import type { HeartRate, Notification, UserImportProgress, VideoChange } from '@intercom/contract';

/** Why a console session ended (`session.EndReason`); `sessionsEnded` carries it to every instance. */
export type EndReason = 'logout' | 'replaced' | 'password' | 'frozen' | 'expired' | 'deleted';

/** Everything LiveState keeps about one terminal user; the whole entry travels on every change. */
export interface LiveUser {
  E_ID: number;
  U_ID: number;
  Phone: string;
  UserName: string;
  position: {
    lat: number;
    lon: number;
    time: number;
    speed: number | null;
    course: number | null;
    /** The report interval in force for this fix, seconds (GPS-online). */
    interval: number;
  } | null;
  battery: number | null;
  signal: number | null;
  online: boolean;
  /** When `online` last changed, epoch ms. */
  onlineAt: number;
  talking: boolean;
}

/**
 * One terminal login, ordered across instances: by `at` (a logical clock in epoch ms, see
 * TerminalGateway), then `instance`, then `connection`. The newest login of a user wins.
 */
export interface TerminalLoginStamp {
  /** The gateway (server instance) that accepted the login. */
  instance: string;
  /** The connection's number inside that instance. */
  connection: number;
  at: number;
}

/** Why a terminal user's live sessions must end. */
export type TerminalEndReason = 'frozen' | 'deleted' | 'recovered' | 'password';

export interface TerminalSessionEnd {
  E_ID: number;
  UserID: number;
  MobilePhone: string;
  reason: TerminalEndReason;
}

/**
 * What travels between server instances. Every event names its enterprise, so each hub connection
 * receives only events of enterprises in its scope.
 */
export type RealtimeEvent =
  | { kind: 'user'; E_ID: number; user: LiveUser }
  /**
   * Many users of one enterprise at once, applied as that many `user` events: a feed of thousands of
   * moves a second (a load process, a batching instance) costs one message and one JSON parse per
   * batch instead of one per user. Instances older than this kind ignore it.
   */
  | { kind: 'users'; E_ID: number; users: LiveUser[] }
  | { kind: 'notification'; E_ID: number; notification: Notification }
  | { kind: 'heartRate'; E_ID: number; heartRate: HeartRate }
  /** A terminal's video came online (videoCaps) or went: the consoles' video list. */
  | { kind: 'video'; E_ID: number; video: VideoChange }
  | { kind: 'sessionsEnded'; E_ID: number; sessionIds: number[]; reason: EndReason }
  /** A terminal user logged in; other instances close that user's older socket (`replaced`). */
  | { kind: 'terminalLogin'; E_ID: number; U_ID: number; login: TerminalLoginStamp }
  /** A user was frozen, deleted, recovered or got a new password: its terminal must log in again. */
  | ({ kind: 'endSessions' } & TerminalSessionEnd)
  /** Users were created, changed or deleted: terminals and caches of them refresh. */
  | { kind: 'usersChanged'; E_ID: number; UserIDs: number[] }
  /** The enterprise's location profiles changed: its terminals get the new configuration. */
  | { kind: 'locationProfileChanged'; E_ID: number }
  /**
   * A geofence of the enterprise was saved or deleted: the per-fix check reads its fences again.
   * With U_ID: that user entered or left a fence; instances read its inside states again.
   */
  | { kind: 'geofencesChanged'; E_ID: number; U_ID?: number }
  /**
   * A server instance has just started with an empty LiveState: every other instance answers with
   * `users` batches of the terminals connected to it (E_ID 0: it concerns every enterprise).
   */
  | { kind: 'liveStateWanted'; E_ID: 0 }
  /**
   * These users' channel lists changed (added to or removed from a channel, a channel renamed or
   * deleted): their terminals are told `channelsChanged` and ask `channels` again.
   */
  | { kind: 'channelsChanged'; E_ID: number; UserIDs: number[] }
  /** Users left channel CID (null: the channel was deleted): they stop hearing it at once. */
  | { kind: 'membersRemoved'; E_ID: number; CID: number; UserIDs: number[] | null }
  /** A dispatcher seat logged in (stamp ordered like terminal logins); older seats it displaces close. */
  | { kind: 'seatOpened'; E_ID: number; A_ID: number; S_ID: number; stamp: TerminalLoginStamp }
  | { kind: 'seatClosed'; E_ID: number; A_ID: number; stamp: TerminalLoginStamp }
  /**
   * The scope or rights behind these console sessions may have changed (null: any session, e.g. the
   * enterprise tree changed): their dispatcher seats read their sessions again now.
   */
  | { kind: 'seatsCheck'; E_ID: number; sessionIds: number[] | null }
  /**
   * How far a user import is (modules/userinfo/importProgress): every instance keeps the latest, so
   * the importing account's polls are answered wherever the load balancer sends them.
   */
  | ({ kind: 'importProgress'; E_ID: number; A_ID: number; importId: string } & UserImportProgress)
  /**
   * An incident zone (modules/incident) opened, changed members or closed: every instance drops its
   * cached open incidents of the enterprise, updates the members, and its talk service regroups the
   * terminals connected to it (`regrouped` to `joined`, `channelLeft` with `reason` to `left`).
   */
  | {
      kind: 'incident';
      E_ID: number;
      IN_ID: number;
      CID: number;
      name: string;
      change: 'opened' | 'members' | 'closed';
      joined: number[];
      left: number[];
      reason: 'left_zone' | 'incident_closed' | null;
    };

export type RealtimeListener = (event: RealtimeEvent) => void;

export type RealtimeKind = RealtimeEvent['kind'];

/** The event of one kind. */
export type RealtimeEventOf<K extends RealtimeKind> = Extract<RealtimeEvent, { kind: K }>;

/** What a subscriber handles: one handler per kind it names; events of the other kinds never reach it. */
export type RealtimeHandlers = { [K in RealtimeKind]?: (event: RealtimeEventOf<K>) => void };

/**
 * The backplane. `publish` delivers to this instance's listeners at once (synchronously) and to
 * every other instance through the shared channel, if there is one.
 */
export interface EventBus {
  publish(event: RealtimeEvent): void;
  /** Calls `handler` with every event of `kind`, published here or on another instance. */
  on<K extends RealtimeKind>(kind: K, handler: (event: RealtimeEventOf<K>) => void): () => void;
  /**
   * Every event, of every kind, including kinds of a newer instance: for relays and tests. A
   * subscriber that acts on events names their kinds with `on` or `onEach` instead.
   */
  subscribe(listener: RealtimeListener): () => void;
  close(): Promise<void>;
}

/** Registers each handler of `handlers` for its kind; the function returned removes them all. */
export function onEach(bus: Pick<EventBus, 'on'>, handlers: RealtimeHandlers): () => void {
  const offs = (Object.keys(handlers) as RealtimeKind[]).map((kind) =>
    bus.on(kind, handlers[kind] as (event: RealtimeEvent) => void),
  );
  return () => {
    for (const off of offs) off();
  };
}

export type ErrorSink = (error: unknown, context: string) => void;

interface Registration {
  /** null: every kind. */
  kind: RealtimeKind | null;
  listener: RealtimeListener;
}

/**
 * Calls each listener of the event's kind, in the order they were added; one that throws is
 * reported and never stops the others.
 */
export class ListenerSet {
  private readonly registrations = new Set<Registration>();

  constructor(private readonly onError: ErrorSink) {}

  add(listener: RealtimeListener): () => void {
    return this.register({ kind: null, listener });
  }

  addKind<K extends RealtimeKind>(kind: K, handler: (event: RealtimeEventOf<K>) => void): () => void {
    return this.register({ kind, listener: handler as RealtimeListener });
  }

  deliver(event: RealtimeEvent): void {
    for (const { kind, listener } of this.registrations) {
      if (kind !== null && kind !== event.kind) continue;
      try {
        listener(event);
      } catch (error) {
        this.onError(error, `realtime listener failed on a ${event.kind} event`);
      }
    }
  }

  private register(registration: Registration): () => void {
    this.registrations.add(registration);
    return () => this.registrations.delete(registration);
  }
}

/** The embedded default: one process, no backplane. */
export class InProcessEventBus implements EventBus {
  private readonly listeners: ListenerSet;

  constructor(onError: ErrorSink) {
    this.listeners = new ListenerSet(onError);
  }

  publish(event: RealtimeEvent): void {
    this.listeners.deliver(event);
  }

  on<K extends RealtimeKind>(kind: K, handler: (event: RealtimeEventOf<K>) => void): () => void {
    return this.listeners.addKind(kind, handler);
  }

  subscribe(listener: RealtimeListener): () => void {
    return this.listeners.add(listener);
  }

  async close(): Promise<void> {}
}
