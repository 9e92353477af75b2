import { sql, type Kysely } from 'kysely';
import type { Dialect } from './database.js';
import { DAY_MS, ensureHistoryPartitions, purgeHistoryPartitions } from './historyPartitions.js';
import type { DB } from './schema.js';

/** The time retention runs on: AppDeps.clock (core/clock.ts; db sits below core, so it is named here). */
export interface RetentionClock {
  now(): number;
  timeout(run: () => void, ms: number): { cancel(): void };
}

export interface HistoryRetentionOptions {
  /** Fixes older than this many days are removed (HISTORY_RETENTION_DAYS). */
  retentionDays: number;
  /** PostgreSQL: partitions kept ready past today. */
  daysAhead: number;
  /** Between two runs (partitions ahead, then retention). */
  intervalMs: number;
  /** SQLite: rows per delete transaction. */
  batchRows: number;
  /** SQLite: pause between two delete transactions, so the history writer's commits go between. */
  pauseMs: number;
  /** A run that changed something (logged at info). */
  onRun: (run: RetentionRun) => void;
  /** A run failed; the next one comes after `intervalMs` all the same (logged at error). */
  onError: (error: unknown) => void;
}

export const historyRetentionDefaults = {
  daysAhead: 3,
  intervalMs: 60 * 60_000,
  batchRows: 2_000,
  pauseMs: 20,
} as const;

export interface RetentionRun {
  /** PostgreSQL: partitions created ahead. */
  created: string[];
  /** PostgreSQL: whole days dropped; due but still locked ones are in `postponed`. */
  dropped: string[];
  postponed: string[];
  /** Rows deleted (SQLite; PostgreSQL: from the default partition). */
  deleted: number;
}

/** The pause between SQLite's delete batches: load pacing for the writer, not a rule (real time). */
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * SQLite retention: deletes the fixes older than `cutoff` (epoch ms), oldest first through the
 * H_Time index, `batchRows` per statement (one short transaction each) with a pause between, so
 * a history writer commit never waits for more than one batch. Stops early when `stopped()` says so.
 */
export async function deleteExpiredHistory(
  db: Kysely<DB>,
  cutoff: number,
  options: { batchRows: number; pauseMs: number; stopped?: () => boolean },
): Promise<number> {
  let total = 0;
  while (!options.stopped?.()) {
    const { numAffectedRows } = await sql`delete from location_history where "H_ID" in (
        select "H_ID" from location_history where "H_Time" < ${cutoff}
        order by "H_Time" limit ${options.batchRows})`.execute(db);
    const deleted = Number(numAffectedRows ?? 0);
    total += deleted;
    if (deleted < options.batchRows) break;
    await pause(options.pauseMs);
  }
  return total;
}

/**
 * Keeps the location history within HISTORY_RETENTION_DAYS and, on PostgreSQL, its day partitions
 * ready ahead of time. `start()` creates the partitions before the server takes traffic, then runs
 * retention in the background and both again every `intervalMs`. Every instance runs it; on
 * PostgreSQL they take turns under an advisory lock (historyPartitions.ts).
 */
export class HistoryRetention {
  private timer: { cancel(): void } | undefined;
  private running: Promise<unknown> | undefined;
  private stopping = false;

  constructor(
    private readonly db: Kysely<DB>,
    private readonly dialect: Dialect,
    private readonly options: HistoryRetentionOptions,
    /** When retention runs and what it counts as expired (AppDeps.clock). */
    private readonly clock: RetentionClock,
  ) {}

  async start(): Promise<void> {
    if (this.dialect === 'postgres') {
      // A failure here must not keep the server down: the default partition takes every fix meanwhile.
      await ensureHistoryPartitions(this.db, this.clock.now(), this.options.daysAhead).catch(this.options.onError);
    }
    this.schedule(0);
  }

  /** One run at `now`: partitions ahead (PostgreSQL), then whatever retention removes. */
  async runOnce(now = this.clock.now()): Promise<RetentionRun> {
    const cutoff = now - this.options.retentionDays * DAY_MS;
    if (this.dialect === 'postgres') {
      const created = await ensureHistoryPartitions(this.db, now, this.options.daysAhead);
      return { created, ...(await purgeHistoryPartitions(this.db, cutoff)) };
    }
    const deleted = await deleteExpiredHistory(this.db, cutoff, {
      ...this.options,
      stopped: () => this.stopping,
    });
    return { created: [], dropped: [], postponed: [], deleted };
  }

  /** Stops the timer and waits for a run in progress (SQLite's stops after its current batch). */
  async stop(): Promise<void> {
    this.stopping = true;
    this.timer?.cancel();
    this.timer = undefined;
    await this.running;
  }

  private schedule(delayMs: number): void {
    if (this.stopping) return;
    this.timer = this.clock.timeout(() => {
      this.timer = undefined;
      this.running = this.runOnce()
        .then((run) => {
          if (run.created.length + run.dropped.length + run.postponed.length + run.deleted > 0) this.options.onRun(run);
        })
        .catch((error: unknown) => this.options.onError(error))
        .finally(() => {
          this.running = undefined;
          this.schedule(this.options.intervalMs);
        });
    }, delayMs);
  }
}
