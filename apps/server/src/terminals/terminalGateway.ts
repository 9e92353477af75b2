import {
  TerminalCloseCodes,
  TerminalErrors,
  type TerminalClientMessage,
  type TerminalCloseReason,
} from '@intercom/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { WebSocket } from 'ws';
import type { AppDeps } from '../appDeps.js';
import type { ClockTimer } from '../core/clock.js';
import type { TerminalSessionEnd } from '../core/terminalEvents.js';
import { onEach, type RealtimeEvent, type TerminalLoginStamp } from '../bus/eventBus.js';
import type { TalkService } from '../talk/talkService.js';
import type { AuthCodeStore } from '../talk/authCodes.js';
import type { VideoService } from '../video/videoService.js';
import { talkSettings } from '../talk/talkRepository.js';
import { DispatcherSeats } from './dispatcherSeats.js';
import { publishLiveHandOver } from './liveHandOver.js';
import { LoginClock, isNewerLogin } from './loginClock.js';
import { TerminalConnection, type ConnectionHost } from './terminalConnection.js';
import { BAD_CREDENTIALS, TerminalLoginChecks } from './terminalLoginChecks.js';
import type { TerminalOptions } from './terminalOptions.js';
import type { ReportingUser, TerminalService } from './terminalService.js';
import { issueResume, resumeHolds } from './terminalResume.js';
import { refusalOf, terminalUserByPhone, terminalUsersById } from './terminalUsers.js';

type LoginMessage = Extract<TerminalClientMessage, { type: 'login' }>;
type LoginEvent = Extract<RealtimeEvent, { kind: 'terminalLogin' }>;
/** Closes that end a user's online state at once and without an Offline alarm. */
const QUIET_OFFLINE: ReadonlySet<TerminalCloseReason> = new Set([
  'logout',
  'frozen',
  'deleted',
  'recovered',
  'password',
  'server_restart',
]);

/**
 * The WebSocket gateway `/terminal` (docs/terminal-protocol.md): logins, one connection per user
 * (a new login replaces the old socket, on this instance or another), chat-online state in
 * LiveState, heartbeat and login timeouts, the Offline alarm, and configuration pushes.
 *
 * Across instances every login publishes a `terminalLogin` event with its stamp; an instance holding
 * an older login of that user closes it with `replaced`, one holding a newer one announces its own
 * again (stamps: LoginClock).
 */
export class TerminalGateway implements ConnectionHost {
  private readonly clock: LoginClock;
  private readonly sockets = new Set<TerminalConnection>();
  private readonly online = new Map<number, TerminalConnection>();
  /** Users whose socket dropped: still online until the timer fires or they log in again. */
  private readonly grace = new Map<
    number,
    { timer: ClockTimer; user: ReportingUser; stamp: TerminalLoginStamp | null }
  >();
  /** The limits on failed logins: per phone, per address, per socket. */
  private readonly checks: TerminalLoginChecks;
  /** Dispatcher seats, each bound to the console session that opened it. */
  readonly seats: DispatcherSeats;
  private readonly sweepTimer: ClockTimer;
  private readonly unsubscribeBus: () => void;
  private closing = false;

  constructor(
    private readonly deps: AppDeps,
    readonly service: TerminalService,
    readonly options: TerminalOptions,
    private readonly log: FastifyBaseLogger,
    readonly talk: TalkService,
    private readonly authCodes: AuthCodeStore,
    readonly video: VideoService,
  ) {
    // The login rules (lock, per-address windows, resume tokens' age) read AppDeps.clock.
    this.clock = new LoginClock(() => deps.clock.now());
    this.checks = new TerminalLoginChecks(deps, options, log, this.clock);
    this.seats = new DispatcherSeats(
      deps,
      log,
      { maxPerAccount: deps.config.talkMaxSeatsPerAccount, checkMs: options.seatCheckMs },
      (seat) => this.seatRescoped(seat as TerminalConnection),
    );
    talk.seatScope = (peer) => this.seats.refresh(peer as TerminalConnection);
    video.seatScope = (peer) => this.seats.refresh(peer as TerminalConnection);
    this.unsubscribeBus = onEach(deps.realtime.bus, {
      terminalLogin: (event) => this.remoteLogin(event),
      user: (event) => {
        if (!event.user.online) this.stillOnline(event.user.E_ID, event.user.U_ID);
      },
      liveStateWanted: () => this.handOver(),
    });
    // This instance's LiveState starts empty: the others send the users connected to them.
    deps.realtime.bus.publish({ kind: 'liveStateWanted', E_ID: 0 });
    // The heartbeat and login timeouts and the offline grace are timed on AppDeps.clock.
    this.sweepTimer = deps.clock.interval(() => this.sweep(), options.sweepMs);
  }

