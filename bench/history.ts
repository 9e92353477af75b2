// Location history that grows for years (issue 15). PostgreSQL: ~100 million fixes generated with SQL
// into the day-partitioned table of a database of its own (dropped at the end), then one user's day
// read with the Track query (p50/p99 over random user-days), the history writer's insert rate with
// the table empty and full, and the time to drop a day's partition. SQLite: retention's batched
// deletes running while the history writer ingests (longest commit wait, event-loop stall).
//   npx tsx bench/history.ts
// BENCH_PARTS (sqlite,postgres), BENCH_PG_URL (admin URL; default postgres://postgres@127.0.0.1:5432/postgres),
// BENCH_USERS (2,000), BENCH_DAYS (180), BENCH_FIX_SECONDS (100: a fix every 100 s through an 8-hour
// shift, 288 a user-day: 2,000 x 180 x 288 = 103.7 million), BENCH_GEN_SECONDS (3,600: generation
// stops after the day that passes it; the figures are then for the rows made, said in the output),
// BENCH_SAMPLES (2,000 user-days), BENCH_SQLITE_OLD_ROWS (2,000,000), BENCH_INGEST_PER_SECOND (5,000).
import fs from 'node:fs';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import os from 'node:os';
import path from 'node:path';
import { sql, type Kysely } from 'kysely';
import { openDatabase, type Database } from '../apps/server/src/db/database.js';
import { DAY_MS, createHistoryPartition, purgeHistoryPartitions } from '../apps/server/src/db/historyPartitions.js';
import { deleteExpiredHistory, historyRetentionDefaults } from '../apps/server/src/db/historyRetention.js';
import { migrateToLatest } from '../apps/server/src/db/migrate.js';
import type { DB } from '../apps/server/src/db/schema.js';
import { fixesOf } from '../apps/server/src/modules/gisLocation/trackRepository.js';
import { HistoryWriter, type HistoryRow } from '../apps/server/src/terminals/historyWriter.js';
import { LatencyHistogram } from './support/latencyHistogram.js';
import { createDatabase } from './support/seedUsers.js';

const PARTS = (process.env.BENCH_PARTS ?? 'sqlite,postgres').split(',');
const PG_URL = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const USERS = Number(process.env.BENCH_USERS ?? 2_000);
const DAYS = Number(process.env.BENCH_DAYS ?? 180);
const FIX_SECONDS = Number(process.env.BENCH_FIX_SECONDS ?? 100);
const GEN_SECONDS = Number(process.env.BENCH_GEN_SECONDS ?? 3_600);
const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 2_000);
const SQLITE_OLD_ROWS = Number(process.env.BENCH_SQLITE_OLD_ROWS ?? 2_000_000);
const INGEST_PER_SECOND = Number(process.env.BENCH_INGEST_PER_SECOND ?? 5_000);
const SHIFT_MS = 8 * 3_600_000;
const FIXES_PER_USER_DAY = Math.floor(SHIFT_MS / (FIX_SECONDS * 1000));
/** Console readers in UTC+8: their day spans two UTC partitions, as it does in production. */
const READER_OFFSET_MS = 8 * 3_600_000;
const WRITER_FIXES = 100_000;

const log = (line: string) => process.stderr.write(`[bench] ${line}\n`);
const load = () => os.loadavg().map((n) => Math.round(n * 100) / 100);
const round = (n: number, digits = 1) => Math.round(n * 10 ** digits) / 10 ** digits;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Fixes as terminals send them, at `time` onwards, one user after the other. */
function liveFixes(time: number, from: number, count: number): HistoryRow[] {
  return Array.from({ length: count }, (_, k) => {
    const i = from + k;
    const user = i % USERS;
    return {
      E_ID: 1 + (user % 10),
      U_ID: 1 + user,
      H_Time: time + Math.floor(i / USERS) * 1000 + (user % 1000),
      H_Type: 0,
      C_Longitude: 114 + user / 10_000,
      C_Latitude: 22.5 + user / 20_000,
      Speed: i % 90,
      Course: i % 360,
      Accuracy: 5,
      Altitude: 10,
    };
  });
}

