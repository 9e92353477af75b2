// postgres: import jobs' rows through the API.
import { randomUUID } from 'node:crypto';
import type { UserImportProgress } from '@intercom/contract';
import { describe, expect, it } from 'vitest';
import { InProcessEventBus, type RealtimeEvent } from '../src/bus/eventBus.js';
import { connectRedisEventBus } from '../src/bus/redisEventBus.js';
import { ImportProgressBoard } from '../src/modules/userinfo/importProgress.js';
import { accountSession, authed, expectFailure } from './helper.js';
import { body, countRows, tenant, uniquePhone } from './directoryFixtures.js';
import { csv, report, upload } from './userImportFixtures.js';
import { useTestApp } from './useTestApp.js';

const t = useTestApp();

type Api = Awaited<ReturnType<typeof tenant>>['api'];

async function progressOf(api: Api, importId: string): Promise<UserImportProgress> {
  return body<UserImportProgress>(await api.get(`/api/UserInfo/ImportProgress?importId=${importId}`));
}

/** The progress events the imports publish on the bus while `work` runs. */
async function heard(work: () => Promise<unknown>): Promise<Extract<RealtimeEvent, { kind: 'importProgress' }>[]> {
  const events: Extract<RealtimeEvent, { kind: 'importProgress' }>[] = [];
  const stop = t.app.deps.realtime.bus.subscribe((event) => {
    if (event.kind === 'importProgress') events.push(event);
  });
  try {
    await work();
  } finally {
    stop();
  }
  return events;
}

const rows = (count: number, password?: string) =>
  Array.from({ length: count }, () => {
    const phone = uniquePhone();
    return { UserName: `p ${phone}`, MobilePhone: phone, Password: password ?? '' };
  });

describe('GET /api/UserInfo/ImportProgress', () => {
  it('tells the stages of an import: checking, hashing the new passwords, writing the rows, done', async () => {
    const a = await tenant(t);
    const file = csv([...rows(3, 'term-123'), ...rows(2)]);
    expect(await progressOf(a.api, 'import-one-0001')).toEqual({ phase: 'pending', done: 0, total: 0 });
    const events = await heard(async () => {
      expect(report(await upload(a.api, file, 'importId=import-one-0001'))).toMatchObject({ created: 5 });
    });
    const phases = events.map((event) => event.phase);
    // In order, each stage once it began; within a stage `done` never goes back.
    expect([...new Set(phases)]).toEqual(['check', 'hash', 'write', 'done']);
    for (let i = 1; i < events.length; i++) {
      const [before, now] = [events[i - 1]!, events[i]!];
      if (before.phase === now.phase) expect(now.done).toBeGreaterThanOrEqual(before.done);
    }
    // One shared password and two generated ones: three hashes; five rows written.
    expect(events.filter((event) => event.phase === 'hash').at(-1)).toMatchObject({ done: 3, total: 3 });
    expect(events.filter((event) => event.phase === 'write').at(-1)).toMatchObject({ done: 5, total: 5 });
    expect(events.every((event) => event.E_ID === a.E_ID && event.A_ID === a.A_ID)).toBe(true);
    expect(await progressOf(a.api, 'import-one-0001')).toEqual({ phase: 'done', done: 5, total: 5 });
  });

  it('a dry run checks and is done without hashing or writing', async () => {
    const a = await tenant(t);
    const events = await heard(async () => {
      report(await upload(a.api, csv(rows(4, 'term-123')), 'dryRun=true&importId=dry-run-0001'));
    });
    expect([...new Set(events.map((event) => event.phase))]).toEqual(['check', 'done']);
    expect(await progressOf(a.api, 'dry-run-0001')).toEqual({ phase: 'done', done: 4, total: 4 });
    expect(await countRows(t, 'terminal_user', a.E_ID)).toBe(0);
  });

  it('a refused file is failed; an import is known to its own account only', async () => {
    const a = await tenant(t);
    expectFailure(await upload(a.api, 'MobilePhone\r\n', 'importId=refused-0001'), 400, 4000);
    expect(await progressOf(a.api, 'refused-0001')).toEqual({ phase: 'failed', done: 0, total: 0 });

    report(await upload(a.api, csv(rows(1, 'term-123')), 'importId=mine-00001'));
    const colleague = await accountSession(t, a, 'admin');
    const b = await tenant(t);
    for (const other of [authed(t.app, colleague.token), b.api]) {
      expect(await progressOf(other, 'mine-00001')).toEqual({ phase: 'pending', done: 0, total: 0 });
    }
  });

  it('a bad importId is refused by both calls, and the import writes nothing', async () => {
    const a = await tenant(t);
    for (const bad of ['short', 'x'.repeat(65), 'has%20space1', 'semi%3Bcolon1', '%2F..%2Fetc%2Fpass']) {
      expectFailure(await a.api.get(`/api/UserInfo/ImportProgress?importId=${bad}`), 400, 4000);
      expectFailure(await upload(a.api, csv(rows(1, 'term-123')), `importId=${bad}`), 400, 4000);
    }
    expectFailure(await a.api.get('/api/UserInfo/ImportProgress'), 400, 4000);
    expect(await countRows(t, 'terminal_user', a.E_ID)).toBe(0);
  });
});

describe('ImportProgressBoard', () => {
  it('publishes a new stage at once, progress within a stage at most every 250 ms, the end of a stage always', () => {
    let now = 1_000;
    const bus = new InProcessEventBus(() => undefined);
    const published: string[] = [];
    bus.subscribe((event) => {
      if (event.kind === 'importProgress') published.push(`${event.phase} ${event.done}/${event.total}`);
    });
    const board = new ImportProgressBoard(bus, () => now);
    const report = board.reporter(1, 2, 'board-0001');
    report('write', 0, 3000);
    report('write', 1000, 3000); // 0 ms later: held back
    now += 100;
    report('write', 2000, 3000); // 100 ms: held back
    now += 200;
    report('write', 2500, 3000); // 300 ms after the last published: goes
    report('write', 3000, 3000); // the stage's end: goes at once
    report('done', 3000, 3000);
    expect(published).toEqual(['write 0/3000', 'write 2500/3000', 'write 3000/3000', 'done 3000/3000']);
    expect(board.progress(1, 2, 'board-0001')).toEqual({ phase: 'done', done: 3000, total: 3000 });
    // Without an id nothing is published; after 10 minutes the import is forgotten.
    board.reporter(1, 2, undefined)('check', 0, 0);
    expect(published).toHaveLength(4);
    now += 10 * 60_000 + 1;
    expect(board.progress(1, 2, 'board-0001')).toEqual({ phase: 'pending', done: 0, total: 0 });
    board.close();
  });

  it('across instances (Redis): a poll answered by another instance than the importing one', async () => {
    const channel = `intercom:test:${randomUUID()}`;
    const url = process.env.REDIS_URL_TEST ?? 'redis://127.0.0.1:6379';
    const a = await connectRedisEventBus(url, () => undefined, channel);
    const b = await connectRedisEventBus(url, () => undefined, channel);
    const [onA, onB] = [new ImportProgressBoard(a), new ImportProgressBoard(b)];
    try {
      onA.reporter(5, 6, 'across-0001')('hash', 1, 2);
      await expect.poll(() => onB.progress(5, 6, 'across-0001')).toEqual({ phase: 'hash', done: 1, total: 2 });
      expect(onB.progress(5, 7, 'across-0001').phase).toBe('pending');
    } finally {
      onA.close();
      onB.close();
      await Promise.all([a.close(), b.close()]);
    }
  });
});