  /** Sockets open now, and users logged in on this instance. */
  get counts() {
    return { sockets: this.sockets.size, online: this.online.size };
  }

  accept(socket: WebSocket, ip: string): void {
    if (this.closing) {
      socket.close(TerminalCloseCodes.goingAway, 'server_restart');
      return;
    }
    this.sockets.add(new TerminalConnection(socket, this, ip));
  }

  /**
   * A terminal login. Possession first: a good `resume` token gets in whatever the phone's lock or the
   * address's failures say (lock password guesses, not possession). Then, before any password is
   * checked: the address's failed logins (`login_rate_limited`) and the phone's wrong passwords
   * (`too_many_attempts`). Only a wrong password (or a phone nobody has, with a password) counts
   * toward the phone's lock; every failed login counts toward the address and the socket.
   */
  async login(connection: TerminalConnection, message: LoginMessage): Promise<void> {
    if (message.authCode !== undefined) return this.loginSeat(connection, message.seq, message.authCode);
    if (message.phone === undefined || (message.password === undefined && message.resume === undefined)) {
      if (connection.state === 'loggingIn') connection.state = 'new';
      const field = message.phone === undefined ? 'phone' : 'password';
      return connection.error(message.seq, TerminalErrors.invalid, `${field} is required`, field);
    }
    const phone = message.phone.trim();
    const { seq } = message;
    const user = await terminalUserByPhone(this.deps.db, phone);
    const resumed =
      user !== undefined &&
      message.resume !== undefined &&
      (await resumeHolds(this.deps.db, user, message.resume, this.clock.now()));
    const failure = resumed ? null : await this.checks.passwordFailure(connection.ip, phone, user, message.password);
    if (connection.state !== 'loggingIn') return;
    if (failure || !user) return this.checks.refuse(connection, seq, failure ?? BAD_CREDENTIALS);
    const refusal = refusalOf(user, this.clock.now());
    if (refusal) return this.checks.refuse(connection, seq, { code: refusal, text: `login refused: ${refusal}` });
    const config = await this.service.configOf(user);
    // A password login hands out a new token; a resumed one keeps the token it used.
    const resume = resumed ? undefined : await issueResume(this.deps.db, user, this.clock.now());
    if (connection.state !== 'loggingIn') return;
    const ref: ReportingUser = {
      U_ID: user.U_ID,
      E_ID: user.E_ID,
      Phone: user.Phone,
      UserName: user.UserName,
      interval: config.interval,
    };
    const previous = this.online.get(ref.U_ID);
    const stamp = this.clock.stamp(ref.U_ID);
    connection.loginStamp = stamp;
    this.online.set(ref.U_ID, connection);
    previous?.close('replaced', TerminalCloseCodes.replaced);
    this.endGrace(ref.U_ID);
    connection.user = ref;
    connection.config = config;
    connection.talker = { key: `U${ref.U_ID}`, uid: ref.U_ID, name: ref.UserName, priority: 0 };
    connection.state = 'online';
    this.talk.attach(connection);
    this.video.attach(connection);
    this.deps.realtime.live.setOnline(ref, true);
    this.announce(ref, stamp);
    const { interval: _interval, ...shown } = ref;
    connection.ack(seq, { user: shown, config, serverTime: this.clock.now(), ...(resume ? { resume } : {}) });
    this.log.info(
      {
        U_ID: ref.U_ID,
        E_ID: ref.E_ID,
        ip: connection.ip,
        device: message.device,
        replaced: Boolean(previous),
        resumed,
      },
      'terminal logged in',
    );
  }

