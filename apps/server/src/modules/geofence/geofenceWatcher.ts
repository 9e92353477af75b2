import { GeofenceAlarmTypes, GeofenceLimits } from '@intercom/contract';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { appliesTo, FenceSets, type CompiledFence, type FenceSet } from './enterpriseFences.js';
import { departmentOf, insideOf, recordDwell, recordEntered, recordLeft } from './fenceStateRepository.js';

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
  Content: string,
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
}

interface UserFences {
  department: number | null;
  inside: Map<number, { enteredAt: number; dwellAt: number | null }>;
  /** The newest fix time checked: older fixes (a backlog sent late) are not checked again. */
  lastTime: number;
  loadedAt: number;
}

/**
 * Tests every fix against the fences that apply to its user. The index gives the fences whose box
 * holds the fix; the fences the user is inside are checked as well, to see it leave. Entering is
 * a fix inside the fence; leaving is a fix farther outside than its accuracy (at least 10 m), so a
 * user at the edge raises one entry and no exit until clearly out. Dwell is measured in fix
 * times, from the fix that entered to a later fix still inside. What is inside is kept in
 * `geofence_state` (DESIGN.md section 11): an alarm is raised by the writer that changed the row.
 */
export class GeofenceWatcher {
  private readonly fences: FenceSets;
  private readonly users = new Map<number, UserFences>();
  /** Each user's checks run one after another, in the order the fixes came. */
  private readonly chains = new Map<number, Promise<void>>();
  private readonly stateMaxAgeMs: number;

  constructor(
    private readonly db: Kysely<DB>,
    private readonly raise: RaiseAlarm,
    private readonly options: GeofenceWatcherOptions,
  ) {
    this.fences = new FenceSets(db, options.fenceMaxAgeMs ?? 300_000);
    this.stateMaxAgeMs = options.stateMaxAgeMs ?? 60_000;
  }

  /**
   * Checks a user's fixes; errors are reported, never thrown to the ingest path. A fix that
   * crosses nothing (nearly all of them) is checked at once, without a promise or a database call,
   * when the enterprise's fences and the user's states are loaded; the rest queue behind the user's
   * earlier checks, so they apply in the order the fixes came.
   */
  check(subject: GeofenceSubject, fixes: readonly GeofenceFix[]): void {
    const set = this.fences.peek(subject.E_ID);
    if (set?.byId.size === 0) return;
    const state = this.users.get(subject.U_ID);
    const ordered = fixes.length > 1 ? [...fixes].sort((a, b) => a.time - b.time) : fixes;
    let first = 0;
    if (set && state && Date.now() - state.loadedAt < this.stateMaxAgeMs && !this.chains.has(subject.U_ID)) {
      for (; first < ordered.length; first += 1) {
        const fix = ordered[first] as GeofenceFix;
        if (fix.time <= state.lastTime) continue;
        if (changesOf(subject, set, state, fix)) break;
        state.lastTime = fix.time;
      }
      if (first === ordered.length) return;
    }
    const rest = first === 0 ? ordered : ordered.slice(first);
    const previous = this.chains.get(subject.U_ID) ?? Promise.resolve();
    const next = previous
      .then(() => this.run(subject, rest))
      .catch((error: unknown) => this.options.onError(error, 'geofence check'));
    this.chains.set(subject.U_ID, next);
    void next.finally(() => {
      if (this.chains.get(subject.U_ID) === next) this.chains.delete(subject.U_ID);
    });
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
    while (this.chains.size > 0) await Promise.allSettled([...this.chains.values()]);
  }

  private async run(subject: GeofenceSubject, fixes: readonly GeofenceFix[]): Promise<void> {
    const set = await this.fences.of(subject.E_ID);
    if (set.byId.size === 0) return;
    const state = await this.stateOf(subject.U_ID);
    for (const fix of fixes) {
      if (fix.time <= state.lastTime) continue;
      state.lastTime = fix.time;
      const changes = changesOf(subject, set, state, fix);
      if (changes) await this.apply(subject, state, changes, fix);
    }
  }

