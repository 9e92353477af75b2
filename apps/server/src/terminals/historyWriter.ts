import type { Insertable, Kysely } from 'kysely';
import type { DB, HeartRateTable, LocationHistoryTable } from '../db/schema.js';

export type HistoryRow = Insertable<LocationHistoryTable>;
export type HeartRateRow = Insertable<HeartRateTable>;

export interface HistoryWriterOptions {
  flushMs: number;
  flushRows: number;
  maxQueuedRows: number;
  onError: (error: unknown) => void;
}

/** Rows per INSERT statement: 500 rows of 11 columns stay far below SQLite's and pg's parameter limits. */
const ROWS_PER_STATEMENT = 500;
const RETRY_MS = 1_000;

/**
 * Location history and heart rates, written in batches: one transaction per flush with one
 * multi-row INSERT per 500 rows, every `flushMs` or as soon as `flushRows` wait. A fix is
 * acknowledged to its terminal once `enqueue` returned true, so `close()` (the shutdown path)
 * writes everything queued before it resolves. A failed flush keeps its rows and retries; while
 * more than `maxQueuedRows` wait, `enqueue` refuses (the terminal is told `busy` and sends again).
 */
export class HistoryWriter {
  private positions: HistoryRow[] = [];
  private heartRates: HeartRateRow[] = [];
  private timer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> | undefined;
  private closed = false;
  /** Rows written since start (for benchmarks and tests). */
  written = 0;

  constructor(
    private readonly db: Kysely<DB>,
    private readonly options: HistoryWriterOptions,
  ) {}

  get queued(): number {
    return this.positions.length + this.heartRates.length;
  }

  get isClosed(): boolean {
    return this.closed;
  }

  /** Queues rows; false (nothing queued) once closed or while the queue is full. */
  enqueue(positions: readonly HistoryRow[], heartRates: readonly HeartRateRow[] = []): boolean {
    if (this.closed || this.queued + positions.length + heartRates.length > this.options.maxQueuedRows) return false;
    for (const row of positions) this.positions.push(row);
    for (const row of heartRates) this.heartRates.push(row);
    if (this.queued >= this.options.flushRows) this.kick(0);
    else this.kick(this.options.flushMs);
    return true;
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
        if (attempt >= 5) throw error;
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
    this.positions = [];
    this.heartRates = [];
    try {
      await this.db.transaction().execute(async (trx) => {
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
    } catch (error) {
      // Put the rows back in front, so nothing acknowledged is lost and order is kept.
      this.positions = positions.concat(this.positions);
      this.heartRates = heartRates.concat(this.heartRates);
      throw error;
    }
  }
}
