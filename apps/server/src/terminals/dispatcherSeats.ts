import { randomBytes, randomUUID } from 'node:crypto';
import { TerminalCloseCodes, type TerminalCloseReason } from '@intercom/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { AppDeps } from '../appDeps.js';
import type { ClockTimer } from '../core/clock.js';
import { onEach, type TerminalLoginStamp } from '../bus/eventBus.js';
import type { Seat } from '../talk/talkPeer.js';
import { isNewerLogin } from './loginClock.js';
import { readSeatSessions, seatCloseReason, type LiveSeatSession, type SeatSessionState } from './seatSessions.js';

/** What DispatcherSeats needs of a seat's connection (a TerminalConnection logged in with an AuthCode). */
export interface SeatSocket {
  seat: Seat | null;
  loginStamp: TerminalLoginStamp | null;
  close(reason: TerminalCloseReason, code: number): void;
}

export interface DispatcherSeatsOptions {
  /** Live seats one account may hold on all instances together; past that the oldest is replaced. */
  maxPerAccount: number;
  /** How often the sessions behind this instance's seats are read again (idle timeouts, deletions, scope). */
  checkMs: number;
}

/** A seat on any instance, as the bus told of it. */
interface KnownSeat {
  S_ID: number;
  stamp: TerminalLoginStamp;
}

type Deps = Pick<AppDeps, 'db' | 'config' | 'realtime' | 'clock'>;

const sameStamp = (a: TerminalLoginStamp, b: TerminalLoginStamp) =>
  a.instance === b.instance && a.connection === b.connection;

/**
 * The dispatcher seats of this instance, each bound to the console session that opened it (DESIGN.md 11):
 *
 * - A seat closes at once (4002, the session's reason) when its session ends on any instance
 *   (`sessionsEnded` on the bus), and within `checkMs` when it ends by a path nobody announced (idle or
 *   absolute timeout, a deleted account).
 * - One live seat per session, at most `maxPerAccount` per account: each seat login is announced
 *   (`seatOpened`), and every instance closes its own seats that a newer one displaces (4001 `replaced`,
 *   like a terminal logged in elsewhere). An instance knows every seat newer than its own (they opened
 *   after it started), which is all it needs to decide for its own.
 * - The scope is read again before each use (`refresh`) and on every check; rooms and video outside
 *   the new scope are left (`rescoped`).
 */
export class DispatcherSeats {
  private readonly instance = randomUUID();
  private count = 0;
  /** This instance's seats by their stamp's connection number. */
  private readonly own = new Map<number, SeatSocket>();
  /** Seats of every instance by account, as announced; this instance's included. */
  private readonly known = new Map<number, KnownSeat[]>();
  private readonly timer: ClockTimer;
  private readonly unsubscribe: () => void;
  private checking: Promise<void> | undefined;

  constructor(
    private readonly deps: Deps,
    private readonly log: FastifyBaseLogger,
    private readonly options: DispatcherSeatsOptions,
    /** The seat's scope changed: leave what lies outside it. */
    private readonly rescoped: (socket: SeatSocket) => void,
  ) {
    this.unsubscribe = onEach(deps.realtime.bus, {
      sessionsEnded: (event) => this.sessionsEnded(new Set(event.sessionIds), seatCloseReason(event.reason)),
      seatsCheck: (event) => void this.check(event.sessionIds ?? undefined),
      seatOpened: (event) => this.seatOpened(event.A_ID, { S_ID: event.S_ID, stamp: event.stamp }),
      seatClosed: (event) => this.seatClosed(event.A_ID, event.stamp),
    });
    // The sessions' idle and absolute limits are judged on AppDeps.clock, like the REST hook's.
    this.timer = deps.clock.interval(() => void this.check(), options.checkMs);
  }

  private get policy() {
    return { idleMs: this.deps.config.sessionIdleMs, absoluteMs: this.deps.config.sessionAbsoluteMs };
  }

  get size(): number {
    return this.own.size;
  }

  /** The session's state now, for a seat login: undefined when it can carry no seat. */
  async admit(S_ID: number): Promise<LiveSeatSession | undefined> {
    const state = (await readSeatSessions(this.deps.db, this.policy, [S_ID], this.deps.clock.now())).get(S_ID);
    return state?.live ? state : undefined;
  }