  private async stateOf(U_ID: number, now = Date.now()): Promise<UserFences> {
    const cached = this.users.get(U_ID);
    if (cached && now - cached.loadedAt < this.stateMaxAgeMs) return cached;
    const [rows, department] = await Promise.all([insideOf(this.db, U_ID), departmentOf(this.db, U_ID)]);
    const inside = new Map(rows.map((r) => [r.GF_ID, { enteredAt: r.EnteredAt, dwellAt: r.DwellAt }]));
    const state = { department, inside, lastTime: cached?.lastTime ?? 0, loadedAt: now };
    if (this.users.size > 200_000) this.users.clear();
    this.users.set(U_ID, state);
    return state;
  }

  private async apply(subject: GeofenceSubject, state: UserFences, changes: Change[], fix: GeofenceFix) {
    await this.applyAll(subject, state, changes, fix);
    this.options.onStateChanged?.(subject.E_ID, subject.U_ID);
  }

  private async applyAll(subject: GeofenceSubject, state: UserFences, changes: Change[], fix: GeofenceFix) {
    for (const { kind, fence } of changes) {
      const { U_ID } = subject;
      if (kind === 'enter') await this.enter(subject, state, fence, fix);
      else if (kind === 'exit') await this.leave(subject, state, fence, fix);
      else if (kind === 'forget') {
        state.inside.delete(fence.GF_ID);
        await recordLeft(this.db, U_ID, fence.GF_ID);
      } else {
        const entry = state.inside.get(fence.GF_ID);
        if (entry) entry.dwellAt = fix.time;
        if (await recordDwell(this.db, U_ID, fence.GF_ID, fix.time)) {
          const minutes = Math.round(fence.dwellMs / 60_000);
          await this.raise(subject, GeofenceAlarmTypes.dwell, `${fence.Name} (${minutes} min)`, fix);
        }
      }
    }
  }

  private async enter(subject: GeofenceSubject, state: UserFences, fence: CompiledFence, fix: GeofenceFix) {
    state.inside.set(fence.GF_ID, { enteredAt: fix.time, dwellAt: null });
    const row = { U_ID: subject.U_ID, GF_ID: fence.GF_ID, E_ID: subject.E_ID, EnteredAt: fix.time };
    if ((await recordEntered(this.db, row)) && fence.enter) {
      await this.raise(subject, GeofenceAlarmTypes.enter, fence.Name, fix);
    }
  }

  private async leave(subject: GeofenceSubject, state: UserFences, fence: CompiledFence, fix: GeofenceFix) {
    state.inside.delete(fence.GF_ID);
    if ((await recordLeft(this.db, subject.U_ID, fence.GF_ID)) && fence.exit) {
      await this.raise(subject, GeofenceAlarmTypes.exit, fence.Name, fix);
    }
  }
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
    if (fence.shape.depth(fix.lat, fix.lon) > 0) (changes ??= []).push({ kind: 'enter', fence });
  }
  candidates.length = 0;
  for (const [GF_ID, entry] of state.inside) {
    const fence = set.byId.get(GF_ID);
    if (!fence || !appliesTo(fence, subject.U_ID, state.department)) {
      (changes ??= []).push({ kind: 'forget', fence: fence ?? forgotten(GF_ID) });
    } else if (fence.shape.depth(fix.lat, fix.lon) < -margin) {
      (changes ??= []).push({ kind: 'exit', fence });
    } else if (fence.dwellMs > 0 && entry.dwellAt === null && fix.time - entry.enteredAt >= fence.dwellMs) {
      (changes ??= []).push({ kind: 'dwell', fence });
    }
  }
  return changes;
}

/** A stand-in for a deleted fence the user was inside: only its id is used. */
function forgotten(GF_ID: number): CompiledFence {
  const shape = { boxes: [], depth: () => 0 };
  return { GF_ID, Name: '', enter: false, exit: false, dwellMs: 0, users: null, departments: null, shape };
}
