import type { SysLogRow } from '@intercom/contract';
import { describe, expect, it } from 'vitest';
import { insertUsers } from './channelFixtures.js';
import { authed, enterpriseWithAccount, expectSuccess, insertSysLog, loginAdmin, loginRaw } from './helper.js';
import { useTestApp } from './useTestApp.js';

const t = useTestApp();

/** Terminal users, organisation units, channels, memberships and recordings of one enterprise. */
async function populate(
  E_ID: number,
  counts: { users: number; organs: number; channels: number; memberships: number; recordings: number },
) {
  const now = Date.now();
  const userIds = await insertUsers(t, E_ID, counts.users);
  for (let i = 0; i < counts.organs; i++) {
    await t.db
      .insertInto('organ')
      .values({ E_ID, OSParentID: 0, OSName: `organ${i}`, U_TypeID: 0, PriorityLevel: 0 })
      .execute();
  }
  const channelIds: number[] = [];
  for (let i = 0; i < counts.channels; i++) {
    const row = await t.db
      .insertInto('channel')
      .values({
        E_ID,
        CName: `channel${i}`,
        CTypeID: 106,
        Note: '',
        Priority: 0,
        VideoEnable: 0,
        Record: 0,
        CreatedAt: now,
      })
      .returning('CID')
      .executeTakeFirstOrThrow();
    channelIds.push(row.CID);
  }
  let added = 0;
  for (const CID of channelIds) {
    for (const UserID of userIds) {
      if (added >= counts.memberships) break;
      await t.db.insertInto('channel_member').values({ CID, UserID, E_ID, Priority: 0 }).execute();
      added += 1;
    }
  }
  expect(added).toBe(counts.memberships);
  for (let i = 0; i < counts.recordings; i++) {
    await t.db
      .insertInto('recording')
      .values({
        E_ID,
        CID: channelIds[0] ?? null,
        U_ID: null,
        RType: 'audio',
        StartAt: now,
        Duration: 10,
        FilePath: `r${i}.opus`,
        Size: 100,
      })
      .execute();
  }
}

/** The statistics of an enterprise with nothing in it and no quota: each test names what differs. */
const NOTHING = { User: 0, Organ: 0, Channel: 0, Balance: 0, ChannelSum: 0, RecordSum: 0, Online: 0, Enterprise: 1 };

async function statisticsOf(token: string) {
  return expectSuccess(await authed(t.app, token).get('/api/Enterprise/Statistics')).BaseData;
}

async function sysLogRows(token: string, params: Record<string, string> = {}) {
  const body = expectSuccess(
    await authed(t.app, token).get(`/api/SysLog/QueryData?${new URLSearchParams({ pageSize: '500', ...params })}`),
  );
  return { rows: body.Data as SysLogRow[], total: body.Total };
}

describe('Statistics', () => {
  it('counts exactly the rows of the caller scope; Balance is quota minus users', async () => {
    const a = await enterpriseWithAccount(t, { quota: 50 });
    await populate(a.E_ID, { users: 3, organs: 2, channels: 2, memberships: 5, recordings: 4 });
    expect(await statisticsOf(a.token)).toEqual({
      ...NOTHING,
      User: 3,
      Organ: 2,
      Channel: 2,
      Balance: 47,
      ChannelSum: 5,
      RecordSum: 4,
    });
  });

  it('counts zero for an empty enterprise, with the whole quota left', async () => {
    const a = await enterpriseWithAccount(t, { quota: 7 });
    expect(await statisticsOf(a.token)).toEqual({ ...NOTHING, Balance: 7 });
  });

  it('never counts a negative balance when users exceed the quota', async () => {
    const a = await enterpriseWithAccount(t, { quota: 1 });
    await populate(a.E_ID, { users: 3, organs: 0, channels: 0, memberships: 0, recordings: 0 });
    expect(await statisticsOf(a.token)).toMatchObject({ User: 3, Balance: 0 });
  });

  it('gives an admin of enterprise B nothing of enterprise A', async () => {
    const a = await enterpriseWithAccount(t, { quota: 20 });
    const b = await enterpriseWithAccount(t, { quota: 10 });
    await populate(a.E_ID, { users: 4, organs: 3, channels: 2, memberships: 2, recordings: 2 });
    await populate(b.E_ID, { users: 1, organs: 0, channels: 1, memberships: 1, recordings: 0 });
    expect(await statisticsOf(b.token)).toEqual({ ...NOTHING, User: 1, Channel: 1, Balance: 9, ChannelSum: 1 });
    expect(await statisticsOf(a.token)).toMatchObject({ User: 4, Organ: 3, Channel: 2, Balance: 16 });
  });

  it('sums a parent enterprise and its sub-enterprises, not the other way round', async () => {
    const parent = await enterpriseWithAccount(t, { quota: 100 });
    const child = await enterpriseWithAccount(t, { quota: 10, parentId: parent.E_ID });
    const grandchild = await enterpriseWithAccount(t, { quota: 5, parentId: child.E_ID });
    await populate(parent.E_ID, { users: 2, organs: 1, channels: 1, memberships: 1, recordings: 0 });
    await populate(child.E_ID, { users: 3, organs: 2, channels: 1, memberships: 3, recordings: 1 });
    await populate(grandchild.E_ID, { users: 1, organs: 0, channels: 0, memberships: 0, recordings: 2 });
    expect(await statisticsOf(parent.token)).toEqual({
      ...NOTHING,
      User: 6,
      Organ: 3,
      Channel: 2,
      Balance: 98 + 7 + 4,
      ChannelSum: 4,
      RecordSum: 3,
      Enterprise: 3,
    });
    expect(await statisticsOf(child.token)).toEqual({
      ...NOTHING,
      User: 4,
      Organ: 2,
      Channel: 1,
      Balance: 7 + 4,
      ChannelSum: 3,
      RecordSum: 3,
      Enterprise: 2,
    });
  });

  it('lets an editor read the statistics of its scope', async () => {
    const e = await enterpriseWithAccount(t, { role: 'editor', quota: 3 });
    expect(await statisticsOf(e.token)).toMatchObject({ User: 0, Balance: 3, Enterprise: 1 });
  });
});

