import type { UserRow, MapResult } from '@intercom/contract';
import { describe, expect, it } from 'vitest';
import type { TerminalSessionEnd } from '../src/core/terminalEvents.js';
import { expectFailure, expectSuccess } from './helper.js';
import { addOrgan, addUser, body, expectLogged, tenant, uniqueIccid, type Api } from './directoryFixtures.js';
import { useTestApp } from './useTestApp.js';

const t = useTestApp();

async function iccidOf(api: Api, userId: number): Promise<string | null> {
  return body<UserRow>(await api.get(`/api/UserInfo/Entitys/${userId}`)).ICCID;
}

async function holder(iccid: string): Promise<{ E_ID: number; UserID: number | null } | undefined> {
  return t.db.selectFrom('device').select(['E_ID', 'UserID']).where('ICCID', '=', iccid).executeTakeFirst();
}

describe('POST /api/UserInfo/MapICCID', () => {
  it('maps an inventory ICCID onto a user (by UserID or phone); the previous SIM returns to stock', async () => {
    const a = await tenant(t);
    const user = await addUser(a.api);
    const [first, second] = [uniqueIccid(), uniqueIccid(20)];
    expectSuccess(await a.api.post('/api/Device/Save', { ICCID: first }));
    const res = body<MapResult>(
      await a.api.post('/api/UserInfo/MapICCID', { ICCID: first, UserID: String(user.UserID) }),
    );
    expect(res.pairs).toEqual([
      { ICCID: first, UserID: user.UserID, UserName: user.UserName, MobilePhone: user.MobilePhone },
    ]);
    expect(await holder(first)).toEqual({ E_ID: a.E_ID, UserID: user.UserID });
    await expectLogged(t, a.E_ID, 'iccid_map', first);
    // A new ICCID (not in stock yet) by phone: it is added to the inventory.
    body(
      await a.api.postJson('/api/UserInfo/MapICCID', { ICCID: second.toLowerCase(), MobilePhone: user.MobilePhone }),
    );
    expect(await iccidOf(a.api, user.UserID)).toBe(second);
    expect(await holder(first)).toEqual({ E_ID: a.E_ID, UserID: null });
    expect(await holder(second)).toEqual({ E_ID: a.E_ID, UserID: user.UserID });
  });

  it('refuses an ICCID mapped to someone else or in another enterprise (4009), a user outside the scope (4004)', async () => {
    const a = await tenant(t);
    const b = await tenant(t);
    const mine = await addUser(a.api);
    const taken = await addUser(a.api, { ICCID: uniqueIccid() });
    expectFailure(
      await a.api.post('/api/UserInfo/MapICCID', { ICCID: taken.ICCID as string, UserID: String(mine.UserID) }),
      409,
      4009,
      'user.iccid_exists',
    );
    const theirStock = uniqueIccid();
    expectSuccess(await b.api.post('/api/Device/Save', { ICCID: theirStock }));
    expectFailure(
      await a.api.post('/api/UserInfo/MapICCID', { ICCID: theirStock, UserID: String(mine.UserID) }),
      409,
      4009,
      'user.iccid_exists',
    );
    const theirs = await addUser(b.api);
    expectFailure(
      await a.api.post('/api/UserInfo/MapICCID', { ICCID: uniqueIccid(), UserID: String(theirs.UserID) }),
      404,
      4004,
    );
    expectFailure(
      await a.api.post('/api/UserInfo/MapICCID', { ICCID: uniqueIccid(), MobilePhone: theirs.MobilePhone }),
      404,
      4004,
    );
    expectFailure(
      await a.api.post('/api/UserInfo/MapICCID', {
        ICCID: uniqueIccid(),
        UserID: String(mine.UserID),
        MobilePhone: taken.MobilePhone,
      }),
      404,
      4004,
    );
    expect(await iccidOf(a.api, mine.UserID)).toBeNull();
    expect(await holder(theirStock)).toEqual({ E_ID: b.E_ID, UserID: null });
  });

  it.each([
    [{ ICCID: '8'.repeat(18), UserID: '1' }, 'user.iccid_length'],
    [{ ICCID: '8'.repeat(21), UserID: '1' }, 'user.iccid_length'],
    [{ ICCID: '8'.repeat(19) }, 'validation.required'],
  ])('refuses %j with 4000 %s', async (form, key) => {
    const a = await tenant(t);
    expectFailure(await a.api.post('/api/UserInfo/MapICCID', form), 400, 4000, key);
  });
});