/** The history writer's rate, as the server runs it (50 ms / 500 rows group commits). */
async function writerRate(db: Kysely<DB>, time: number): Promise<number> {
  const writer = new HistoryWriter(db, {
    flushMs: 50,
    flushRows: 500,
    maxQueuedRows: 1_000_000,
    onError: (error) => log(String(error)),
  });
  const started = performance.now();
  const commits: Promise<void>[] = [];
  for (let i = 0; i < WRITER_FIXES; i += 500) {
    const commit = writer.enqueue(liveFixes(time, i, 500));
    if (commit) commits.push(commit);
    if (i % 5_000 === 0) await new Promise((resolve) => setImmediate(resolve));
  }
  await Promise.all(commits);
  const seconds = (performance.now() - started) / 1000;
  await writer.close();
  return Math.round(WRITER_FIXES / seconds);
}

/** One UTC day of every user's shift: a fix every FIX_SECONDS, users interleaved in time as ingest writes them. */
async function generateDay(db: Kysely<DB>, day: number): Promise<void> {
  const start = day * DAY_MS;
  await db.transaction().execute(async (trx) => {
    // Generation only: the measured writes keep the server's durable commits.
    await sql`set local synchronous_commit = off`.execute(trx);
    await sql`insert into location_history
      ("E_ID", "U_ID", "H_Time", "H_Type", "C_Longitude", "C_Latitude", "Speed", "Course", "Accuracy", "Altitude")
    select 1 + u % 10, u,
      ${start}::bigint + 18000000 + (u * 7919 % 28800) * 1000 + s * ${FIX_SECONDS * 1000} + (u * 31 + s * 17) % 5000,
      0, 113.9 + (u % 50) * 0.004 + s * 0.00005, 22.5 + (u / 50 % 50) * 0.003 + s * 0.00003,
      (s * 7 + u) % 60, (s * 13 + u) % 360, 5 + s % 20, 10 + u % 50
    from generate_series(0, ${FIXES_PER_USER_DAY - 1}) s, generate_series(1, ${USERS}) u`.execute(trx);
  });
}

function percentiles(histogram: LatencyHistogram) {
  return { p50: histogram.percentile(50), p99: histogram.percentile(99), max: histogram.percentile(100) };
}

async function postgres(): Promise<Record<string, unknown>> {
  const target = await createDatabase(PG_URL);
  const database = openDatabase({ databaseUrl: target.url, dataDir: os.tmpdir() });
  const db = database.db;
  try {
    await migrateToLatest(db);
    const today = Math.floor(Date.now() / DAY_MS);
    for (let day = today - DAYS; day <= today + 1; day++) await createHistoryPartition(db, day);
    const emptyRate = await writerRate(db, Date.now());
    await sql`truncate location_history`.execute(db);
    log(`writer into the empty table: ${emptyRate} fixes/s; generating ${DAYS} days x ${USERS} users`);

    const genStarted = performance.now();
    let days = 0;
    for (let day = today - DAYS; day < today && performance.now() - genStarted < GEN_SECONDS * 1000; day++) {
      await generateDay(db, day);
      days += 1;
      if (days % 10 === 0)
        log(`${days} days generated, ${round((performance.now() - genStarted) / 1000, 0)} s, load ${load().join(',')}`);
    }
    const genSeconds = (performance.now() - genStarted) / 1000;
    const rows = days * USERS * FIXES_PER_USER_DAY;
    // Autovacuum has long visited a production history's past days: their pages are all-visible.
    const analyzeStarted = performance.now();
    await sql`vacuum (analyze) location_history`.execute(db);
    const size = await sql<{ bytes: string }>`
      select sum(pg_total_relation_size(relid)) as bytes from pg_partition_tree('location_history')`.execute(db);
    const vacuumSeconds = round((performance.now() - analyzeStarted) / 1000, 0);
    log(`${rows} rows in ${round(genSeconds, 0)} s; vacuum analyze ${vacuumSeconds} s`);

    const track = new LatencyHistogram();
    let points = 0;
    for (let i = 0; i < SAMPLES; i++) {
      const day = today - DAYS + 1 + Math.floor(Math.random() * (days - 1));
      const user = 1 + Math.floor(Math.random() * USERS);
      const from = day * DAY_MS - READER_OFFSET_MS;
      const started = performance.now();
      const fixes = await fixesOf(db, { E_ID: 1 + (user % 10), U_ID: user }, { from, to: from + DAY_MS - 1 });
      track.add(performance.now() - started);
      points += fixes.length;
    }
    const fullRate = await writerRate(db, Date.now());

    const drops: number[] = [];
    for (let k = 1; k <= 3; k++) {
      const started = performance.now();
      const purge = await purgeHistoryPartitions(db, (today - DAYS + k) * DAY_MS);
      drops.push(round(performance.now() - started));
      if (purge.dropped.length !== 1) throw new Error(`expected one partition dropped, got ${purge.dropped.join(',')}`);
    }
    return {
      users: USERS,
      days_generated: days,
      days_asked: DAYS,
      fixes_per_user_day: FIXES_PER_USER_DAY,
      rows,
      generation_seconds: round(genSeconds, 0),
      generation_rows_per_second: Math.round(rows / genSeconds),
      vacuum_analyze_seconds: vacuumSeconds,
      table_and_indexes_gib: round(Number(size.rows[0]?.bytes ?? 0) / 1024 ** 3, 2),
      track_user_day_ms: { samples: SAMPLES, points_per_day: round(points / SAMPLES, 0), ...percentiles(track) },
      writer_fixes_per_second_empty_table: emptyRate,
      writer_fixes_per_second_full_table: fullRate,
      drop_day_partition_ms: drops,
    };
  } finally {
    await database.close();
    await target.drop();
  }
}