describe('SysLog scope', () => {
  it('gives an admin of enterprise B no row of enterprise A, whatever the filter', async () => {
    const a = await enterpriseWithAccount(t);
    const b = await enterpriseWithAccount(t);
    const aRow = await insertSysLog(t.db, { E_ID: a.E_ID, Operator: 'secret-of-a', Action: 'test' });
    await insertSysLog(t.db, { E_ID: b.E_ID, Operator: 'row-of-b', Action: 'test' });

    const all = await sysLogRows(b.token);
    expect(all.rows.length).toBeGreaterThan(0);
    expect(all.rows.every((r) => r.E_ID === b.E_ID)).toBe(true);
    expect(all.total).toBe(all.rows.length);
    expect(all.rows.map((r) => r.Operator)).not.toContain('secret-of-a');

    for (const filter of [
      { E_ID: a.E_ID },
      { L_ID: aRow },
      { Operator: 'secret-of-a' },
      { E_ID: { in: [a.E_ID, b.E_ID] } },
    ]) {
      const res = await sysLogRows(b.token, { jsonCondition: JSON.stringify(filter) });
      expect(
        res.rows.every((r) => r.E_ID === b.E_ID),
        JSON.stringify(filter),
      ).toBe(true);
      expect(res.rows.map((r) => r.L_ID)).not.toContain(aRow);
    }

    const csv = await authed(t.app, b.token).get('/api/SysLog/ExportData');
    expect(csv.statusCode).toBe(200);
    expect(csv.body).not.toContain('secret-of-a');
    expect(csv.body).toContain('row-of-b');
  });

  it('shows an admin of a parent enterprise the rows of its sub-enterprises, and not the reverse', async () => {
    const parent = await enterpriseWithAccount(t);
    const child = await enterpriseWithAccount(t, { parentId: parent.E_ID });
    await insertSysLog(t.db, { E_ID: parent.E_ID, Operator: 'parent-row', Action: 'test' });
    await insertSysLog(t.db, { E_ID: child.E_ID, Operator: 'child-row', Action: 'test' });

    const seenByParent = await sysLogRows(parent.token, { jsonCondition: JSON.stringify({ Action: 'test' }) });
    expect(seenByParent.rows.map((r) => r.Operator).sort()).toEqual(['child-row', 'parent-row']);
    const seenByChild = await sysLogRows(child.token, { jsonCondition: JSON.stringify({ Action: 'test' }) });
    expect(seenByChild.rows.map((r) => r.Operator)).toEqual(['child-row']);

    const info = expectSuccess(await authed(t.app, parent.token).get('/api/Account/LoginInfo'));
    expect(info.BaseData).toMatchObject({ E_ID: parent.E_ID, HasChildren: true });
    const childInfo = expectSuccess(await authed(t.app, child.token).get('/api/Account/LoginInfo'));
    expect(childInfo.BaseData).toMatchObject({ E_ID: child.E_ID, HasChildren: false });
  });
});

