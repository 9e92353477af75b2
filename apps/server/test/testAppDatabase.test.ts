// postgres: each app's own database, a copy of the migrated template there.
import fs from 'node:fs';
import type { Kysely } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from './testApp.js';

/** Every migration the server carries, by name (one file each in src/db/migrations). */
const MIGRATIONS = fs
  .readdirSync(new URL('../src/db/migrations/', import.meta.url))
  .filter((name) => name.endsWith('.ts'))
  .map((name) => name.slice(0, -'.ts'.length))
  .sort();

/**
 * Test apps start from one migrated database per process (SQLite: a serialized image; PostgreSQL:
 * a template): each must still be fully migrated and see only its own rows.
 */
describe('a test app database', () => {
  const apps: TestApp[] = [];
  afterAll(async () => {
    for (const app of apps) await app.close();
  });

  it('is migrated, seeded, and shares no rows with another app started from the same copy', async () => {
    const first = await buildTestApp();
    apps.push(first);
    const second = await buildTestApp();
    apps.push(second);
    for (const app of [first, second]) {
      const done = await (app.db as Kysely<any>).selectFrom('kysely_migration').select('name').execute();
      expect(done.map((row: { name: string }) => row.name).sort()).toEqual(MIGRATIONS);
    }
    await first.db
      .insertInto('organ')
      .values({ E_ID: first.demo.E_ID, OSName: 'only in the first', OSParentID: 0, U_TypeID: 0, PriorityLevel: 0 })
      .execute();
    const named = (app: TestApp) =>
      app.db.selectFrom('organ').select('OSID').where('OSName', '=', 'only in the first').execute();
    expect(await named(first)).toHaveLength(1);
    expect(await named(second)).toHaveLength(0);
  });
});
