// postgres: alarm rows, their states and paging through the API.
import type { Notification, NotifyRow } from '@intercom/contract';
import { describe, expect, it } from 'vitest';
import { insertNotification } from '../src/modules/notify/notifyRepository.js';
import { expectFailure } from './helper.js';
import { colleague, data, form, insertUsers, logged, org, rows, type Org } from './channelFixtures.js';
import { pushedDuring } from './live/pushedDuring.js';
import { useTestApp } from './useTestApp.js';

const t = useTestApp();

async function raise(who: Org, fields: Partial<Parameters<typeof insertNotification>[1]> = {}): Promise<Notification> {
  return insertNotification(t.db, {
    E_ID: who.E_ID,
    U_ID: null,
    Phone: '13800000000',
    NType: 'SOS',
    CreatedAt: Date.now(),
    ...fields,
  });
}

describe('insertNotification (for the real-time side)', () => {
  it('stores a new alarm and returns it in the hub shape; non-finite positions become null', async () => {
    const a = await org(t);
    const [user] = await insertUsers(t, a.E_ID, 1, { name: () => 'Driver 7' });
    const alarm = await raise(a, {
      U_ID: user!,
      NType: 'LowBattery',
      Content: 'battery 8%',
      Latitude: 31.2,
      Longitude: Number.NaN,
    });
    expect(alarm).toMatchObject({
      E_ID: a.E_ID,
      U_ID: user,
      NType: 'LowBattery',
      State: 'new',
      Latitude: 31.2,
      Longitude: null,
    });
    const list = rows<NotifyRow>(await a.api.get('/api/Notification/QueryData'));
    expect(list.rows).toEqual([
      expect.objectContaining({ N_ID: alarm.N_ID, UserName: 'Driver 7', State: 'new', AckName: '', Comment: '' }),
    ]);
  });
});

describe('acknowledge and resolve', () => {
  it('walks new -> acknowledged -> resolved with who, when and why, a log row per change and a hub push', async () => {
    const a = await org(t);
    const editor = await colleague(t, a, 'editor');
    const alarm = await raise(a);
    let acked: { changed: number; rows: NotifyRow[] } | undefined;
    let resolved: { rows: NotifyRow[] } | undefined;
    const seen = await pushedDuring(t.deps.realtime.live, async () => {
      acked = data<{ changed: number; rows: NotifyRow[] }>(
        await editor.api.post('/api/Notification/Acknowledge', form({ ids: alarm.N_ID, comment: 'calling him' })),
      );
      resolved = data<{ rows: NotifyRow[] }>(
        await a.api.postJson('/api/Notification/Resolve', { ids: [alarm.N_ID], comment: '误报 false alarm' }),
      );
    });
    if (!acked || !resolved) throw new Error('calls did not run');
    expect(acked.changed).toBe(1);
    expect(acked.rows[0]).toMatchObject({
      State: 'acknowledged',
      AckBy: editor.A_ID,
      AckName: editor.username,
      AckComment: 'calling him',
    });
    expect(acked.rows[0]?.AckAt).toBeGreaterThan(0);
    expect(resolved.rows[0]).toMatchObject({
      State: 'resolved',
      AckBy: editor.A_ID,
      HandledBy: a.A_ID,
      HandledName: a.username,
      Comment: '误报 false alarm',
    });
    const ack = await logged(t, a.E_ID, 'notify_acknowledge');
    const res = await logged(t, a.E_ID, 'notify_resolve');
    expect(ack.map((r) => [r.A_ID, JSON.parse(r.Summary)])).toEqual([
      [editor.A_ID, { N_ID: alarm.N_ID, State: ['new', 'acknowledged'], comment: 'calling him' }],
    ]);
    expect(res.map((r) => [r.A_ID, r.Target])).toEqual([[a.A_ID, 'SOS 13800000000']]);
    expect(seen.filter((n) => n.N_ID === alarm.N_ID).map((n) => n.State)).toEqual(['acknowledged', 'resolved']);
  });

  it('resolves a new alarm at once; needs a comment to resolve; the comment is at most 512 characters', async () => {
    const a = await org(t);
    const alarm = await raise(a);
    expectFailure(await a.api.post('/api/Notification/Resolve', form({ ids: alarm.N_ID })), 400, 4000);
    expectFailure(
      await a.api.post('/api/Notification/Resolve', form({ ids: alarm.N_ID, comment: '  ' })),
      400,
      4000,
      'validation.required',
    );
    expectFailure(
      await a.api.post('/api/Notification/Resolve', form({ ids: alarm.N_ID, comment: '长'.repeat(513) })),
      400,
      4000,
      'validation.too_long',
    );
    expect(
      data<{ rows: NotifyRow[] }>(
        await a.api.post('/api/Notification/Resolve', form({ ids: alarm.N_ID, comment: 'done' })),
      ).rows[0]?.State,
    ).toBe('resolved');
  });

  it('refuses a step from the wrong state (4009 notify.bad_state) and changes none of a batch', async () => {
    const a = await org(t);
    const fresh = await raise(a);
    const done = await raise(a);
    await a.api.post('/api/Notification/Resolve', form({ ids: done.N_ID, comment: 'ok' }));
    const res = await a.api.post('/api/Notification/Acknowledge', form({ ids: `${fresh.N_ID},${done.N_ID}` }));
    expect(expectFailure(res, 409, 4009, 'notify.bad_state').BaseResult.Params).toEqual({
      N_ID: done.N_ID,
      State: 'resolved',
    });
    expectFailure(
      await a.api.post('/api/Notification/Resolve', form({ ids: done.N_ID, comment: 'again' })),
      409,
      4009,
      'notify.bad_state',
    );
    const list = rows<NotifyRow>(
      await a.api.get(
        `/api/Notification/QueryData?jsonCondition=${encodeURIComponent(JSON.stringify({ N_ID: fresh.N_ID }))}`,
      ),
    );
    expect(list.rows[0]?.State).toBe('new');
    expect(await logged(t, a.E_ID, 'notify_acknowledge')).toHaveLength(0);
  });

  it("is 4004 for another enterprise's alarm (nothing changes) and for an unknown id", async () => {
    const a = await org(t);
    const b = await org(t);
    const theirs = await raise(b);
    const mine = await raise(a);
    expectFailure(
      await a.api.post('/api/Notification/Acknowledge', form({ ids: `${mine.N_ID},${theirs.N_ID}` })),
      404,
      4004,
    );
    expectFailure(await a.api.post('/api/Notification/Resolve', form({ ids: 99_999_999, comment: 'x' })), 404, 4004);
    expect(rows<NotifyRow>(await b.api.get('/api/Notification/QueryData')).rows[0]?.State).toBe('new');
    expect(rows<NotifyRow>(await a.api.get('/api/Notification/QueryData')).rows[0]?.State).toBe('new');
    expect(rows(await a.api.get('/api/Notification/QueryData')).total).toBe(1);
  });
});

