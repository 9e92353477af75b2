import { sql, type Kysely, type Transaction } from 'kysely';
import type { DB } from './schema.js';

/** Partitions are UTC days of H_Time (epoch ms). */
export const DAY_MS = 86_400_000;

const PARTITION_PREFIX = 'location_history_p';
const DEFAULT_PARTITION = 'location_history_default';
/** One key for every instance on the database: partition DDL runs one instance at a time. */
const LOCK_KEY = sql`hashtext('intercom.location_history.partitions')`;
/**
 * Dropping a partition takes an ACCESS EXCLUSIVE lock on location_history: while it waits, inserts
 * queue behind it. A short wait bounds that stall; a drop that times out is tried again later.
 */
const DROP_LOCK_TIMEOUT = '200ms';
const DROP_ATTEMPTS = 5;
/** Rows of the default partition deleted per statement (it holds only fixes of wrong clocks). */
const DEFAULT_DELETE_ROWS = 5_000;

/** `location_history_p20261125` for the UTC day number (days since 1970-01-01). */
export function historyPartitionName(day: number): string {
  return `${PARTITION_PREFIX}${new Date(day * DAY_MS).toISOString().slice(0, 10).replaceAll('-', '')}`;
}

/** The day number of a partition's name; undefined for a table of another name. */
export function dayOfPartition(name: string): number | undefined {
  const match = /^location_history_p(\d{4})(\d{2})(\d{2})$/.exec(name);
  if (!match) return undefined;
  return Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])) / DAY_MS;
}

/** The partitions of location_history, by name, default included. */
export async function historyPartitions(db: Kysely<DB>): Promise<string[]> {
  const { rows } = await sql<{ name: string }>`
    select c.relname as name from pg_inherits i join pg_class c on c.oid = i.inhrelid
    where i.inhparent = 'location_history'::regclass order by c.relname`.execute(db);
  return rows.map((row) => row.name);
}

async function lockPartitions(trx: Transaction<DB>): Promise<void> {
  await sql`select pg_advisory_xact_lock(${LOCK_KEY})`.execute(trx);
}

/**
 * Creates the day partition unless it exists. Built beside the table and then attached: ATTACH
 * takes only a SHARE UPDATE EXCLUSIVE lock on location_history, so ingest and Track reads go on
 * (CREATE ... PARTITION OF would block them). Rows of that day already in the default partition
 * (fixes that came before the partition did) move into it in the same transaction.
 */
export async function createHistoryPartition(db: Kysely<DB>, day: number): Promise<boolean> {
  const name = historyPartitionName(day);
  const from = day * DAY_MS;
  const to = from + DAY_MS;
  return db.transaction().execute(async (trx) => {
    await lockPartitions(trx);
    const exists = await sql<{ oid: string | null }>`select to_regclass(${name}) as oid`.execute(trx);
    if (exists.rows[0]?.oid) return false;
    await sql`create table ${sql.id(name)} (like location_history including defaults)`.execute(trx);
    await sql`with moved as (
        delete from ${sql.id(DEFAULT_PARTITION)} where "H_Time" >= ${from} and "H_Time" < ${to} returning *)
      insert into ${sql.id(name)} select * from moved`.execute(trx);
    await sql`alter table location_history attach partition ${sql.id(name)}
      for values from (${sql.lit(from)}) to (${sql.lit(to)})`.execute(trx);
    return true;
  });
}

/**
 * Today's partition and the next `daysAhead` days' (UTC), whichever are missing; returns the names
 * created. Safe with several instances at once: one advisory lock serialises them and each checks
 * for the partition under it.
 */
export async function ensureHistoryPartitions(db: Kysely<DB>, now: number, daysAhead: number): Promise<string[]> {
  const today = Math.floor(now / DAY_MS);
  const created: string[] = [];
  for (let day = today; day <= today + daysAhead; day++) {
    if (await createHistoryPartition(db, day)) created.push(historyPartitionName(day));
  }
  return created;
}

const isLockTimeout = (error: unknown): boolean => (error as { code?: string }).code === '55P03';

async function dropPartition(db: Kysely<DB>, name: string): Promise<boolean> {
  for (let attempt = 1; ; attempt++) {
    try {
      await db.transaction().execute(async (trx) => {
        await lockPartitions(trx);
        await sql`set local lock_timeout = ${sql.lit(DROP_LOCK_TIMEOUT)}`.execute(trx);
        await sql`drop table if exists ${sql.id(name)}`.execute(trx);
      });
      return true;
    } catch (error) {
      if (!isLockTimeout(error)) throw error;
      if (attempt >= DROP_ATTEMPTS) return false;
      await new Promise((resolve) => setTimeout(resolve, 1_000));
    }
  }
}

export interface HistoryPurge {
  /** Partitions dropped. */
  dropped: string[];
  /** Partitions due but still locked after every attempt: tried again at the next run. */
  postponed: string[];
  /** Rows deleted from the default partition. */
  deleted: number;
}

/**
 * Retention on PostgreSQL: drops every day partition whose whole day is older than `cutoff` (epoch
 * ms), so whole days go and no row newer than the cutoff does; deletes the default partition's rows
 * older than the cutoff, a few thousand per statement.
 */
export async function purgeHistoryPartitions(db: Kysely<DB>, cutoff: number): Promise<HistoryPurge> {
  const result: HistoryPurge = { dropped: [], postponed: [], deleted: 0 };
  for (const name of await historyPartitions(db)) {
    const day = dayOfPartition(name);
    if (day === undefined || (day + 1) * DAY_MS > cutoff) continue;
    const list = (await dropPartition(db, name)) ? result.dropped : result.postponed;
    list.push(name);
  }
  for (;;) {
    const { numAffectedRows } = await sql`delete from ${sql.id(DEFAULT_PARTITION)} where ctid = any(array(
        select ctid from ${sql.id(DEFAULT_PARTITION)} where "H_Time" < ${cutoff} limit ${DEFAULT_DELETE_ROWS}))`.execute(
      db,
    );
    const deleted = Number(numAffectedRows ?? 0);
    result.deleted += deleted;
    if (deleted < DEFAULT_DELETE_ROWS) return result;
  }
}
