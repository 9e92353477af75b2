// The history writer on its own (issue 15, issue 34): the server's HistoryWriter and schema storing
// fixes as fast as it can, with no terminal protocol in front. Used by bench/storage.ts and bench/ingest.ts.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { openDatabase, type Database } from '../../apps/server/src/db/database.js';
import { migrateToLatest } from '../../apps/server/src/db/migrate.js';
import { HistoryWriter, type HistoryRow } from '../../apps/server/src/terminals/historyWriter.js';

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

/** The history writer alone: `count` fixes through the server's own writer and schema, and the disk they took. */
export async function measureWriter(label: string, count: number, databaseUrl?: string) {
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
    // The writer's flush timer does not hold the process open; this does, until every commit is in.
    const keepAlive = setInterval(() => undefined, 1000);
    const started = performance.now();
    const commits: Promise<void>[] = [];
    for (let i = 0; i < count; i += 500) {
      const commit = writer.enqueue(fixes(i, Math.min(500, count - i)));
      if (commit) commits.push(commit);
      // Let the writer take batches as terminals would hand them over.
      if (i % 5000 === 0) await new Promise((r) => setImmediate(r));
    }
    await Promise.all(commits).finally(() => clearInterval(keepAlive));
    const seconds = (performance.now() - started) / 1000;
    await writer.close();
    const after = await bytesUsed(database, dataDir);
    return {
      database: label,
      fixes: count,
      writer_fixes_per_second: Math.round(count / seconds),
      bytes_per_fix: Math.round((after - before) / count),
      mib_per_million_fixes: Math.round((((after - before) / count) * 1e6) / 1024 / 1024),
    };
  } finally {
    await database.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
