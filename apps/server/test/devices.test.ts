import type { DeviceRow } from '@intercom/contract';
import { describe, expect, it } from 'vitest';
import { expectFailure, expectSuccess } from './helper.js';
import { saveChannel } from './channelFixtures.js';
import { addOrgan, addUser, body, countRows, expectLogged, tenant, uniqueIccid } from './directoryFixtures.js';
import { useTestApp } from './useTestApp.js';

const t = useTestApp();

/** The inventory record of an ICCID (a user's ICCID has one). */
const deviceOf = (ICCID: string) =>
  t.db.selectFrom('device').select('D_ID').where('ICCID', '=', ICCID).executeTakeFirstOrThrow();

describe('POST /api/Device/Save', () => {
  it('creates an inventory record with every field from a form, logged', async () => {
    const a = await tenant(t);
    const dept = await addOrgan(a.api, { OSName: 'Store' });
    const iccid = uniqueIccid(20);
    const device = body<DeviceRow>(
      await a.api.post('/api/Device/Save', {
        E_ID: String(a.E_ID),
        DeviceCode: 'IMEI-1',
        ICCID: iccid,
        NickName: 'Radio 1',
        Priority: '3',
        OSID: String(dept),
        UType: '0',
        Remark: 'spare',
      }),
    );
    expect(device).toMatchObject({
      E_ID: a.E_ID,
      DeviceCode: 'IMEI-1',
      ICCID: iccid,
      NickName: 'Radio 1',
      Priority: 3,
      OSID: dept,
      OSName: 'Store',
      Remark: 'spare',
      UserID: null,
      UserName: null,
    });
    await expectLogged(t, a.E_ID, 'device_create', iccid);
  });

  it('requires a valid, unused ICCID (4000 at 18 and 21 characters, 4009 when taken)', async () => {
    const a = await tenant(t);
    const b = await tenant(t);
    expectFailure(await a.api.post('/api/Device/Save', { NickName: 'x' }), 400, 4000, 'validation.required');
    expectFailure(await a.api.post('/api/Device/Save', { ICCID: '8'.repeat(18) }), 400, 4000, 'user.iccid_length');
    expectFailure(await a.api.post('/api/Device/Save', { ICCID: '8'.repeat(21) }), 400, 4000, 'user.iccid_length');
    const theirs = uniqueIccid();
    expectSuccess(await b.api.post('/api/Device/Save', { ICCID: theirs }));
    expectFailure(await a.api.post('/api/Device/Save', { ICCID: theirs }), 409, 4009, 'user.iccid_exists');
    expectFailure(await a.api.post('/api/Device/Save', { ICCID: uniqueIccid(), Priority: '8' }), 400, 4000);
    expect(await countRows(t, 'device', a.E_ID)).toBe(0);
  });

  it('edits a record; a new ICCID on a mapped record moves the user’s ICCID with it', async () => {
    const a = await tenant(t);
    const user = await addUser(a.api, { ICCID: uniqueIccid() });
    const record = await deviceOf(user.ICCID as string);
    const next = uniqueIccid(20);
    const edited = body<DeviceRow>(
      await a.api.postJson('/api/Device/Save', { D_ID: record.D_ID, ICCID: next, NickName: 'Moved' }),
    );
    expect(edited).toMatchObject({
      ICCID: next,
      NickName: 'Moved',
      UserID: user.UserID,
      MobilePhone: user.MobilePhone,
    });
    const row = await t.db
      .selectFrom('terminal_user')
      .select('ICCID')
      .where('UserID', '=', user.UserID)
      .executeTakeFirstOrThrow();
    expect(row.ICCID).toBe(next);
    const log = await expectLogged(t, a.E_ID, 'device_update', user.ICCID as string);
    expect(JSON.parse(log.Summary)).toEqual({ ICCID: [user.ICCID, next], NickName: ['', 'Moved'] });
  });

  it('answers 4004 for a record or department outside the scope', async () => {
    const a = await tenant(t);
    const b = await tenant(t);
    const theirs = body<DeviceRow>(await b.api.post('/api/Device/Save', { ICCID: uniqueIccid() }));
    expectFailure(await a.api.post('/api/Device/Save', { D_ID: String(theirs.D_ID), NickName: 'Mine' }), 404, 4004);
    expectFailure(
      await a.api.post('/api/Device/Save', { ICCID: uniqueIccid(), OSID: String(await addOrgan(b.api)) }),
      404,
      4004,
    );
    expectFailure(await a.api.get(`/api/Device/Entitys/${theirs.D_ID}`), 404, 4004);
    expectFailure(await a.api.delete(`/api/Device/Delete/${theirs.D_ID}`), 404, 4004);
    expect(await countRows(t, 'device', b.E_ID)).toBe(1);
  });
});

