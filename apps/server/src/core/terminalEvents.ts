import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { EndReason, EventBus, RealtimeEvent, TerminalEndReason, TerminalSessionEnd } from '../bus/eventBus.js';
import { syncPlugin } from '../http/syncPlugin.js';

export type { TerminalEndReason, TerminalSessionEnd } from '../bus/eventBus.js';

/** The bus events about terminal users and their configuration, by kind. */
export type TerminalEventKind =
  'endSessions' | 'usersChanged' | 'locationProfileChanged' | 'membersRemoved' | 'channelsChanged' | 'geofencesChanged';
type EventOf<K extends TerminalEventKind> = Extract<RealtimeEvent, { kind: K }>;
/** An event without its `kind`, as publishers give it and listeners receive it. */
export type TerminalEventPayload<K extends TerminalEventKind> = Omit<EventOf<K>, 'kind'>;
type Listener<K extends TerminalEventKind> = (payload: TerminalEventPayload<K>) => void;

/**
 * What user and location management tell the real-time side after a change has committed. Every
 * event travels on the EventBus, so with REDIS_URL the terminal gateway of every instance reacts
 * (a frozen user is closed wherever its terminal is connected). A listener that throws is
 * reported by the bus and never undoes the change.
 */
export class TerminalEvents {
  private readonly subscriptions = new Map<Listener<never>, () => void>();

  constructor(private readonly bus: EventBus) {}

  notify<K extends TerminalEventKind>(kind: K, payload: TerminalEventPayload<K>): void {
    this.bus.publish({ kind, ...payload } as RealtimeEvent);
  }

  /** The user's terminal must log in again (frozen, deleted, recovered, new password), on every instance. */
  endSessions(user: Omit<TerminalSessionEnd, 'reason'>, reason: TerminalEndReason): void {
    const { E_ID, UserID, MobilePhone } = user;
    this.notify('endSessions', { E_ID, UserID, MobilePhone, reason });
  }

  /**
   * Console sessions ended (account disabled, password reset, enterprise disabled): the hub
   * connections behind them close at once on every instance, not only at the next periodic check.
   */
  sessionsEnded(E_ID: number, sessionIds: readonly number[], reason: EndReason): void {
    if (sessionIds.length > 0) this.bus.publish({ kind: 'sessionsEnded', E_ID, sessionIds: [...sessionIds], reason });
  }

  /**
   * The scope behind these console sessions may have changed (null: any session; the enterprise tree
   * changed): their dispatcher seats read it again at once and leave what falls outside.
   */
  seatsCheck(E_ID: number, sessionIds: readonly number[] | null): void {
    this.bus.publish({ kind: 'seatsCheck', E_ID, sessionIds: sessionIds ? [...sessionIds] : null });
  }

  /** Calls `listener` with every event of `kind`, published here or on another instance. */
  on<K extends TerminalEventKind>(kind: K, listener: Listener<K>): () => void {
    const unsubscribe = this.bus.on(kind, (event: RealtimeEvent) => {
      const { kind: _kind, ...payload } = event;
      listener(payload as unknown as TerminalEventPayload<K>);
    });
    this.subscriptions.set(listener as Listener<never>, unsubscribe);
    return () => this.off(kind, listener);
  }

  off<K extends TerminalEventKind>(_kind: K, listener: Listener<K>): void {
    this.subscriptions.get(listener as Listener<never>)?.();
    this.subscriptions.delete(listener as Listener<never>);
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    terminalEvents: TerminalEvents;
  }
}

/** Decorates `app.terminalEvents` over the app's EventBus (`deps.realtime.bus`). */
export const terminalEventsPlugin = fp(
  syncPlugin((app: FastifyInstance) => {
    app.decorate('terminalEvents', new TerminalEvents(app.deps.realtime.bus));
  }),
);
