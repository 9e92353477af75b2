// Sizing (issue 15): bytes of disk per stored fix (table and indexes) on SQLite and PostgreSQL, and
// the history writer's insert rate on its own, through the server's own writer and schema.
//   npx tsx bench/storage.ts
// BENCH_FIXES (200,000), BENCH_PG_URL (admin URL of a PostgreSQL server; "" skips it).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { openDatabase, type Database } from '../apps/server/src/db/database.js';
import { migrateToLatest } from '../apps/server/src/db/migrate.js';
import { HistoryWriter, type HistoryRow } from '../apps/server/src/terminals/historyWriter.js';
import { createDatabase } from './support/seedUsers.js';

const FIXES = Number(process.env.BENCH_FIXES ?? 200_000);
const PG_URL = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const USERS = 1000;

/** Fixes as terminals send them: 1,000 users reporting every 10 s, moving, with every optional field. */
function fixes(from: number, count: number): HistoryRow[] {
  const start = Date.now() - 86_400_000;
  return Array.from({ length: count }, (_, k) => {
    const i = from + k;
    const user = i % USERS;
    const step = Math.floor(i / USERS);
    return {
      E_ID: 1 + (user % 10),
      U_ID: 1 + user,
      H_Time: start + step * 10_000 + user,
      H_Type: 0,
      C_Longitude: 114.05 + user / 10_000 + step / 100_000,
      C_Latitude: 22.54 + user / 20_000 + step / 120_000,
      Speed: (step * 7) % 90,
      Course: (step * 13) % 360,
      Accuracy: 5 + (step % 20),
      Altitude: 10 + (user % 50),
    };
  });
}

async function bytesUsed(database: Database, dataDir?: string): Promise<number> {
  if (database.dialect === 'postgres') {
    await sql`vacuum analyze location_history`.execute(database.db);
    // Partitioned by day (issue 15): the table's size is the sum of its partitions'.
    const row = await sql<{ bytes: string }>`
      select sum(pg_total_relation_size(relid)) as bytes from pg_partition_tree('location_history')`.execute(
      database.db,
    );
    return Number(row.rows[0]?.bytes ?? 0);
  }
  await sql`pragma wal_checkpoint(TRUNCATE)`.execute(database.db);
  return fs.statSync(path.join(dataDir ?? '', 'intercom.sqlite')).size;
}

async function measure(label: string, databaseUrl?: string) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'intercom-storage-'));
  const database = openDatabase({ databaseUrl, dataDir });
  try {
    await migrateToLatest(database.db);
    const before = await bytesUsed(database, dataDir);
    const writer = new HistoryWriter(database.db, {
      flushMs: 50,
      flushRows: 500,
      maxQueuedRows: 1_000_000,
      onError: (error) => process.stderr.write(`${String(error)}\n`),
    });
    const started = performance.now();
    const commits: Promise<void>[] = [];
    for (let i = 0; i < FIXES; i += 500) {
      const commit = writer.enqueue(fixes(i, Math.min(500, FIXES - i)));
      if (commit) commits.push(commit);
      // Let the writer take batches as terminals would hand them over.
      if (i % 5000 === 0) await new Promise((r) => setImmediate(r));
    }
    await Promise.all(commits);
    const seconds = (performance.now() - started) / 1000;
    await writer.close();
    const after = await bytesUsed(database, dataDir);
    return {
      database: label,
      fixes: FIXES,
      writer_fixes_per_second: Math.round(FIXES / seconds),
      bytes_per_fix: Math.round((after - before) / FIXES),
      mib_per_million_fixes: Math.round((((after - before) / FIXES) * 1e6) / 1024 / 1024),
    };
  } finally {
    await database.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

const figures: Record<string, unknown> = {
  bench: 'storage',
  machine: `${os.cpus().length} cores, node ${process.version}`,
  load_average_at_start: os.loadavg().map((n) => Math.round(n * 100) / 100),
};
figures.sqlite = await measure('sqlite');
if (PG_URL) {
  const pgDb = await createDatabase(PG_URL);
  try {
    figures.postgres = await measure('postgres', pgDb.url);
  } finally {
    await pgDb.drop();
  }
}
figures.load_average_at_end = os.loadavg().map((n) => Math.round(n * 100) / 100);
process.stdout.write(`${JSON.stringify(figures, null, 2)}\n`);
