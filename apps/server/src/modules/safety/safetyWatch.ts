import {
  AlarmDetailKeys,
  SafetyAlarmTypes,
  distanceMeters,
  type Notification,
  type SafetySettings,
  type TerminalServerMessage,
} from '@intercom/contract';
import type { Kysely } from 'kysely';
import type { Clock, ClockTimer } from '../../core/clock.js';
import type { DB } from '../../db/schema.js';
import {
  clearState,
  departmentsOf,
  enterpriseRules,
  markStill,
  statesOf,
  writeState,
  type SafetyStateRow,
} from './safetyRepository.js';
import { resolveSafety, type EnterpriseRules } from './safetyRules.js';
import { sweepMissedCheckIns } from './missedCheckIns.js';
import type { AlarmEscalation } from './alarmEscalation.js';
import { alarmText, type AlarmContent } from '../notify/index.js';

/** A logged-in terminal as the watch sees it (a TerminalConnection). */
export interface SafetyPeer {
  readonly user: { U_ID: number; E_ID: number; Phone: string } | null;
  readonly closeReason: string | null;
  send(message: TerminalServerMessage): void;
}

type Subject = { U_ID: number; E_ID: number; Phone: string };
type Raise = (
  subject: Subject,
  NType: string,
  Content: AlarmContent,
  at?: { lat: number; lon: number },
) => Promise<Notification>;

export interface SafetyWatchOptions {
  onError: (error: unknown, context: string) => void;
  /** The user's latest position (LiveState), where standing still starts when no fix came yet. */
  position: (E_ID: number, U_ID: number) => { lat: number; lon: number } | null;
  /** Swept at every tick: unacknowledged safety alarms raised again. */
  escalation?: AlarmEscalation;
  /** How long an enterprise's settings and a user's department are cached (settings saved on another instance). */
  rulesTtlMs?: number;
  /** The time of check-ins, places and ticks, and the ticks' timer (AppDeps.clock). */
  clock: Clock;
}

/** A place stood at since `since` (server time); `stored` once written, `alarmed` once its alarm went. */
interface Still {
  lat: number;
  lon: number;
  since: number;
  stored: boolean;
  alarmed: boolean;
}

interface Watched {
  peer: SafetyPeer;
  user: Subject;
  settings: SafetySettings | null;
  OS_ID: number | null;
  departmentAt: number;
  /** The stored state has been read (after attach, or after another writer changed it). */
  loaded: boolean;
  dueAt: number | null;
  deadlineAt: number | null;
  /** The due time this connection was told of with `checkInDue`. */
  sentDue: number | null;
  still: Still | null;
}

const MINUTE = 60_000;
/** A place is written only once stood at this long: a moving terminal (a new place every fix) writes nothing. */
const STORE_STILL_AFTER_MS = MINUTE;

/**
 * Lone worker and no movement for the terminals logged in on this instance (docs/safety.md). Every
 * tick (the gateway's sweep interval) it reads the settings in force, schedules check-ins, sends
 * `checkInDue` when one falls due, and judges missed check-ins and standing still. The due times
 * and places live in `safety_state`; every judgement is a conditional update, so a restart or a
 * second instance that sees the same user neither loses nor doubles an alarm.
 */
export class SafetyWatch {
  private readonly watched = new Map<number, Watched>();
  private readonly rules = new Map<number, { value: Promise<EnterpriseRules>; at: number }>();
  private clock: Clock;
  private readonly rulesTtlMs: number;
  private queue: Promise<void> = Promise.resolve();
  private pendingTicks = 0;
  private readonly pending = new Set<Promise<unknown>>();
  private ticking: { timer: ClockTimer; intervalMs: number } | null = null;

  constructor(
    private readonly db: Kysely<DB>,
    private readonly raise: Raise,
    private readonly options: SafetyWatchOptions,
  ) {
    this.clock = options.clock;
    this.rulesTtlMs = options.rulesTtlMs ?? 30_000;
  }

  /** A terminal logged in here: it is watched from the next tick. */
  attach(peer: SafetyPeer): void {
    const user = peer.user;
    if (!user) return;
    this.watched.set(user.U_ID, {
      peer,
      user: { U_ID: user.U_ID, E_ID: user.E_ID, Phone: user.Phone },
      settings: null,
      OS_ID: null,
      departmentAt: 0,
      loaded: false,
      dueAt: null,
      deadlineAt: null,
      sentDue: null,
      still: null,
    });
  }

  /** Its socket closed; a logout also ends its check-ins (nothing is due from a user off duty). */
  detach(peer: SafetyPeer): void {
    const user = peer.user;
    if (!user || this.watched.get(user.U_ID)?.peer !== peer) return;
    this.watched.delete(user.U_ID);
    if (peer.closeReason === 'logout') this.track(clearState(this.db, user.U_ID), 'safety state');
  }

  /** Settings of the enterprise were saved: read them again at the next tick. */
  rulesChanged(E_ID: number): void {
    this.rules.delete(E_ID);
  }

