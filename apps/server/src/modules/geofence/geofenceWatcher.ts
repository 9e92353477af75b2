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

  /** Queues the check of a user's fixes; errors are reported, never thrown to the ingest path. */
  check(subject: GeofenceSubject, fixes: readonly GeofenceFix[]): void {
    const previous = this.chains.get(subject.U_ID) ?? Promise.resolve();
    const next = previous
      .then(() => this.run(subject, fixes))
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

  /** The users' departments or fences may have changed: read their states again. */
  usersChanged(userIds: readonly number[]): void {
    for (const U_ID of userIds) this.users.delete(U_ID);
  }

  /** Waits for every queued check (shutdown, tests). */
  async settle(): Promise<void> {
    while (this.chains.size > 0) await Promise.allSettled([...this.chains.values()]);
  }

  private async run(subject: GeofenceSubject, fixes: readonly GeofenceFix[]): Promise<void> {
    const set = await this.fences.of(subject.E_ID);
    if (set.byId.size === 0) return;
    const state = await this.stateOf(subject.U_ID);
    const ordered = fixes.length > 1 ? [...fixes].sort((a, b) => a.time - b.time) : fixes;
    for (const fix of ordered) {
      if (fix.time <= state.lastTime) continue;
      state.lastTime = fix.time;
      await this.checkFix(subject, set, state, fix);
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

  private async checkFix(subject: GeofenceSubject, set: FenceSet, state: UserFences, fix: GeofenceFix): Promise<void> {
    const margin = Math.max(GeofenceLimits.hysteresisMinMeters, fix.accuracy ?? 0);
    const point = { minX: fix.lon, minY: fix.lat, maxX: fix.lon, maxY: fix.lat };
    const candidates = set.index.search(point);
    for (const fence of candidates) {
      if (state.inside.has(fence.GF_ID) || !appliesTo(fence, subject.U_ID, state.department)) continue;
      if (fence.shape.depth(fix.lat, fix.lon) > 0) await this.enter(subject, state, fence, fix);
    }
    for (const [GF_ID, entry] of state.inside) {
      const fence = set.byId.get(GF_ID);
      if (!fence || !appliesTo(fence, subject.U_ID, state.department)) {
        // Deleted or no longer meant for this user: forgotten without an alarm.
        state.inside.delete(GF_ID);
        await recordLeft(this.db, subject.U_ID, GF_ID);
      } else if (fence.shape.depth(fix.lat, fix.lon) < -margin) {
        await this.leave(subject, state, fence, fix);
      } else if (fence.dwellMs > 0 && entry.dwellAt === null && fix.time - entry.enteredAt >= fence.dwellMs) {
        entry.dwellAt = fix.time;
        if (await recordDwell(this.db, subject.U_ID, GF_ID, fix.time)) {
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
