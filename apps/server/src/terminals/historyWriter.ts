import { sql, type Insertable, type Kysely, type Transaction } from 'kysely';
import { dialectOf } from '../db/database.js';
import type { DB, HeartRateTable, LocationHistoryTable } from '../db/schema.js';

export type HistoryRow = Insertable<LocationHistoryTable>;
export type HeartRateRow = Insertable<HeartRateTable>;

export interface HistoryWriterOptions {
  flushMs: number;
  flushRows: number;
  maxQueuedRows: number;
  onError: (error: unknown) => void;
  /** A batch committed: its row counts and how long the transaction took (metrics). */
  onCommit?: (positions: number, heartRates: number, seconds: number) => void;
}

/** Rows per INSERT statement: 500 rows of 11 columns stay far below SQLite's and pg's parameter limits. */
const ROWS_PER_STATEMENT = 500;
const RETRY_MS = 1_000;

const column = <T, K extends keyof T>(rows: readonly T[], key: K): (T[K] | null)[] =>
  rows.map((row) => row[key] ?? null);

/**
 * PostgreSQL: all rows in one INSERT of a few array parameters (unnest). A multi-row VALUES of 500
 * rows has 5,500 parameters for Kysely to compile and pg to send one by one, which stalls the
 * event loop the hub's pushes share (docs/benchmarks.md, "Real time").
 */
async function insertPositionsPg(trx: Transaction<DB>, rows: readonly HistoryRow[]): Promise<void> {
  await sql`insert into location_history
      ("E_ID", "U_ID", "H_Time", "H_Type", "C_Longitude", "C_Latitude", "Speed", "Course", "Accuracy", "Altitude")
    select * from unnest(${column(rows, 'E_ID')}::integer[], ${column(rows, 'U_ID')}::integer[],
      ${column(rows, 'H_Time')}::bigint[], ${rows.map((row) => row.H_Type ?? 0)}::integer[],
      ${column(rows, 'C_Longitude')}::double precision[], ${column(rows, 'C_Latitude')}::double precision[],
      ${column(rows, 'Speed')}::real[], ${column(rows, 'Course')}::real[],
      ${column(rows, 'Accuracy')}::real[], ${column(rows, 'Altitude')}::real[])`.execute(trx);
}

async function insertHeartRatesPg(trx: Transaction<DB>, rows: readonly HeartRateRow[]): Promise<void> {
  await sql`insert into heart_rate ("E_ID", "U_ID", "Phone", "Value", "H_Time")
    select * from unnest(${column(rows, 'E_ID')}::integer[], ${column(rows, 'U_ID')}::integer[],
      ${column(rows, 'Phone')}::varchar[], ${column(rows, 'Value')}::integer[],
      ${column(rows, 'H_Time')}::bigint[])`.execute(trx);
}

/** One group commit: every caller whose rows ride in the batch waits on the same promise. */
interface Commit {
  promise: Promise<void>;
  resolve: () => void;
  reject: (error: unknown) => void;
}

function newCommit(): Commit {
  let resolve!: () => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<void>((ok, fail) => {
    resolve = ok;
    reject = fail;
  });
  // A batch nobody waits on (heart rates only, say) must not surface as an unhandled rejection.
  promise.catch(() => undefined);
  return { promise, resolve, reject };
}

/**
 * Location history and heart rates, written in batches (group commit): one transaction per flush
 * with one multi-row INSERT per 500 rows (PostgreSQL: one INSERT of arrays per table), every
 * `flushMs` or as soon as `flushRows` wait. `enqueue` returns the promise of the commit that holds
 * the rows: a fix is acknowledged to its terminal only once it resolved, so a crash (kill -9) loses
 * nothing acknowledged. A failed flush keeps its rows and retries (their callers keep waiting);
 * `close()` (the shutdown path) writes everything queued before it resolves. While more than
 * `maxQueuedRows` wait, `enqueue` refuses (the terminal is told `busy` and sends again).
 */