  /** Fixes of a user (TerminalService.recordFixes): a move beyond the distance starts a new place. */
  fixes(user: { U_ID: number }, fixes: readonly { lat: number; lon: number; time: number }[]): void {
    const w = this.watched.get(user.U_ID);
    const s = w?.settings;
    if (!w || !s || s.NoMovementMinutes === 0 || fixes.length === 0) return;
    let latest = fixes[0] as { lat: number; lon: number; time: number };
    for (const fix of fixes) if (fix.time > latest.time) latest = fix;
    const still = w.still;
    if (still && distanceMeters(still.lat, still.lon, latest.lat, latest.lon) <= s.NoMovementMeters) return;
    w.still = { lat: latest.lat, lon: latest.lon, since: this.clock.now(), stored: false, alarmed: false };
  }

  /**
   * The terminal's `checkIn`: the next check-in falls due CheckInMinutes from now. Returns that
   * time, or null when the user has no check-ins.
   */
  async checkIn(user: Subject, now = this.clock.now()): Promise<number | null> {
    const w = this.watched.get(user.U_ID);
    const s = w?.settings ?? (await this.settingsOf(user, now));
    if (s.CheckInMinutes === 0) return null;
    const dueAt = now + s.CheckInMinutes * MINUTE;
    const deadlineAt = dueAt + s.GraceMinutes * MINUTE;
    await writeState(this.db, user.U_ID, user.E_ID, { DueAt: dueAt, DeadlineAt: deadlineAt });
    if (w) Object.assign(w, { dueAt, deadlineAt, sentDue: null });
    return dueAt;
  }

  /** One pass over the terminals here, after the passes queued before it. */
  tick(now = this.clock.now()): Promise<void> {
    // The terminals watched when the tick is asked for, at its `now`: one that logs in while this
    // tick waits its turn (behind a slow one) is judged from the next tick, never at a time before
    // its login (a check-in was scheduled 349 ms early so, under load: CI of 7 Dec 00:44).
    const list = [...this.watched.values()];
    this.pendingTicks += 1;
    this.queue = this.queue
      .then(() => this.run(now, list))
      .catch((error: unknown) => this.options.onError(error, 'safety tick'))
      .finally(() => (this.pendingTicks -= 1));
    return this.queue;
  }

  /** Ticks every `intervalMs` on the clock (a tick still running skips the next). */
  start(intervalMs: number): void {
    if (this.ticking) return;
    const timer = this.clock.interval(() => {
      if (this.pendingTicks === 0) void this.tick();
    }, intervalMs);
    this.ticking = { timer, intervalMs };
  }

  /**
   * Puts the watch, its time and its ticks, on another clock: a test's FakeClock for the watch of an
   * app that otherwise runs on real time (its sockets and history writer).
   */
  useClock(clock: Clock): void {
    const ticking = this.ticking;
    this.ticking?.timer.cancel();
    this.ticking = null;
    this.clock = clock;
    if (ticking) this.start(ticking.intervalMs);
  }

  /** Stops ticking and waits for what is under way. */
  async close(): Promise<void> {
    this.ticking?.timer.cancel();
    this.ticking = null;
    await this.settle();
  }

  /** Waits for queued ticks and writes (shutdown, tests). */
  async settle(): Promise<void> {
    await this.queue;
    while (this.pending.size > 0) await Promise.allSettled([...this.pending]);
  }

  private async run(now: number, list: readonly Watched[]): Promise<void> {
    // Missed check-ins of every user, watched here or not (a database sweep: a restart loses none).
    const hooks = { settings: (user: Subject, at: number) => this.settingsOf(user, at), raise: this.raise };
    for (const U_ID of await sweepMissedCheckIns(this.db, hooks, now)) {
      const w = this.watched.get(U_ID);
      if (w) w.loaded = false; // read the moved schedule again
    }
    await this.refresh(list, now);
    for (const w of list) {
      if (this.watched.get(w.user.U_ID) !== w || !w.settings) continue;
      try {
        await this.checkIns(w, w.settings, now);
        await this.standing(w, w.settings, now);
      } catch (error) {
        this.options.onError(error, 'safety check');
      }
    }
    await this.options.escalation?.sweep(now);
  }

  /** Departments and settings when older than their cache time; stored state when not read yet. */
  private async refresh(list: readonly Watched[], now: number): Promise<void> {
    const stale = list.filter((w) => now - w.departmentAt >= this.rulesTtlMs).map((w) => w.user.U_ID);
    const departments = stale.length > 0 ? await departmentsOf(this.db, stale) : new Map<number, number | null>();
    const unread = list.filter((w) => !w.loaded);
    const states =
      unread.length > 0
        ? await statesOf(
            this.db,
            unread.map((w) => w.user.U_ID),
          )
        : new Map<number, SafetyStateRow>();
    for (const w of list) {
      if (departments.has(w.user.U_ID)) {
        w.OS_ID = departments.get(w.user.U_ID) ?? null;
        w.departmentAt = now;
      }
      w.settings = resolveSafety(await this.rulesOf(w.user.E_ID, now), { U_ID: w.user.U_ID, OS_ID: w.OS_ID });
      if (!w.loaded) this.adopt(w, states.get(w.user.U_ID) ?? null);
    }
  }