  /**
   * A dispatcher seat: a one-time AuthCode from `POST /api/Talk/AuthCode` opens seat `D<A_ID>`, the voice
   * of the console session that asked for the code (DESIGN.md 11): refused when that session has ended
   * since, closed when it ends. It may join any channel and call any user of the session's scope as it
   * is at each use. Not a terminal user: no GPS, no online state, no Offline alarm.
   */
  private async loginSeat(connection: TerminalConnection, seq: number, authCode: string): Promise<void> {
    const grant = await this.authCodes.redeem(authCode, this.clock.now());
    const session = grant ? await this.seats.admit(grant.S_ID) : undefined;
    if (!grant || !session) {
      await this.checks.addressFailed(connection.ip);
      if (connection.state !== 'loggingIn') return;
      const text = 'unknown, used or expired AuthCode, or its session ended';
      return this.checks.refuse(connection, seq, { code: TerminalErrors.badAuthCode, text });
    }
    const { dispatchPriority } = await talkSettings(this.deps.db, session.E_ID);
    if (connection.state !== 'loggingIn') return;
    const { A_ID, E_ID, name, scope } = session;
    const opened = { A_ID, E_ID, S_ID: grant.S_ID, name, priority: dispatchPriority, scope };
    const { dispatchNo, talkerKey } = this.seats.opened(connection, opened);
    connection.seat = { ...opened, dispatchNo };
    connection.talker = { key: talkerKey, uid: 0, name, priority: dispatchPriority };
    connection.state = 'online';
    this.talk.attach(connection);
    this.video.attach(connection);
    connection.ack(seq, {
      seat: { dispatchNo, A_ID, E_ID, name, priority: dispatchPriority },
      serverTime: this.clock.now(),
    });
    this.log.info({ A_ID, E_ID, S_ID: grant.S_ID, ip: connection.ip }, 'dispatcher seat logged in');
  }

  /** A seat's scope shrank: it stops hearing channels, calls and video outside it. */
  private seatRescoped(connection: TerminalConnection): void {
    this.talk.rescoped(connection);
    this.video.rescoped(connection);
  }

  closed(connection: TerminalConnection): void {
    this.sockets.delete(connection);
    this.seats.closed(connection);
    this.talk.detach(connection);
    this.video.detach(connection);
    const user = connection.user;
    if (!user || this.online.get(user.U_ID) !== connection) return;
    this.online.delete(user.U_ID);
    const reason = connection.closeReason;
    if (reason && QUIET_OFFLINE.has(reason)) return this.offline(user, null);
    if (reason === 'heartbeat_timeout') {
      return this.offline(user, `No heartbeat for ${Math.round(this.options.heartbeatTimeoutMs / 1000)} s`);
    }
    const why = reason === 'flooding' ? 'Disconnected (flooding)' : 'Connection lost';
    if (this.options.offlineGraceMs <= 0) return this.offline(user, why);
    const timer = this.deps.clock.timeout(() => {
      this.grace.delete(user.U_ID);
      this.offline(user, why);
    }, this.options.offlineGraceMs);
    this.grace.set(user.U_ID, { timer, user, stamp: connection.loginStamp });
  }

  /** User management ended a user's sessions (frozen, deleted, recovered, new password). */
  endSessions(event: TerminalSessionEnd): void {
    this.service.usersChanged([event.UserID]);
    const grace = this.grace.get(event.UserID);
    if (grace) {
      this.endGrace(event.UserID);
      this.offline(grace.user, null);
    }
    const connection = this.online.get(event.UserID);
    if (!connection?.user) return;
    this.online.delete(event.UserID);
    connection.close(event.reason, TerminalCloseCodes.accountChanged);
    this.offline(connection.user, null);
  }

  /**
   * Sends each connected terminal of these users or enterprises its configuration again, when it
   * changed (GPS parameter, capabilities, the enterprise's current profile).
   */
  async pushConfig(filter: { userIds?: readonly number[]; enterpriseIds?: readonly number[] }): Promise<number> {
    const users = new Set(filter.userIds ?? []);
    const enterprises = new Set(filter.enterpriseIds ?? []);
    const targets = [...this.online.values()].filter(
      (c) => c.user && (users.has(c.user.U_ID) || enterprises.has(c.user.E_ID)),
    );
    if (targets.length === 0) return 0;
    let pushed = 0;
    const rows = await terminalUsersById(
      this.deps.db,
      targets.map((c) => (c.user as ReportingUser).U_ID),
    );
    for (const row of rows) {
      const connection = this.online.get(row.U_ID);
      const config = await this.service.configOf(row);
      if (!connection?.user || JSON.stringify(config) === JSON.stringify(connection.config)) continue;
      connection.config = config;
      connection.user.interval = config.interval;
      this.deps.realtime.live.setInterval(connection.user, config.interval);
      connection.send({ type: 'config', config });
      pushed += 1;
    }
    return pushed;
  }