export class HistoryWriter {
  private positions: HistoryRow[] = [];
  private heartRates: HeartRateRow[] = [];
  /** The commit the queued rows will be part of. */
  private pending = newCommit();
  private timer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> | undefined;
  private closed = false;
  /** Rows written since start (for benchmarks and tests). */
  written = 0;

  private readonly postgres: boolean;

  constructor(
    private readonly db: Kysely<DB>,
    private readonly options: HistoryWriterOptions,
  ) {
    this.postgres = dialectOf(db) === 'postgres';
  }

  get queued(): number {
    return this.positions.length + this.heartRates.length;
  }

  get isClosed(): boolean {
    return this.closed;
  }

  /**
   * Queues rows and returns the promise of their commit; undefined (nothing queued) once closed or
   * while the queue is full.
   */
  enqueue(positions: readonly HistoryRow[], heartRates: readonly HeartRateRow[] = []): Promise<void> | undefined {
    if (this.closed || this.queued + positions.length + heartRates.length > this.options.maxQueuedRows)
      return undefined;
    for (const row of positions) this.positions.push(row);
    for (const row of heartRates) this.heartRates.push(row);
    if (this.queued >= this.options.flushRows) this.kick(0);
    else this.kick(this.options.flushMs);
    return this.pending.promise;
  }

  /** Writes what is queued now (and whatever a running flush holds). */
  async flush(): Promise<void> {
    while (this.flushing) await this.flushing;
    if (this.queued === 0) return;
    this.flushing = this.writeBatch().finally(() => {
      this.flushing = undefined;
    });
    await this.flushing;
  }

  /** Refuses new rows and writes every queued one; retries until the database takes them. */
  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    for (let attempt = 0; this.queued > 0 || this.flushing; attempt += 1) {
      try {
        await this.flush();
      } catch (error) {
        this.options.onError(error);
        if (attempt >= 5) {
          // Given up: whoever waits is told (never acknowledged), the rows are dropped with the process.
          this.pending.reject(error);
          throw error;
        }
        await new Promise((resolve) => setTimeout(resolve, RETRY_MS / 4));
      }
    }
  }

  private kick(delayMs: number): void {
    if (this.timer || this.closed) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.flush().then(
        () => {
          if (this.queued > 0) this.kick(this.queued >= this.options.flushRows ? 0 : this.options.flushMs);
        },
        (error: unknown) => {
          this.options.onError(error);
          this.kick(RETRY_MS);
        },
      );
    }, delayMs);
    this.timer.unref?.();
  }

  private async writeBatch(): Promise<void> {
    const positions = this.positions;
    const heartRates = this.heartRates;
    const commit = this.pending;
    this.positions = [];
    this.heartRates = [];
    this.pending = newCommit();
    const started = performance.now();
    try {
      await this.db.transaction().execute(async (trx) => {
        if (this.postgres) {
          if (positions.length > 0) await insertPositionsPg(trx, positions);
          if (heartRates.length > 0) await insertHeartRatesPg(trx, heartRates);
          return;
        }
        for (let i = 0; i < positions.length; i += ROWS_PER_STATEMENT) {
          await trx
            .insertInto('location_history')
            .values(positions.slice(i, i + ROWS_PER_STATEMENT))
            .execute();
        }
        for (let i = 0; i < heartRates.length; i += ROWS_PER_STATEMENT) {
          await trx
            .insertInto('heart_rate')
            .values(heartRates.slice(i, i + ROWS_PER_STATEMENT))
            .execute();
        }
      });
      this.written += positions.length + heartRates.length;
      this.options.onCommit?.(positions.length, heartRates.length, (performance.now() - started) / 1000);
      commit.resolve();
    } catch (error) {
      // Put the rows back in front, so order is kept; their callers (and those of rows queued
      // meanwhile, now in the same batch) wait for the retry.
      this.positions = positions.concat(this.positions);
      this.heartRates = heartRates.concat(this.heartRates);
      const newer = this.pending;
      this.pending = commit;
      commit.promise.then(newer.resolve, newer.reject);
      throw error;
    }
  }
}
