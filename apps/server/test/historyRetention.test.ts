import { sql, type Kysely } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../src/db/database.js';
import {
  DAY_MS,
  createHistoryPartition,
  ensureHistoryPartitions,
  historyPartitionName,
  historyPartitions,
} from '../src/db/historyPartitions.js';
import { systemClock } from '../src/core/clock.js';
import { HistoryRetention, deleteExpiredHistory, historyRetentionDefaults } from '../src/db/historyRetention.js';
import type { DB } from '../src/db/schema.js';
import { fixesOf } from '../src/modules/gisLocation/trackRepository.js';
import { HistoryWriter, type HistoryRow } from '../src/terminals/historyWriter.js';
import { useTestApp } from './useTestApp.js';

// Location history retention and PostgreSQL's day partitions (issue 15), on the suite's database.
const t = useTestApp();
beforeAll(async () => {
  // The app's own first retention run (on the empty history) goes first, so it never takes a test's rows.
  await new Promise((resolve) => setTimeout(resolve, 100));
});

const postgres = Boolean(process.env.TEST_DATABASE_URL);
const today = () => Math.floor(Date.now() / DAY_MS);
let nextUser = 1_000;

function row(U_ID: number, H_Time: number): HistoryRow {
  return { E_ID: t.demo.E_ID, U_ID, H_Time, H_Type: 0, C_Longitude: 114, C_Latitude: 22.5 };
}

async function times(db: Kysely<DB>, U_ID: number): Promise<number[]> {
  const rows = await db.selectFrom('location_history').select('H_Time').where('U_ID', '=', U_ID).execute();
  return rows.map((r) => Number(r.H_Time)).sort((a, b) => a - b);
}

/** The partition each of the user's rows is stored in, by time. */
async function partitionsOf(U_ID: number): Promise<Record<number, string>> {
  const { rows } = await sql<{ t: string; p: string }>`
    select "H_Time" as t, tableoid::regclass::text as p from location_history where "U_ID" = ${U_ID}`.execute(t.db);
  return Object.fromEntries(rows.map((r) => [Number(r.t), r.p]));
}

function retention(retentionDays: number, batchRows = 1_000) {
  return new HistoryRetention(
    t.db,
    t.dialect,
    {
      ...historyRetentionDefaults,
      retentionDays,
      batchRows,
      pauseMs: 1,
      onRun: () => undefined,
      onError: (error) => {
        throw error;
      },
    },
    systemClock,
  );
}

describe('retention (both databases)', () => {
  it('removes fixes older than the retention and keeps every newer one', async () => {
    const U_ID = (nextUser += 1);
    const now = Date.now();
    const kept = [now - 179 * DAY_MS, now - DAY_MS, now];
    const expired = [Date.UTC(2000, 0, 1), now - 181 * DAY_MS, now - 400 * DAY_MS];
    if (postgres) await createHistoryPartition(t.db, Math.floor((now - 181 * DAY_MS) / DAY_MS));
    await t.db
      .insertInto('location_history')
      .values([...kept, ...expired].map((time) => row(U_ID, time)))
      .execute();
    const run = await retention(180).runOnce(now);
    expect(await times(t.db, U_ID)).toEqual(kept.sort((a, b) => a - b));
    if (postgres) expect(run.dropped).toContain(historyPartitionName(Math.floor((now - 181 * DAY_MS) / DAY_MS)));
    else expect(run.deleted).toBeGreaterThanOrEqual(expired.length);
  });
});

describe.runIf(!postgres)('SQLite retention', () => {
  it('deletes in batches of batchRows, oldest first, and stops between batches when told', async () => {
    const U_ID = (nextUser += 1);
    const old = Date.now() - 300 * DAY_MS;
    const rows = Array.from({ length: 2_500 }, (_, i) => row(U_ID, old + i));
    for (let i = 0; i < rows.length; i += 500) {
      await t.db
        .insertInto('location_history')
        .values(rows.slice(i, i + 500))
        .execute();
    }
    let batches = 0;
    const cutoff = Date.now() - 180 * DAY_MS;
    // Told to stop after the first batch: exactly one batch's rows are gone, the oldest.
    const first = await deleteExpiredHistory(t.db, cutoff, {
      batchRows: 1_000,
      pauseMs: 1,
      stopped: () => batches++ > 0,
    });
    expect(first).toBe(1_000);
    expect((await times(t.db, U_ID))[0]).toBe(old + 1_000);
    batches = 0;
    const rest = await deleteExpiredHistory(t.db, cutoff, { batchRows: 1_000, pauseMs: 1, stopped: () => !++batches });
    expect(rest).toBe(1_500);
    expect(batches).toBe(2);
    expect(await times(t.db, U_ID)).toEqual([]);
  });

  it('lets a history writer commit between two delete batches', async () => {
    const U_ID = (nextUser += 1);
    const old = Date.now() - 300 * DAY_MS;
    for (let i = 0; i < 20; i++) {
      await t.db
        .insertInto('location_history')
        .values(Array.from({ length: 500 }, (_, k) => row(U_ID, old + i * 500 + k)))
        .execute();
    }
    const writer = new HistoryWriter(t.db, { flushMs: 1, flushRows: 1, maxQueuedRows: 100, onError: () => undefined });
    let committedAfterBatches = -1;
    let batches = 0;
    const deleting = deleteExpiredHistory(t.db, Date.now() - 180 * DAY_MS, {
      batchRows: 1_000,
      pauseMs: 20,
      stopped: () => {
        batches += 1;
        return false;
      },
    });
    await writer.enqueue([row(U_ID, Date.now())])?.then(() => (committedAfterBatches = batches));
    expect(await deleting).toBe(10_000);
    await writer.close();
    // The fix was committed while the deletion still had batches to go.
    expect(committedAfterBatches).toBeGreaterThan(0);
    expect(committedAfterBatches).toBeLessThan(batches);
    expect(await times(t.db, U_ID)).toHaveLength(1);
  });
});