describe('ids of another enterprise', () => {
  it('answer 4004 exactly like an id that does not exist, and nothing is deleted', async () => {
    const a = await enterpriseWithAccount(t);
    const b = await enterpriseWithAccount(t);
    const organ = await t.db
      .insertInto('organ')
      .values({ E_ID: a.E_ID, OSParentID: 0, OSName: 'dispatch', U_TypeID: 0, PriorityLevel: 0 })
      .returning('OSID')
      .executeTakeFirstOrThrow();
    const urls = [
      `/api/Enterprise/Entitys/${a.E_ID}`,
      `/api/Account/Entitys/${a.A_ID}`,
      `/api/Organ/Entitys/${organ.OSID}`,
    ];
    const missing = await authed(t.app, b.token).get('/api/Organ/Entitys/2000000000');
    expect(missing.statusCode).toBe(404);
    for (const url of urls) {
      // The owner sees it, so the 4004 below is about scope, not about a broken route.
      expect((await authed(t.app, a.token).get(url)).statusCode, url).toBe(200);
      const res = await authed(t.app, b.token).get(url);
      expect(res.statusCode, url).toBe(404);
      expect(res.json(), url).toEqual(missing.json());
    }
    const deleteOrgan = await authed(t.app, b.token).delete(`/api/Organ/Delete/${organ.OSID}`);
    expect(deleteOrgan.statusCode).toBe(404);
    expect(deleteOrgan.json()).toEqual(missing.json());
    const deleteAccount = await authed(t.app, b.token).delete(`/api/Account/Delete/${a.A_ID}`);
    expect(deleteAccount.statusCode).toBe(404);
    expect(await t.db.selectFrom('organ').select('OSID').where('OSID', '=', organ.OSID).executeTakeFirst()).toEqual({
      OSID: organ.OSID,
    });
    expect(await t.db.selectFrom('account').select('A_ID').where('A_ID', '=', a.A_ID).executeTakeFirst()).toEqual({
      A_ID: a.A_ID,
    });
  });

  it('of a sub-enterprise are visible to the parent admin, not the reverse', async () => {
    const parent = await enterpriseWithAccount(t);
    const child = await enterpriseWithAccount(t, { parentId: parent.E_ID });
    expect((await authed(t.app, parent.token).get(`/api/Enterprise/Entitys/${child.E_ID}`)).statusCode).toBe(200);
    expect((await authed(t.app, parent.token).get(`/api/Account/Entitys/${child.A_ID}`)).statusCode).toBe(200);
    expect((await authed(t.app, child.token).get(`/api/Enterprise/Entitys/${parent.E_ID}`)).statusCode).toBe(404);
    expect((await authed(t.app, child.token).get(`/api/Account/Entitys/${parent.A_ID}`)).statusCode).toBe(404);
  });
});

describe('audit trail', () => {
  it('logs every login, failed login, config change and logout, readable through SysLog/QueryData', async () => {
    const a = await enterpriseWithAccount(t);
    const api = authed(t.app, a.token);
    await loginRaw(t.app, { username: a.username, password: 'Wrong#2026pw', code: a.code });
    const token = (await loginRaw(t.app, { username: a.username, password: a.password, code: a.code })).json<{
      access_token: string;
    }>().access_token;
    expectSuccess(
      await authed(t.app, token).post('/api/Account/ModifyConfig', { scCode: 'DefaultMap', scValue: 'OSM' }),
    );
    expectSuccess(await authed(t.app, token).post('/api/Account/Logout'));
    // The first session was replaced by the second login; its token no longer reads the log.
    expect((await api.get('/api/SysLog/QueryData')).statusCode).toBe(401);

    const reader = await loginRaw(t.app, { username: a.username, password: a.password, code: a.code });
    const readerToken = reader.json<{ access_token: string }>().access_token;
    const { rows } = await sysLogRows(readerToken, {
      jsonCondition: JSON.stringify({ E_ID: a.E_ID }),
      orderField: 'L_ID',
      desc: 'false',
    });
    expect(rows.map((r) => r.Action)).toEqual(['login', 'login_failed', 'login', 'modify_config', 'logout', 'login']);
    expect(rows.every((r) => r.Operator === a.username)).toBe(true);
    const change = rows.find((r) => r.Action === 'modify_config');
    expect(change?.Target).toBe('DefaultMap');
    expect(JSON.parse(change?.Summary ?? '{}')).toEqual({ before: 'OFFLINE', after: 'OSM' });
  });

  it('logs the DEMO admin login under the DEMO enterprise', async () => {
    await loginAdmin(t);
    const rows = await t.db
      .selectFrom('sys_log')
      .selectAll()
      .where('E_ID', '=', t.demo.E_ID)
      .where('Action', '=', 'login')
      .execute();
    expect(rows.length).toBeGreaterThan(0);
    expect(rows[0]).toMatchObject({ A_ID: t.demo.A_ID, Operator: 'admin' });
  });
});