  /** A new seat: a talker key of its own, a stamp, and the announcement that displaces older seats. */
  opened(socket: SeatSocket, seat: Omit<Seat, 'dispatchNo'>): { dispatchNo: string; talkerKey: string } {
    this.count += 1;
    const stamp: TerminalLoginStamp = { instance: this.instance, connection: this.count, at: this.deps.clock.now() };
    socket.loginStamp = stamp;
    this.own.set(stamp.connection, socket);
    this.deps.realtime.bus.publish({ kind: 'seatOpened', E_ID: seat.E_ID, A_ID: seat.A_ID, S_ID: seat.S_ID, stamp });
    // Two seats of one account never share a talker: the floor, the relay and recordings tell them apart.
    return { dispatchNo: `D${seat.A_ID}`, talkerKey: `D${seat.A_ID}.${randomBytes(4).toString('hex')}` };
  }

  closed(socket: SeatSocket): void {
    const seat = socket.seat;
    const stamp = socket.loginStamp;
    if (!seat || !stamp || !this.own.delete(stamp.connection)) return;
    this.deps.realtime.bus.publish({ kind: 'seatClosed', E_ID: seat.E_ID, A_ID: seat.A_ID, stamp });
  }

  /**
   * Reads the seat's session again before it joins, calls or applies for video: false (and the seat
   * closed) when the session ended; otherwise its scope is the current one.
   */
  async refresh(socket: SeatSocket): Promise<boolean> {
    const seat = socket.seat;
    if (!seat) return false;
    const state = (await readSeatSessions(this.deps.db, this.policy, [seat.S_ID], this.deps.clock.now())).get(
      seat.S_ID,
    );
    return this.apply(socket, state);
  }

  /** Reads every seat's session again (the timer, and `seatsCheck` events). */
  check(sessionIds?: readonly number[]): Promise<void> {
    if (this.checking) return this.checking;
    const run = async () => {
      const wanted = sessionIds ? new Set(sessionIds) : null;
      const sockets = [...this.own.values()].filter((s) => s.seat && (!wanted || wanted.has(s.seat.S_ID)));
      if (sockets.length === 0) return;
      const states = await readSeatSessions(
        this.deps.db,
        this.policy,
        sockets.map((s) => (s.seat as Seat).S_ID),
        this.deps.clock.now(),
      );
      for (const socket of sockets) this.apply(socket, states.get((socket.seat as Seat).S_ID));
    };
    this.checking = run()
      .catch((error: unknown) => this.log.error({ err: error }, 'dispatcher seat check failed'))
      .finally(() => (this.checking = undefined));
    return this.checking;
  }

  close(): void {
    this.timer.cancel();
    this.unsubscribe();
  }

  private apply(socket: SeatSocket, read: SeatSessionState | undefined): boolean {
    const seat = socket.seat;
    if (!seat || !socket.loginStamp || this.own.get(socket.loginStamp.connection) !== socket) return false;
    if (!read || !read.live) {
      this.end(socket, read?.reason ?? 'session_end');
      return false;
    }
    const before = seat.scope.enterpriseIds;
    seat.scope = read.scope;
    seat.name = read.name;
    if (before.some((id) => !read.scope.enterpriseIds.includes(id))) this.rescoped(socket);
    return true;
  }

  private end(socket: SeatSocket, reason: TerminalCloseReason): void {
    const seat = socket.seat;
    if (!seat) return;
    const code = reason === 'replaced' ? TerminalCloseCodes.replaced : TerminalCloseCodes.accountChanged;
    this.log.info({ A_ID: seat.A_ID, E_ID: seat.E_ID, S_ID: seat.S_ID, reason }, 'dispatcher seat closed');
    socket.close(reason, code);
  }

  private sessionsEnded(ended: ReadonlySet<number>, reason: ReturnType<typeof seatCloseReason>): void {
    for (const socket of this.own.values()) {
      if (socket.seat && ended.has(socket.seat.S_ID)) this.end(socket, reason);
    }
  }

  /** A seat closed somewhere: it no longer displaces others. */
  private seatClosed(A_ID: number, stamp: TerminalLoginStamp): void {
    const seats = this.known.get(A_ID)?.filter((s) => !sameStamp(s.stamp, stamp)) ?? [];
    if (seats.length > 0) this.known.set(A_ID, seats);
    else this.known.delete(A_ID);
  }

  /** A seat opened somewhere: this instance's seats it displaces are replaced. */
  private seatOpened(A_ID: number, opened: KnownSeat): void {
    const seats = [...(this.known.get(A_ID) ?? []), opened].sort((a, b) => (isNewerLogin(a.stamp, b.stamp) ? -1 : 1));
    const kept: KnownSeat[] = [];
    for (const seat of seats) {
      const sameSession = kept.some((newer) => newer.S_ID === seat.S_ID);
      if (!sameSession && kept.length < this.options.maxPerAccount) {
        kept.push(seat);
        continue;
      }
      const socket = seat.stamp.instance === this.instance ? this.own.get(seat.stamp.connection) : undefined;
      if (socket) this.end(socket, 'replaced');
    }
    this.known.set(A_ID, kept);
  }
}