describe('GET /api/Notification/QueryData and ExportData', () => {
  it('filters by type, state, time and search; exports CSV; every role reads', async () => {
    const a = await org(t);
    const [user] = await insertUsers(t, a.E_ID, 1, { name: () => '张三' });
    const base = Date.UTC(2026, 2, 1);
    await raise(a, { NType: 'SOS', U_ID: user!, CreatedAt: base });
    await raise(a, { NType: 'Offline', CreatedAt: base + 1000 });
    const hr = await raise(a, { NType: 'HeartRate', Content: 'bpm 180', CreatedAt: base + 2000 });
    await a.api.post('/api/Notification/Acknowledge', form({ ids: hr.N_ID }));
    const editor = await colleague(t, a, 'editor');
    const q = async (condition: object) =>
      rows<NotifyRow>(
        await editor.api.get(
          `/api/Notification/QueryData?jsonCondition=${encodeURIComponent(JSON.stringify(condition))}`,
        ),
      );
    expect((await q({})).rows.map((r) => r.NType)).toEqual(['HeartRate', 'Offline', 'SOS']);
    expect((await q({ State: 'acknowledged' })).rows.map((r) => r.N_ID)).toEqual([hr.N_ID]);
    expect((await q({ NType: { in: ['SOS', 'Offline'] } })).total).toBe(2);
    expect((await q({ CreatedAt: { between: [base, base + 1000] } })).total).toBe(2);
    expect((await q({ Search: '张' })).rows.map((r) => r.NType)).toEqual(['SOS']);
    expect((await q({ Search: 'bpm' })).rows.map((r) => r.NType)).toEqual(['HeartRate']);
    const csv = await editor.api.get('/api/Notification/ExportData');
    expect(csv.statusCode).toBe(200);
    expect(csv.body).toContain('张三');
    expect(csv.body.split('\r\n')).toHaveLength(5);
  });
});