describe('POST /api/UserInfo/FastMapICCID', () => {
  it('maps the list in order onto the users without a SIM, oldest first, skipping mapped ones', async () => {
    const a = await tenant(t);
    const u1 = await addUser(a.api);
    const mapped = await addUser(a.api, { ICCID: uniqueIccid() });
    const u3 = await addUser(a.api);
    const u4 = await addUser(a.api);
    const list = [uniqueIccid(), uniqueIccid(20), uniqueIccid()];
    expectSuccess(await a.api.post('/api/Device/Save', { ICCID: list[1] as string }));
    const res = body<MapResult>(
      await a.api.post('/api/UserInfo/FastMapICCID', { ICCIDs: `${list[0]}\r\n${list[1]}, ${list[2]}` }),
    );
    expect(res.pairs.map((p) => [p.ICCID, p.UserID])).toEqual([
      [list[0], u1.UserID],
      [list[1], u3.UserID],
      [list[2], u4.UserID],
    ]);
    expect(await iccidOf(a.api, mapped.UserID)).toBe(mapped.ICCID);
    await expectLogged(t, a.E_ID, 'iccid_fast_map', '3 ICCIDs');
  });

  it('limits to one department with OS_ID; JSON arrays work too', async () => {
    const a = await tenant(t);
    const dept = await addOrgan(a.api);
    await addUser(a.api);
    const inDept = await addUser(a.api, { OS_ID: dept });
    const iccid = uniqueIccid();
    const res = body<MapResult>(await a.api.postJson('/api/UserInfo/FastMapICCID', { ICCIDs: [iccid], OS_ID: dept }));
    expect(res.pairs.map((p) => p.UserID)).toEqual([inDept.UserID]);
  });

  it('is all or nothing: too few free users (4009 device.not_enough_users), bad or taken ICCIDs per index', async () => {
    const a = await tenant(t);
    const u1 = await addUser(a.api);
    await addUser(a.api);
    const short = await a.api.post('/api/UserInfo/FastMapICCID', {
      ICCIDs: [uniqueIccid(), uniqueIccid(), uniqueIccid()].join('\n'),
    });
    expect(expectFailure(short, 409, 4009, 'device.not_enough_users').BaseResult.Params).toEqual({
      users: 2,
      needed: 3,
    });
    const bad = expectFailure(
      await a.api.postJson('/api/UserInfo/FastMapICCID', { ICCIDs: [uniqueIccid(), '123'] }),
      400,
      4000,
    );
    expect(bad.Data).toEqual([{ field: 'ICCIDs.1', key: 'user.iccid_length' }]);
    const b = await tenant(t);
    const theirs = (await addUser(b.api, { ICCID: uniqueIccid() })).ICCID as string;
    const dup = uniqueIccid();
    const taken = expectFailure(
      await a.api.postJson('/api/UserInfo/FastMapICCID', { ICCIDs: [theirs, dup] }),
      409,
      4009,
    );
    expect(taken.Data).toEqual([{ field: 'ICCIDs.0', key: 'user.iccid_exists' }]);
    const twice = expectFailure(await a.api.postJson('/api/UserInfo/FastMapICCID', { ICCIDs: [dup, dup] }), 409, 4009);
    expect(twice.Data).toEqual([{ field: 'ICCIDs.1', key: 'user.iccid_exists' }]);
    expect(await iccidOf(a.api, u1.UserID)).toBeNull();
    expect(await holder(dup)).toBeUndefined();
  });

  it('refuses an enterprise or department outside the scope (4004), and more than 1000 ICCIDs (4000)', async () => {
    const a = await tenant(t);
    const b = await tenant(t);
    expectFailure(
      await a.api.postJson('/api/UserInfo/FastMapICCID', { ICCIDs: [uniqueIccid()], E_ID: b.E_ID }),
      404,
      4004,
    );
    expectFailure(
      await a.api.postJson('/api/UserInfo/FastMapICCID', { ICCIDs: [uniqueIccid()], OS_ID: await addOrgan(b.api) }),
      404,
      4004,
    );
    const many = Array.from({ length: 1001 }, () => '8'.repeat(19));
    expectFailure(
      await a.api.postJson('/api/UserInfo/FastMapICCID', { ICCIDs: many }),
      400,
      4000,
      'validation.too_many_items',
    );
  });
});