  /** Closes silent sockets: no login within the login timeout, no message within the heartbeat timeout. */
  sweep(now = this.deps.clock.now()): void {
    for (const connection of this.sockets) {
      if (connection.state === 'online' && now - connection.lastMessageAt > this.options.heartbeatTimeoutMs) {
        connection.close('heartbeat_timeout', TerminalCloseCodes.heartbeatTimeout);
      } else if (connection.state === 'new' && now - connection.openedAt > this.options.loginTimeoutMs) {
        connection.close('login_timeout', TerminalCloseCodes.loginTimeout);
      }
    }
    this.checks.prune();
  }

  /** Shutdown: tells every terminal to reconnect later and marks its user offline (no alarm). */
  close(): void {
    if (this.closing) return;
    this.closing = true;
    this.sweepTimer.cancel();
    this.unsubscribeBus();
    this.seats.close();
    for (const connection of this.sockets) connection.close('server_restart', TerminalCloseCodes.goingAway);
    for (const [U_ID, { user }] of this.grace) {
      this.endGrace(U_ID);
      this.offline(user, null);
    }
  }

  private announce(user: ReportingUser, login: TerminalLoginStamp): void {
    this.deps.realtime.bus.publish({ kind: 'terminalLogin', E_ID: user.E_ID, U_ID: user.U_ID, login });
  }

  /** A login on another instance: an older socket of that user here goes, quietly (the user stays online). */
  private remoteLogin({ E_ID, U_ID, login }: LoginEvent): void {
    if (login.instance === this.clock.instance || this.closing) return;
    this.clock.heard(U_ID, login);
    const grace = this.grace.get(U_ID);
    if (grace && isNewerLogin(login, grace.stamp)) this.endGrace(U_ID);
    const connection = this.online.get(U_ID);
    if (!connection?.user || connection.user.E_ID !== E_ID) return;
    if (!isNewerLogin(login, connection.loginStamp)) {
      // Ours is the newer login (the two crossed, or the clocks disagree): make the other instance close its socket.
      if (connection.loginStamp) this.announce(connection.user, connection.loginStamp);
      return;
    }
    // Removed first, so closed() neither marks the user offline nor raises an alarm.
    this.online.delete(U_ID);
    connection.close('replaced', TerminalCloseCodes.replaced);
    this.log.info(
      { U_ID, E_ID, ip: connection.ip, by: login.instance },
      'terminal replaced by a login on another instance',
    );
  }

  /**
   * Another instance marked a user offline who is logged in here (its offline grace ran out just
   * before it heard of the login here): say online again, so every instance shows the truth.
   */
  private stillOnline(E_ID: number, U_ID: number): void {
    const connection = this.online.get(U_ID);
    if (this.closing || connection?.state !== 'online' || connection.user?.E_ID !== E_ID) return;
    this.deps.realtime.live.setOnline(connection.user, true);
  }

  private handOver(): void {
    if (this.closing) return;
    const connected = [...this.online.values()].flatMap((c) => (c.state === 'online' && c.user ? [c.user] : []));
    const live = this.deps.realtime.live;
    const count = publishLiveHandOver(this.deps.realtime.bus, connected, (E_ID, U_ID) => live.user(E_ID, U_ID));
    if (count > 0) this.log.info({ users: count }, 'live state handed over to a starting instance');
  }

  private endGrace(U_ID: number): void {
    const entry = this.grace.get(U_ID);
    if (!entry) return;
    entry.timer.cancel();
    this.grace.delete(U_ID);
  }

  /** Marks the user offline; with a reason, also raises the Offline alarm. */
  private offline(user: ReportingUser, alarmReason: string | null): void {
    const wasOnline = this.deps.realtime.live.user(user.E_ID, user.U_ID)?.online ?? false;
    this.deps.realtime.live.setOnline(user, false);
    if (alarmReason && wasOnline && !this.closing) this.service.alarms.offline(user, alarmReason);
    this.log.info({ U_ID: user.U_ID, E_ID: user.E_ID, reason: alarmReason ?? 'quiet' }, 'terminal offline');
  }
}