describe.runIf(postgres)('PostgreSQL day partitions', () => {
  it('has today and the next days partitioned once the server is ready, besides the default', async () => {
    const names = await historyPartitions(t.db);
    for (let day = today(); day <= today() + historyRetentionDefaults.daysAhead; day++) {
      expect(names).toContain(historyPartitionName(day));
    }
    expect(names).toContain('location_history_default');
  });

  it('stores fixes outside every day partition in the default one, without failing their batch', async () => {
    const U_ID = (nextUser += 1);
    const now = Date.now();
    // A day with no partition, inside the retention window: every PostgreSQL test file shares this
    // database, and any app starting elsewhere runs retention at once (a fix of 2000 went that way).
    const wrongClock = now - 30 * DAY_MS;
    const farAhead = now + 20 * DAY_MS;
    const writer = new HistoryWriter(t.db, { flushMs: 1, flushRows: 10, maxQueuedRows: 100, onError: () => undefined });
    await writer.enqueue([row(U_ID, now), row(U_ID, wrongClock), row(U_ID, farAhead)]);
    await writer.close();
    expect(await partitionsOf(U_ID)).toEqual({
      [now]: historyPartitionName(today()),
      [wrongClock]: 'location_history_default',
      [farAhead]: 'location_history_default',
    });
    // When that day's partition is made, its rows move out of the default partition into it.
    const created = await ensureHistoryPartitions(t.db, farAhead, 0);
    expect(created).toEqual([historyPartitionName(Math.floor(farAhead / DAY_MS))]);
    expect((await partitionsOf(U_ID))[farAhead]).toBe(created[0]);
    expect(await times(t.db, U_ID)).toEqual([wrongClock, now, farAhead]);
  });

  it('answers a Track range that spans day partitions and the default one, oldest first', async () => {
    const U_ID = (nextUser += 1);
    const midnight = today() * DAY_MS;
    // Yesterday has no partition (the default one holds it); today and tomorrow have theirs.
    const fixes = [midnight - 3_600_000, midnight - 1, midnight, midnight + 60_000, midnight + DAY_MS + 5];
    await t.db
      .insertInto('location_history')
      .values([...fixes].reverse().map((time) => row(U_ID, time)))
      .execute();
    const user = { E_ID: t.demo.E_ID, U_ID };
    const all = await fixesOf(t.db, user, { from: midnight - DAY_MS, to: midnight + 2 * DAY_MS });
    expect(all.map((f) => f.t)).toEqual(fixes);
    const todayOnly = await fixesOf(t.db, user, { from: midnight, to: midnight + DAY_MS - 1 });
    expect(todayOnly.map((f) => f.t)).toEqual([midnight, midnight + 60_000]);
  });

  it('creates each partition once when several instances maintain them at the same time', async () => {
    const instances = Array.from({ length: 3 }, () =>
      openDatabase({ databaseUrl: t.deps.config.databaseUrl, dataDir: t.deps.config.dataDir }),
    );
    try {
      const future = Date.now() + 40 * DAY_MS;
      const created = await Promise.all(instances.map((instance) => ensureHistoryPartitions(instance.db, future, 2)));
      expect(created.flat().sort()).toEqual(
        [0, 1, 2].map((k) => historyPartitionName(Math.floor(future / DAY_MS) + k)),
      );
    } finally {
      await Promise.all(instances.map((instance) => instance.close()));
    }
  });

  it('drops whole days past the retention and keeps the partitions of newer days', async () => {
    const day = today();
    for (const d of [day - 200, day - 182, day - 181, day - 180]) await createHistoryPartition(t.db, d);
    const run = await retention(180).runOnce();
    const names = await historyPartitions(t.db);
    const gone = [day - 200, day - 182, day - 181].map(historyPartitionName);
    expect(run.dropped).toEqual(expect.arrayContaining(gone));
    for (const name of gone) expect(names).not.toContain(name);
    // Day -180 may still hold rows younger than 180 days (the cutoff falls inside it): kept whole.
    expect(names).toContain(historyPartitionName(day - 180));
    expect(names).toContain(historyPartitionName(day));
  });
});