/** SQLite: SQLITE_OLD_ROWS expired fixes, then the writer paced at INGEST_PER_SECOND with and without retention deleting them. */
async function sqlite(): Promise<Record<string, unknown>> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'intercom-history-bench-'));
  const database: Database = openDatabase({ databaseUrl: undefined, dataDir });
  const db = database.db;
  try {
    await migrateToLatest(db);
    const old = Date.now() - 200 * DAY_MS;
    await sql`with recursive s(i) as (select 0 union all select i + 1 from s where i < ${SQLITE_OLD_ROWS - 1})
      insert into location_history ("E_ID", "U_ID", "H_Time", "H_Type", "C_Longitude", "C_Latitude", "Speed", "Course", "Accuracy", "Altitude")
      select 1 + i % 10, 1 + i % ${USERS}, ${old} + i * 5, 0, 114 + i % 100 * 0.001, 22.5, i % 90, i % 360, 5, 10 from s`.execute(
      db,
    );
    await sql`pragma wal_checkpoint(TRUNCATE)`.execute(db);
    log(`sqlite: ${SQLITE_OLD_ROWS} expired rows written`);

    const ingest = async (during?: () => Promise<unknown>) => {
      const writer = new HistoryWriter(db, {
        flushMs: 50,
        flushRows: 500,
        maxQueuedRows: 1_000_000,
        onError: (error) => log(String(error)),
      });
      const acks = new LatencyHistogram();
      const loop = monitorEventLoopDelay({ resolution: 5 });
      loop.enable();
      let stop = false;
      let sent = 0;
      const feeding = (async () => {
        const perTick = INGEST_PER_SECOND / 100;
        while (!stop) {
          const sentAt = performance.now();
          void writer.enqueue(liveFixes(Date.now(), sent, perTick))?.then(() => acks.add(performance.now() - sentAt));
          sent += perTick;
          await sleep(10);
        }
      })();
      const started = performance.now();
      const result = during ? await during() : await sleep(10_000);
      const seconds = (performance.now() - started) / 1000;
      stop = true;
      await feeding;
      await writer.close();
      loop.disable();
      return {
        seconds: round(seconds),
        acks: acks.count,
        ack_ms: percentiles(acks),
        event_loop_delay_max_ms: round(loop.max / 1e6),
        result,
      };
    };
    const alone = await ingest();
    const deleting = await ingest(() =>
      deleteExpiredHistory(db, Date.now() - 180 * DAY_MS, {
        batchRows: historyRetentionDefaults.batchRows,
        pauseMs: historyRetentionDefaults.pauseMs,
      }),
    );
    return {
      expired_rows: SQLITE_OLD_ROWS,
      ingest_fixes_per_second_offered: INGEST_PER_SECOND,
      batch_rows: historyRetentionDefaults.batchRows,
      pause_ms: historyRetentionDefaults.pauseMs,
      ingest_alone: alone,
      ingest_while_deleting: { ...deleting, rows_deleted: deleting.result, result: undefined },
      delete_rows_per_second: Math.round(Number(deleting.result) / deleting.seconds),
    };
  } finally {
    await database.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

const figures: Record<string, unknown> = {
  bench: 'history',
  machine: `${os.cpus().length} cores, node ${process.version}`,
  load_average_at_start: load(),
};
if (PARTS.includes('sqlite')) figures.sqlite = await sqlite();
if (PARTS.includes('postgres') && PG_URL) figures.postgres = await postgres();
figures.load_average_at_end = load();
process.stdout.write(`${JSON.stringify(figures, null, 2)}\n`);
