// Sizing (issue 15): bytes of disk per stored fix (table and indexes) on SQLite and PostgreSQL, and
// the history writer's insert rate on its own, through the server's own writer and schema.
//   npx tsx bench/storage.ts
// BENCH_FIXES (200,000), BENCH_PG_URL (admin URL of a PostgreSQL server; "" skips it).
import os from 'node:os';
import { createDatabase } from './support/seedUsers.js';
import { measureWriter } from './support/writerAlone.js';

const FIXES = Number(process.env.BENCH_FIXES ?? 200_000);
const PG_URL = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

const figures: Record<string, unknown> = {
  bench: 'storage',
  machine: `${os.cpus().length} cores, node ${process.version}`,
  load_average_at_start: os.loadavg().map((n) => Math.round(n * 100) / 100),
};
figures.sqlite = await measureWriter('sqlite', FIXES);
if (PG_URL) {
  const pgDb = await createDatabase(PG_URL);
  try {
    figures.postgres = await measureWriter('postgres', FIXES, pgDb.url);
  } finally {
    await pgDb.drop();
  }
}
figures.load_average_at_end = os.loadavg().map((n) => Math.round(n * 100) / 100);
process.stdout.write(`${JSON.stringify(figures, null, 2)}\n`);