describe('POST /api/UserInfo/NoneSeriesMap', () => {
  it('maps explicit pairs (JSON, or JSON text in a form)', async () => {
    const a = await tenant(t);
    const u1 = await addUser(a.api);
    const u2 = await addUser(a.api);
    const [i1, i2] = [uniqueIccid(), uniqueIccid(20)];
    const res = body<MapResult>(
      await a.api.postJson('/api/UserInfo/NoneSeriesMap', {
        pairs: [
          { ICCID: i2, MobilePhone: u2.MobilePhone },
          { ICCID: i1, MobilePhone: u1.MobilePhone },
        ],
      }),
    );
    expect(res.pairs.map((p) => [p.ICCID, p.UserID])).toEqual([
      [i2, u2.UserID],
      [i1, u1.UserID],
    ]);
    const u3 = await addUser(a.api);
    const i3 = uniqueIccid();
    body(
      await a.api.post('/api/UserInfo/NoneSeriesMap', {
        pairs: JSON.stringify([{ ICCID: i3, MobilePhone: u3.MobilePhone }]),
      }),
    );
    expect(await iccidOf(a.api, u3.UserID)).toBe(i3);
    await expectLogged(t, a.E_ID, 'iccid_pairs_map', i3);
  });

  it('is all or nothing: 4000 malformed items, 4004 phones outside the scope, 4009 taken or repeated', async () => {
    const a = await tenant(t);
    const b = await tenant(t);
    const u1 = await addUser(a.api);
    const theirs = await addUser(b.api, { ICCID: uniqueIccid() });
    const fresh = uniqueIccid();
    const pairsOf = (...pairs: [string, string][]) => ({
      pairs: pairs.map(([ICCID, MobilePhone]) => ({ ICCID, MobilePhone })),
    });

    const malformed = expectFailure(
      await a.api.postJson('/api/UserInfo/NoneSeriesMap', pairsOf([fresh, u1.MobilePhone], ['123', 'abc'])),
      400,
      4000,
    );
    expect(malformed.Data).toEqual([
      { field: 'pairs.1.ICCID', key: 'user.iccid_length' },
      { field: 'pairs.1.MobilePhone', key: 'user.phone_invalid' },
    ]);
    const unknown = expectFailure(
      await a.api.postJson(
        '/api/UserInfo/NoneSeriesMap',
        pairsOf([fresh, u1.MobilePhone], [uniqueIccid(), theirs.MobilePhone]),
      ),
      404,
      4004,
    );
    expect(unknown.Data).toEqual([{ field: 'pairs.1.MobilePhone', key: 'error.not_found' }]);
    const taken = expectFailure(
      await a.api.postJson('/api/UserInfo/NoneSeriesMap', pairsOf([theirs.ICCID as string, u1.MobilePhone])),
      409,
      4009,
    );
    expect(taken.Data).toEqual([{ field: 'pairs.0.ICCID', key: 'user.iccid_exists' }]);
    const repeated = expectFailure(
      await a.api.postJson(
        '/api/UserInfo/NoneSeriesMap',
        pairsOf([fresh, u1.MobilePhone], [uniqueIccid(), u1.MobilePhone]),
      ),
      409,
      4009,
    );
    expect(repeated.Data).toEqual([{ field: 'pairs.1.MobilePhone', key: 'user.phone_exists' }]);
    expect(await iccidOf(a.api, u1.UserID)).toBeNull();
    expect(await holder(fresh)).toBeUndefined();
  });
});

describe('POST /api/UserInfo/RecoverDevice', () => {
  it('unbinds the SIM (back to stock), resets GPS parameter and capabilities, and ends terminal sessions', async () => {
    const a = await tenant(t);
    const user = await addUser(a.api, { ICCID: uniqueIccid(), GPSConfig: '{"interval":5}', Caps: 63 });
    const ended: TerminalSessionEnd[] = [];
    const listener = (e: TerminalSessionEnd) => ended.push(e);
    t.app.terminalEvents.on('endSessions', listener);
    try {
      expectSuccess(await a.api.post('/api/UserInfo/RecoverDevice', { MobilePhone: user.MobilePhone }));
    } finally {
      t.app.terminalEvents.off('endSessions', listener);
    }
    const after = body<UserRow>(await a.api.get(`/api/UserInfo/Entitys/${user.UserID}`));
    expect(after).toMatchObject({ ICCID: null, GPSConfig: '', Caps: 6 });
    expect(await holder(user.ICCID as string)).toEqual({ E_ID: a.E_ID, UserID: null });
    expect(ended.map((e) => e.reason)).toEqual(['recovered']);
    const log = await expectLogged(t, a.E_ID, 'device_recover', user.MobilePhone);
    expect(JSON.parse(log.Summary)).toMatchObject({ ICCID: [user.ICCID, null] });
  });

  it('answers 4004 for a phone outside the scope and 4000 for a malformed one', async () => {
    const a = await tenant(t);
    const b = await tenant(t);
    const theirs = await addUser(b.api, { ICCID: uniqueIccid() });
    expectFailure(await a.api.post('/api/UserInfo/RecoverDevice', { MobilePhone: theirs.MobilePhone }), 404, 4004);
    expect(await iccidOf(b.api, theirs.UserID)).toBe(theirs.ICCID);
    expectFailure(
      await a.api.post('/api/UserInfo/RecoverDevice', { MobilePhone: 'x' }),
      400,
      4000,
      'user.phone_invalid',
    );
  });
});