  /** The stored state: the due times, and the stored place if the terminal still stands there. */
  private adopt(w: Watched, row: SafetyStateRow | null): void {
    w.loaded = true;
    w.dueAt = row?.DueAt ?? null;
    w.deadlineAt = row?.DeadlineAt ?? null;
    if (!row || row.StillLat === null || row.StillLon === null || row.StillSince === null) return;
    const stored: Still = {
      lat: row.StillLat,
      lon: row.StillLon,
      since: row.StillSince,
      stored: true,
      alarmed: row.StillAlarmedAt !== null,
    };
    const meters = w.settings?.NoMovementMeters ?? 0;
    const here = w.still;
    if (!here || distanceMeters(here.lat, here.lon, stored.lat, stored.lon) <= meters) w.still = stored;
  }

  private rulesOf(E_ID: number, now: number): Promise<EnterpriseRules> {
    const cached = this.rules.get(E_ID);
    if (cached && now - cached.at < this.rulesTtlMs && now >= cached.at) return cached.value;
    const value = enterpriseRules(this.db, E_ID);
    this.rules.set(E_ID, { value, at: now });
    value.catch(() => this.rules.delete(E_ID));
    return value;
  }

  private async settingsOf(user: Subject, now: number): Promise<SafetySettings> {
    const departments = await departmentsOf(this.db, [user.U_ID]);
    return resolveSafety(await this.rulesOf(user.E_ID, now), {
      U_ID: user.U_ID,
      OS_ID: departments.get(user.U_ID) ?? null,
    });
  }

  /** Schedules, announces and judges the user's check-in. */
  private async checkIns(w: Watched, s: SafetySettings, now: number): Promise<void> {
    const { U_ID, E_ID } = w.user;
    if (s.CheckInMinutes === 0) {
      if (w.dueAt === null) return;
      Object.assign(w, { dueAt: null, deadlineAt: null, sentDue: null });
      return writeState(this.db, U_ID, E_ID, { DueAt: null, DeadlineAt: null });
    }
    const period = s.CheckInMinutes * MINUTE;
    const grace = s.GraceMinutes * MINUTE;
    // None yet, or the period was shortened since it was scheduled.
    if (w.dueAt === null || w.deadlineAt === null || w.dueAt - now > period) {
      const dueAt = now + period;
      Object.assign(w, { dueAt, deadlineAt: dueAt + grace, sentDue: null });
      return writeState(this.db, U_ID, E_ID, { DueAt: dueAt, DeadlineAt: dueAt + grace });
    }
    // Past the deadline: the sweep (sweepMissedCheckIns) judges it, here or on another instance.
    if (w.deadlineAt <= now) {
      w.loaded = false;
      return;
    }
    if (w.dueAt <= now && w.sentDue !== w.dueAt) {
      w.sentDue = w.dueAt;
      w.peer.send({ type: 'checkInDue', dueAt: w.dueAt });
    }
  }

  /** Times the place the user stands at, and alarms once when it is stood at too long. */
  private async standing(w: Watched, s: SafetySettings, now: number): Promise<void> {
    const { U_ID, E_ID } = w.user;
    if (s.NoMovementMinutes === 0) {
      w.still = null;
      return;
    }
    if (!w.still) {
      const position = this.options.position(E_ID, U_ID);
      if (!position) return; // nothing known yet: the first fix starts it
      w.still = { lat: position.lat, lon: position.lon, since: now, stored: false, alarmed: false };
    }
    const still = w.still;
    const stood = now - still.since;
    if (!still.stored && stood >= Math.min(STORE_STILL_AFTER_MS, s.NoMovementMinutes * MINUTE)) {
      still.stored = true;
      const values = { StillLat: still.lat, StillLon: still.lon, StillSince: still.since, StillAlarmedAt: null };
      await writeState(this.db, U_ID, E_ID, values);
    }
    if (!still.stored || still.alarmed || stood < s.NoMovementMinutes * MINUTE) return;
    still.alarmed = true;
    if (!(await markStill(this.db, U_ID, still.since, now))) return;
    const [meters, minutes] = [s.NoMovementMeters, Math.round(stood / MINUTE)];
    const english = `No movement beyond ${meters} m for ${minutes} min`;
    const content = alarmText(AlarmDetailKeys.noMovement, { meters, minutes }, english);
    await this.raise(w.user, SafetyAlarmTypes.noMovement, content, { lat: still.lat, lon: still.lon });
  }

  private track(promise: Promise<unknown>, context: string): void {
    const tracked = promise.catch((error: unknown) => this.options.onError(error, context));
    this.pending.add(tracked);
    void tracked.finally(() => this.pending.delete(tracked));
  }
}
