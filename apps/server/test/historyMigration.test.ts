import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../src/db/database.js';
import { DAY_MS, historyPartitionName, historyPartitions } from '../src/db/historyPartitions.js';
import { migrateToLatest } from '../src/db/migrate.js';
import { createPostgresDatabase } from './helper.js';

// Migration 2026112500_history_partitions on a database that already holds history: every row kept.
const adminUrl = process.env.TEST_DATABASE_URL;
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function databaseBeforePartitions(): Promise<Database> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'intercom-history-migration-'));
  cleanups.push(() => {
    fs.rmSync(dataDir, { recursive: true, force: true });
    return Promise.resolve();
  });
  const pg = adminUrl ? await createPostgresDatabase(adminUrl) : undefined;
  if (pg) cleanups.push(() => pg.drop());
  const database = openDatabase({ databaseUrl: pg?.url, dataDir });
  cleanups.push(() => database.close());
  await migrateToLatest(database.db, '2026112400_user_search');
  return database;
}

const NOW = Date.UTC(2026, 10, 25, 9, 30);
/** 12 days of fixes of 7 users, plus a wrong clock's year 2000 and a fix of tomorrow. */
const TIMES = [
  ...Array.from({ length: 1_200 }, (_, i) => NOW - 11 * DAY_MS + i * 797_000),
  Date.UTC(2000, 0, 1, 0, 0, 1),
  NOW + DAY_MS,
];

const everyRow = (database: Database) =>
  database.db.selectFrom('location_history').selectAll().orderBy('H_ID').execute();

describe('migration 2026112500_history_partitions', () => {
  it('keeps every row of an existing history, and new rows get new ids', async () => {
    const database = await databaseBeforePartitions();
    const { db } = database;
    for (let i = 0; i < TIMES.length; i += 500) {
      await db
        .insertInto('location_history')
        .values(
          TIMES.slice(i, i + 500).map((H_Time, k) => ({
            E_ID: 1,
            U_ID: 1 + ((i + k) % 7),
            H_Time,
            H_Type: (i + k) % 2,
            C_Longitude: 114 + k / 1000,
            C_Latitude: 22.5,
            Speed: k % 3 === 0 ? null : 12.5,
            Course: 90,
            Accuracy: 5,
            Altitude: null,
          })),
        )
        .execute();
    }
    const before = await everyRow(database);
    expect(before).toHaveLength(TIMES.length);

    await migrateToLatest(db);
    expect(await everyRow(database)).toEqual(before);

    if (database.dialect === 'postgres') {
      const kind = await sql<{
        relkind: string;
      }>`select relkind from pg_class where relname = 'location_history'`.execute(db);
      expect(kind.rows[0]?.relkind).toBe('p');
      const names = await historyPartitions(db);
      const days = new Set(TIMES.map((time) => Math.floor(time / DAY_MS)));
      expect(names.sort()).toEqual([...[...days].map(historyPartitionName), 'location_history_default'].sort());
    } else {
      const index = await sql<{ name: string }>`
        select name from sqlite_master where type = 'index' and name = 'location_history_time'`.execute(db);
      expect(index.rows).toHaveLength(1);
    }
    const added = await db
      .insertInto('location_history')
      .values({ E_ID: 1, U_ID: 1, H_Time: NOW, H_Type: 0, C_Longitude: 114, C_Latitude: 22.5 })
      .returning('H_ID')
      .executeTakeFirstOrThrow();
    expect(Number(added.H_ID)).toBeGreaterThan(Math.max(...before.map((r) => Number(r.H_ID))));
  });

  it('runs on an empty history too, and a second start changes nothing', async () => {
    const database = await databaseBeforePartitions();
    await migrateToLatest(database.db);
    await migrateToLatest(database.db);
    expect(await everyRow(database)).toEqual([]);
  });
});
