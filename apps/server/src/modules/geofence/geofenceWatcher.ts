import { setImmediate as nextTurn } from 'node:timers/promises';
import { AlarmDetailKeys, GeofenceAlarmTypes, GeofenceLimits } from '@intercom/contract';
import type { Kysely } from 'kysely';
import { systemClock, type Clock } from '../../core/clock.js';
import { UserQueue } from '../../core/userQueue.js';
import type { DB } from '../../db/schema.js';
import { alarmText, type AlarmContent } from '../notify/index.js';
import { appliesTo, FenceSets, type CompiledFence, type FenceSet } from './enterpriseFences.js';
import { departmentOf, insideOf, recordCrossings, type CrossingsWritten } from './fenceStateRepository.js';

export interface GeofenceSubject {
  E_ID: number;
  U_ID: number;
  Phone: string;
}

export interface GeofenceFix {
  lat: number;
  lon: number;
  time: number;
  accuracy?: number | null;
}

/** Stores and pushes one alarm (the terminals' AlarmRaiser.raise). */
export type RaiseAlarm = (
  subject: GeofenceSubject,
  NType: string,
  Content: AlarmContent,
  at: { lat: number; lon: number },
) => Promise<unknown>;

export interface GeofenceWatcherOptions {
  onError: (error: unknown, context: string) => void;
  /** An enterprise's fences are read again after this long even without a change event. */
  fenceMaxAgeMs?: number;
  /**
   * A user's inside states are read again after this long: another instance (an OsmAnd request
   * that reached it, or the terminal that reconnected there and back) may have changed them.
   */
  stateMaxAgeMs?: number;
  /**
   * A user's inside state changed here: the other instances drop what they cached of it (the
   * `geofencesChanged` event with U_ID), so a tracker whose requests alternate between instances
   * sees its next crossing on either.
   */
  onStateChanged?: (E_ID: number, U_ID: number) => void;
  /**
   * Least time between two alarms of one user and fence raised here (GEOFENCE_ALARM_COOLDOWN_SECONDS;
   * 0: none): one entry or exit alarm, and one dwell alarm, per cooldown. The crossings inside it are
   * recorded all the same; only their alarms are left out. Default 60 s.
   */
  alarmCooldownMs?: number;
  /** The time of the cooldown and the caches (AppDeps.clock; default the system's). */
  clock?: Clock;
}

/** Fixes of one call checked at once, without a promise; the rest of a batch is checked a fix a turn. */
const FIXES_AT_ONCE = 8;
/** Alarms of one fix raised in one event-loop turn (one fix may alarm for every fence of a user). */
const ALARMS_PER_TURN = 10;
/** Cooldown entries a user keeps before those that have run out are dropped. */
const COOLDOWN_ENTRIES = 64;

interface UserFences {
  department: number | null;
  inside: Map<number, { enteredAt: number; dwellAt: number | null }>;
  /** The newest fix time checked: older fixes (a backlog sent late) are not checked again. */
  lastTime: number;
  loadedAt: number;
  /**
   * When an alarm of a fence was last raised here, by server time: GF_ID for entry and exit, -GF_ID
   * for dwell. Kept when the states are read again.
   */
  alarmedAt: Map<number, number>;
}

/**
 * Tests every fix against the fences that apply to its user. The index gives the fences whose box
 * holds the fix; the fences the user is inside are checked as well, to see it leave. Entering is
 * a fix inside the fence; leaving is a fix farther outside than its accuracy (at least 10 m), so a
 * user at the edge raises one entry and no exit until clearly out. Dwell is measured in fix
 * times, from the fix that entered to a later fix still inside. What is inside is kept in
 * `geofence_state` (DESIGN.md section 11): an alarm is raised by the writer that changed the row,
 * at most one a cooldown for a user and fence. One fix's changes are written in one transaction, and
 * a batch is checked a fix an event-loop turn, so no tenant's fences hold up the others' requests.
 */
export class GeofenceWatcher {
  private readonly fences: FenceSets;
  private readonly users = new Map<number, UserFences>();
  /** Each user's checks run one after another, in the order the fixes came. */
  private readonly chains: UserQueue;
  private readonly stateMaxAgeMs: number;
  private readonly cooldownMs: number;
  private readonly clock: Clock;

  constructor(
    private readonly db: Kysely<DB>,
    private readonly raise: RaiseAlarm,
    private readonly options: GeofenceWatcherOptions,
  ) {
    this.fences = new FenceSets(db, options.fenceMaxAgeMs ?? 300_000);
    this.chains = new UserQueue(options.onError, 'geofence check');
    this.stateMaxAgeMs = options.stateMaxAgeMs ?? 60_000;
    this.cooldownMs = options.alarmCooldownMs ?? 60_000;
    this.clock = options.clock ?? systemClock;
  }

