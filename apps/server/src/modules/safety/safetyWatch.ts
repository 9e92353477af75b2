import {
  AlarmDetailKeys,
  SafetyAlarmTypes,
  distanceMeters,
  type Notification,
  type SafetySettings,
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
import {
  WatchedTerminals,
  hasWork,
  isOn,
  type SafetyPeer,
  type Still,
  type Subject,
  type Watched,
  type WatchedEnterprise,
} from './watchedTerminals.js';
import { sweepMissedCheckIns } from './missedCheckIns.js';
import type { AlarmEscalation } from './alarmEscalation.js';
import { alarmText, type AlarmContent } from '../notify/index.js';

export type { SafetyPeer } from './watchedTerminals.js';

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

/** An enterprise's rules as read at `at`; `rules` once the read has come back. */
interface CachedRules {
  value: Promise<EnterpriseRules>;
  at: number;
  rules: EnterpriseRules | null;
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
 *
 * A tick pays for what has something to do, not for the fleet (issue 52): the terminals are grouped
 * by enterprise, each enterprise's rules are read once per rulesTtlMs for all its terminals, and
 * departments only where a department's rule is on. A terminal whose settings are off and that has
 * nothing stored or timed is not looked at until its enterprise's rules turn on or its stored state
 * changes (WatchedEnterprise.busy).
 */
export class SafetyWatch {
  private readonly watched = new WatchedTerminals();
  private readonly rules = new Map<number, CachedRules>();
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
    if (user) this.watched.attach(peer, user);
  }

  /** Its socket closed; a logout also ends its check-ins (nothing is due from a user off duty). */
  detach(peer: SafetyPeer): void {
    const user = peer.user;
    if (!user || !this.watched.detach(peer, user.U_ID)) return;
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
    // No movement is on, so the terminal is busy already: the place is judged at the next tick.
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
    if (w) {
      Object.assign(w, { dueAt, deadlineAt, sentDue: null });
      this.watched.wake(w);
    }
    return dueAt;
  }

  /** One pass over the terminals here, after the passes queued before it. */
  tick(now = this.clock.now()): Promise<void> {
    // The terminals watched when the tick is asked for, at its `now`: one that logs in while this
    // tick waits its turn (behind a slow one) is judged from the next tick, never at a time before
    // its login (a check-in was scheduled 349 ms early so, under load: CI of 7 Dec 00:44).
    const upTo = this.watched.attaches;
    this.pendingTicks += 1;
    this.queue = this.queue
      .then(() => this.run(now, upTo))
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

  /** The tick asked for at `now`, over the terminals attached up to `upTo`. */
  private async run(now: number, upTo: number): Promise<void> {
    // Missed check-ins of every user, watched here or not (a database sweep: a restart loses none).
    const hooks = { settings: (user: Subject, at: number) => this.settingsOf(user, at), raise: this.raise };
    for (const U_ID of await sweepMissedCheckIns(this.db, hooks, now)) {
      const w = this.watched.get(U_ID);
      if (w) this.watched.reload(w); // read the moved schedule again
    }
    await this.refresh(now, upTo);
    for (const enterprise of this.watched.enterprises.values()) {
      for (const w of enterprise.busy) {
        if (w.order > upTo || this.watched.get(w.user.U_ID) !== w || !w.settings) continue;
        const s = w.settings;
        if (!isOn(s) && w.dueAt === null) {
          w.still = null; // what `standing` does when no movement is off: nothing to write
        } else {
          try {
            await this.checkIns(w, s, now);
            await this.standing(w, s, now);
          } catch (error) {
            this.options.onError(error, 'safety check');
          }
        }
        if (!hasWork(w)) enterprise.busy.delete(w);
      }
    }
    await this.options.escalation?.sweep(now);
  }

  /**
   * Rules when older than their cache time, with the departments of the enterprise's members when a
   * department's rule is on; the settings of the members that may have work, of every member when
   * the rules were read again and are or were on; stored state when not read yet. Only members
   * attached up to `upTo`: the others are busy, for the next tick.
   */
  private async refresh(now: number, upTo: number): Promise<void> {
    const reread = await this.enterprisesReread(now);
    const resolve: [WatchedEnterprise, Watched[]][] = [];
    const stale: Watched[] = [];
    for (const enterprise of this.watched.enterprises.values()) {
      const rules = reread.get(enterprise);
      const wasActive = enterprise.active;
      if (rules) {
        enterprise.rules = rules;
        enterprise.active = rules.rules.some(isOn);
        enterprise.byDepartment = enterprise.active && rules.rules.some((r) => r.TargetKind === 'department');
      }
      if (!enterprise.rules) continue; // its first member attached while the rules were read
      const everyone = rules !== undefined && (enterprise.active || wasActive);
      const members = [...(everyone ? enterprise.members.values() : enterprise.busy)].filter((w) => w.order <= upTo);
      // Read again with the rules, and at the first tick of a member: never older than rulesTtlMs.
      if (enterprise.byDepartment)
        stale.push(...members.filter((w) => rules !== undefined || now - w.departmentAt >= this.rulesTtlMs));
      resolve.push([enterprise, members]);
    }
    if (stale.length > 0) {
      const departments = await departmentsOf(
        this.db,
        stale.map((w) => w.user.U_ID),
      );
      for (const w of stale) {
        if (!departments.has(w.user.U_ID)) continue;
        w.OS_ID = departments.get(w.user.U_ID) ?? null;
        w.departmentAt = now;
      }
    }
    const unread: Watched[] = [];
    for (const [enterprise, members] of resolve) {
      const rules = enterprise.rules as EnterpriseRules;
      for (const w of members) {
        w.settings = resolveSafety(rules, { U_ID: w.user.U_ID, OS_ID: enterprise.byDepartment ? w.OS_ID : null });
        if (hasWork(w)) enterprise.busy.add(w);
        if (!w.loaded) unread.push(w);
      }
    }
    if (unread.length === 0) return;
    const states = await statesOf(
      this.db,
      unread.map((w) => w.user.U_ID),
    );
    for (const w of unread) if (!w.loaded) this.adopt(w, states.get(w.user.U_ID) ?? null);
  }

  /** The enterprises whose rules were read again (or first) for this tick: one wait for all of them. */
  private async enterprisesReread(now: number): Promise<Map<WatchedEnterprise, EnterpriseRules>> {
    const reread = new Map<WatchedEnterprise, EnterpriseRules>();
    const reads: Promise<void>[] = [];
    for (const enterprise of this.watched.enterprises.values()) {
      const cached = this.cachedRules(enterprise.E_ID, now);
      if (cached.rules !== null && cached.rules === enterprise.rules) continue;
      if (cached.rules !== null) reread.set(enterprise, cached.rules);
      else reads.push(cached.value.then((rules) => void reread.set(enterprise, rules)));
    }
    if (reads.length > 0) await Promise.all(reads);
    return reread;
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

  private cachedRules(E_ID: number, now: number): CachedRules {
    const cached = this.rules.get(E_ID);
    if (cached && now - cached.at < this.rulesTtlMs && now >= cached.at) return cached;
    const entry: CachedRules = { value: enterpriseRules(this.db, E_ID), at: now, rules: null };
    this.rules.set(E_ID, entry);
    entry.value.then(
      (rules) => (entry.rules = rules),
      () => this.rules.get(E_ID) === entry && this.rules.delete(E_ID),
    );
    return entry;
  }

  private async settingsOf(user: Subject, now: number): Promise<SafetySettings> {
    const rules = await this.cachedRules(user.E_ID, now).value;
    // A department matters only when a department's rule is.
    const byDepartment = rules.rules.some((r) => r.TargetKind === 'department');
    const OS_ID = byDepartment ? ((await departmentsOf(this.db, [user.U_ID])).get(user.U_ID) ?? null) : null;
    return resolveSafety(rules, { U_ID: user.U_ID, OS_ID });
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