describe('device lists', () => {
  it('QueryDeviceData and Device/QueryData list the inventory with users; Search and Mapped filter it', async () => {
    const a = await tenant(t);
    const user = await addUser(a.api, { UserName: 'Holder', ICCID: uniqueIccid() });
    const free = uniqueIccid();
    expectSuccess(await a.api.post('/api/Device/Save', { ICCID: free, NickName: 'Spare radio' }));
    const all = expectSuccess(await a.api.get('/api/UserInfo/QueryDeviceData?pageIndex=0&pageSize=10'));
    expect(all.Total).toBe(2);
    expect((all.Data as DeviceRow[]).map((d) => [d.ICCID, d.UserName, d.MobilePhone])).toEqual([
      [user.ICCID, 'Holder', user.MobilePhone],
      [free, null, null],
    ]);
    const q = (c: object) => `jsonCondition=${encodeURIComponent(JSON.stringify(c))}`;
    const unmapped = expectSuccess(await a.api.get(`/api/Device/QueryData?${q({ Mapped: 0 })}`));
    expect((unmapped.Data as DeviceRow[]).map((d) => d.ICCID)).toEqual([free]);
    const mapped = expectSuccess(await a.api.get(`/api/UserInfo/QueryDeviceData?${q({ Mapped: 1 })}`));
    expect((mapped.Data as DeviceRow[]).map((d) => d.ICCID)).toEqual([user.ICCID]);
    const search = expectSuccess(await a.api.get(`/api/UserInfo/QueryDeviceData?${q({ Search: 'spare' })}`));
    expect((search.Data as DeviceRow[]).map((d) => d.ICCID)).toEqual([free]);
    const byPhone = expectSuccess(await a.api.get(`/api/UserInfo/QueryDeviceData?${q({ Search: user.MobilePhone })}`));
    expect(byPhone.Total).toBe(1);
    expectFailure(await a.api.get(`/api/UserInfo/QueryDeviceData?${q({ Mapped: 2 })}`), 400, 4000);
  });

  it('rows and the record carry rids: the channels of the device’s user, read from the memberships', async () => {
    const a = await tenant(t);
    const user = await addUser(a.api, { UserName: 'Member', ICCID: uniqueIccid() });
    const other = await addUser(a.api, { UserName: 'Outsider', ICCID: uniqueIccid() });
    const free = uniqueIccid();
    expectSuccess(await a.api.post('/api/Device/Save', { ICCID: free }));
    const first = await saveChannel(a.api, { cname: 'Dock' });
    const second = await saveChannel(a.api, { cname: 'Gate' });
    await t.db
      .insertInto('channel_member')
      .values([first, second].map((c) => ({ CID: c.CID, UserID: user.UserID, E_ID: a.E_ID, Priority: 0 })))
      .execute();

    const list = expectSuccess(await a.api.get('/api/UserInfo/QueryDeviceData?pageIndex=0&pageSize=10'));
    const byIccid = new Map((list.Data as DeviceRow[]).map((d) => [d.ICCID, d]));
    expect(byIccid.get(user.ICCID as string)).toMatchObject({
      rids: [first.CID, second.CID],
      ChannelNames: ['Dock', 'Gate'],
    });
    expect(byIccid.get(other.ICCID as string)).toMatchObject({ rids: [], ChannelNames: [] });
    expect(byIccid.get(free)).toMatchObject({ rids: [], ChannelNames: [] });
    const generic = expectSuccess(await a.api.get('/api/Device/QueryData?pageIndex=0&pageSize=10'));
    expect((generic.Data as DeviceRow[]).find((d) => d.UserID === user.UserID)?.rids).toEqual([first.CID, second.CID]);

    const record = await deviceOf(user.ICCID as string);
    expect(body<DeviceRow>(await a.api.get(`/api/Device/Entitys/${record.D_ID}`)).rids).toEqual([
      first.CID,
      second.CID,
    ]);
    // Read-only: a Save with rids neither fails nor changes the memberships.
    const saved = body<DeviceRow>(
      await a.api.post('/api/Device/Save', { D_ID: String(record.D_ID), NickName: 'R1', rids: '[999]' }),
    );
    expect(saved.rids).toEqual([first.CID, second.CID]);
  });

  it('exports the inventory as CSV', async () => {
    const a = await tenant(t);
    const iccid = uniqueIccid();
    expectSuccess(await a.api.post('/api/Device/Save', { ICCID: iccid }));
    const res = await a.api.get('/api/Device/ExportData');
    expect(res.statusCode).toBe(200);
    const lines = res.body.split('\r\n').filter(Boolean);
    expect(lines[0]?.startsWith('\uFEFFD_ID,E_ID,DeviceCode,ICCID')).toBe(true);
    expect(lines[1]).toContain(iccid);
    expect(lines).toHaveLength(2);
  });

  it('GET /api/Device/Entitys/{id} and Delete: deleting a mapped record clears the user’s ICCID', async () => {
    const a = await tenant(t);
    const user = await addUser(a.api, { ICCID: uniqueIccid() });
    const record = await deviceOf(user.ICCID as string);
    expect(body<DeviceRow>(await a.api.get(`/api/Device/Entitys/${record.D_ID}`)).UserID).toBe(user.UserID);
    expectSuccess(await a.api.delete(`/api/Device/Delete/${record.D_ID}`));
    const row = await t.db
      .selectFrom('terminal_user')
      .select('ICCID')
      .where('UserID', '=', user.UserID)
      .executeTakeFirstOrThrow();
    expect(row.ICCID).toBeNull();
    await expectLogged(t, a.E_ID, 'device_delete', user.ICCID as string);
  });
});