  /**
   * Checks a user's fixes; errors are reported, never thrown to the ingest path. A fix that
   * crosses nothing (nearly all of them) is checked at once, without a promise or a database call,
   * when the enterprise's fences and the user's states are loaded, up to FIXES_AT_ONCE of them; the
   * rest queue behind the user's earlier checks, so they apply in the order the fixes came.
   */
  check(subject: GeofenceSubject, fixes: readonly GeofenceFix[]): void {
    const now = this.clock.now();
    const set = this.fences.peek(subject.E_ID, now);
    if (set?.byId.size === 0) return;
    const state = this.users.get(subject.U_ID);
    const ordered = fixes.length > 1 ? [...fixes].sort((a, b) => a.time - b.time) : fixes;
    let first = 0;
    if (set && state && now - state.loadedAt < this.stateMaxAgeMs && !this.chains.has(subject.U_ID)) {
      const end = Math.min(ordered.length, FIXES_AT_ONCE);
      for (; first < end; first += 1) {
        const fix = ordered[first] as GeofenceFix;
        if (fix.time <= state.lastTime) continue;
        if (changesOf(subject, set, state, fix)) break;
        state.lastTime = fix.time;
      }
      if (first === ordered.length) return;
    }
    const rest = first === 0 ? ordered : ordered.slice(first);
    void this.chains.run(subject.U_ID, () => this.run(subject, rest));
  }

  /** A fence of the enterprise was saved or deleted (on any instance). */
  changed(E_ID: number): void {
    this.fences.changed(E_ID);
  }

  /** The users' departments or inside states may have changed: read them again at their next fix. */
  usersChanged(userIds: readonly number[]): void {
    for (const U_ID of userIds) {
      const state = this.users.get(U_ID);
      if (state) state.loadedAt = -Infinity;
    }
  }

  /** Waits for every queued check (shutdown, tests). */
  async settle(): Promise<void> {
    while (this.chains.size > 0) await Promise.allSettled(this.chains.pending());
  }

  /**
   * Checks the fixes in order, one an event-loop turn: with SQLite every query completes without
   * yielding, so a 100-fix batch crossing many fences would otherwise hold the loop, and every other
   * tenant's requests, until its last write. The other instances hear once that the states changed.
   */
  private async run(subject: GeofenceSubject, fixes: readonly GeofenceFix[]): Promise<void> {
    const set = await this.fences.of(subject.E_ID, this.clock.now());
    if (set.byId.size === 0) return;
    const state = await this.stateOf(subject.U_ID);
    let changed = false;
    try {
      for (const [i, fix] of fixes.entries()) {
        if (i > 0) await nextTurn();
        if (fix.time <= state.lastTime) continue;
        state.lastTime = fix.time;
        const changes = changesOf(subject, set, state, fix);
        if (!changes) continue;
        changed = true;
        await this.apply(subject, state, changes, fix);
      }
    } finally {
      if (changed) this.options.onStateChanged?.(subject.E_ID, subject.U_ID);
    }
  }

  private async stateOf(U_ID: number, now = this.clock.now()): Promise<UserFences> {
    const cached = this.users.get(U_ID);
    if (cached && now - cached.loadedAt < this.stateMaxAgeMs) return cached;
    const [rows, department] = await Promise.all([insideOf(this.db, U_ID), departmentOf(this.db, U_ID)]);
    const inside = new Map(rows.map((r) => [r.GF_ID, { enteredAt: r.EnteredAt, dwellAt: r.DwellAt }]));
    const alarmedAt = cached?.alarmedAt ?? new Map<number, number>();
    const state = { department, inside, lastTime: cached?.lastTime ?? 0, loadedAt: now, alarmedAt };
    if (this.users.size > 200_000) this.users.clear();
    this.users.set(U_ID, state);
    return state;
  }

  /**
   * Records one fix's changes in one transaction (recordCrossings), then raises the alarms of the
   * rows it changed whose fence asks for them, outside the cooldown.
   */
  private async apply(subject: GeofenceSubject, state: UserFences, changes: Change[], fix: GeofenceFix) {
    const entered: number[] = [];
    const left: number[] = [];
    const dwelt: number[] = [];
    for (const { kind, fence } of changes) {
      if (kind === 'enter') {
        state.inside.set(fence.GF_ID, { enteredAt: fix.time, dwellAt: null });
        entered.push(fence.GF_ID);
      } else if (kind === 'dwell') {
        const entry = state.inside.get(fence.GF_ID);
        if (entry) entry.dwellAt = fix.time;
        dwelt.push(fence.GF_ID);
      } else {
        state.inside.delete(fence.GF_ID);
        left.push(fence.GF_ID);
      }
    }
    const { U_ID, E_ID } = subject;
    const written = await recordCrossings(this.db, { U_ID, E_ID, at: fix.time, entered, left, dwelt });
    const now = this.clock.now();
    let raised = 0;
    for (const { kind, fence } of changes) {
      const alarm = alarmOf(kind, fence, written);
      if (!alarm || !this.outsideCooldown(state, kind === 'dwell' ? -fence.GF_ID : fence.GF_ID, now)) continue;
      if (raised > 0 && raised % ALARMS_PER_TURN === 0) await nextTurn();
      await this.raise(subject, alarm.NType, alarm.Content, fix);
      raised += 1;
    }
  }

  /** True, and the time noted, when no alarm of this key was raised here within the cooldown. */
  private outsideCooldown(state: UserFences, key: number, now: number): boolean {
    if (this.cooldownMs <= 0) return true;
    const last = state.alarmedAt.get(key);
    // A clock that stepped back counts as within the cooldown until it passes the last alarm again.
    if (last !== undefined && now - last < this.cooldownMs) return false;
    if (state.alarmedAt.size >= COOLDOWN_ENTRIES) {
      for (const [k, at] of state.alarmedAt) if (now - at >= this.cooldownMs) state.alarmedAt.delete(k);
    }
    state.alarmedAt.set(key, now);
    return true;
  }
}

/** The alarm a change raises when its row was changed by this call and its fence asks for it; none for a forgotten fence. */
function alarmOf(
  kind: Change['kind'],
  fence: CompiledFence,
  written: CrossingsWritten,
): { NType: string; Content: AlarmContent } | undefined {
  if (kind === 'enter') {
    return written.entered.has(fence.GF_ID) && fence.enter
      ? { NType: GeofenceAlarmTypes.enter, Content: fence.Name }
      : undefined;
  }
  if (kind === 'exit') {
    return written.left.has(fence.GF_ID) && fence.exit
      ? { NType: GeofenceAlarmTypes.exit, Content: fence.Name }
      : undefined;
  }
  if (kind === 'dwell' && written.dwelt.has(fence.GF_ID)) {
    const minutes = Math.round(fence.dwellMs / 60_000);
    return {
      NType: GeofenceAlarmTypes.dwell,
      Content: alarmText(
        AlarmDetailKeys.geofenceDwell,
        { name: fence.Name, minutes },
        `${fence.Name} (${minutes} min)`,
      ),
    };
  }
  return undefined;
}

/** What a fix changes: entered, left, dwelt long enough, or a fence no longer there for the user (forgotten, no alarm). */
interface Change {
  kind: 'enter' | 'exit' | 'dwell' | 'forget';
  fence: CompiledFence;
}

const point = { minX: 0, minY: 0, maxX: 0, maxY: 0 };
const candidates: CompiledFence[] = [];

/** The changes one fix makes, or undefined (the common case, allocation-free but for the index lookup). */
function changesOf(subject: GeofenceSubject, set: FenceSet, state: UserFences, fix: GeofenceFix): Change[] | undefined {
  let changes: Change[] | undefined;
  const margin = Math.max(GeofenceLimits.hysteresisMinMeters, fix.accuracy ?? 0);
  // One box and one result array for every fix: the index lookup is all a quiet fix allocates.
  point.minX = point.maxX = fix.lon;
  point.minY = point.maxY = fix.lat;
  candidates.length = 0;
  set.index.search(point, candidates);
  for (const fence of candidates) {
    if (state.inside.has(fence.GF_ID) || !appliesTo(fence, subject.U_ID, state.department)) continue;
    if (fence.shape.inside(fix.lat, fix.lon)) (changes ??= []).push({ kind: 'enter', fence });
  }
  candidates.length = 0;
  for (const [GF_ID, entry] of state.inside) {
    const fence = set.byId.get(GF_ID);
    if (!fence || !appliesTo(fence, subject.U_ID, state.department)) {
      (changes ??= []).push({ kind: 'forget', fence: fence ?? forgotten(GF_ID) });
    } else if (fence.shape.beyond(fix.lat, fix.lon, margin)) {
      (changes ??= []).push({ kind: 'exit', fence });
    } else if (fence.dwellMs > 0 && entry.dwellAt === null && fix.time - entry.enteredAt >= fence.dwellMs) {
      (changes ??= []).push({ kind: 'dwell', fence });
    }
  }
  return changes;
}

/** A stand-in for a deleted fence the user was inside: only its id is used. */
function forgotten(GF_ID: number): CompiledFence {
  const shape = { boxes: [], depth: () => 0, inside: () => false, beyond: () => false };
  return { GF_ID, Name: '', enter: false, exit: false, dwellMs: 0, users: null, departments: null, shape };
}
