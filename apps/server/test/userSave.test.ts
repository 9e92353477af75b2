import type { UserRow } from '@intercom/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TerminalSessionEnd } from '../src/core/terminalEvents.js';
import { buildTestApp, expectFailure, expectSuccess, sysLogOf, type TestApp } from './helper.js';
import {
  addOrgan,
  addUser,
  body,
  countRows,
  expectLogged,
  tenant,
  uniqueIccid,
  uniquePhone,
} from './directoryFixtures.js';

let t: TestApp;

beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => {
  await t.close();
});

function form(fields: Record<string, string>) {
  return { UserName: `u${uniquePhone()}`, MobilePhone: uniquePhone(), Password: 'abc123', ...fields };
}

describe('create a user (POST /api/UserInfo/UpdateUser form, POST /api/UserInfo/Save JSON)', () => {
  it('creates with every field from a form; the password is stored hashed and never returned; logged', async () => {
    const a = await tenant(t);
    const dept = await addOrgan(a.api, { OSName: 'Drivers' });
    const iccid = uniqueIccid(20);
    const phone = uniquePhone();
    const res = await a.api.post('/api/UserInfo/UpdateUser', {
      UserID: '0',
      UserName: ' Wang Wei ',
      MobilePhone: phone,
      ICCID: iccid.toLowerCase(),
      OS_ID: String(dept),
      UType: '0',
      PriorityLevel: '5',
      ExpireAt: '2030-01-05',
      Password: 'p@ss-1234',
      GPSConfig: '{"interval":30,"enabled":true}',
      Remark: 'night shift',
    });
    const user = body<UserRow & { PasswordHash?: string }>(res);
    expect(user).toMatchObject({
      E_ID: a.E_ID,
      OS_ID: dept,
      OSName: 'Drivers',
      UserName: 'Wang Wei',
      MobilePhone: phone,
      ICCID: iccid,
      PriorityLevel: 5,
      IsLock: 0,
      Caps: 6,
      GPSConfig: '{"interval":30,"enabled":true}',
      Remark: 'night shift',
    });
    expect(new Date(user.ExpireAt as number).toISOString()).toBe('2030-01-05T23:59:59.999Z');
    expect(user.PasswordHash).toBeUndefined();
    const stored = await t.db
      .selectFrom('terminal_user')
      .select('PasswordHash')
      .where('UserID', '=', user.UserID)
      .executeTakeFirstOrThrow();
    expect(stored.PasswordHash).toMatch(/^scrypt\$/);
    // The SIM went into the inventory, mapped to the user.
    const device = await t.db
      .selectFrom('device')
      .select(['UserID', 'E_ID'])
      .where('ICCID', '=', iccid)
      .executeTakeFirstOrThrow();
    expect(device).toEqual({ UserID: user.UserID, E_ID: a.E_ID });
    const log = await expectLogged(t, a.E_ID, 'user_create', phone);
    expect(log.Summary).not.toMatch(/scrypt|p@ss/);
  });

  it('creates from JSON with only name, phone and password', async () => {
    const a = await tenant(t);
    const user = await addUser(a.api, { UserName: '张三' });
    expect(user).toMatchObject({
      UserName: '张三',
      OS_ID: null,
      OSName: null,
      ICCID: null,
      PriorityLevel: 0,
      ExpireAt: null,
    });
  });

  it('requires name, phone and password on create', async () => {
    const a = await tenant(t);
    const res = expectFailure(await a.api.post('/api/UserInfo/UpdateUser', {}), 400, 4000);
    expect(res.Data).toEqual([
      { field: 'UserName', key: 'validation.required' },
      { field: 'MobilePhone', key: 'validation.required' },
      { field: 'Password', key: 'validation.required' },
    ]);
  });

  it.each([
    ['empty', '', 'validation.required'],
    ['spaces', '   ', 'validation.required'],
    ['33 characters', 'n'.repeat(33), 'validation.too_long'],
    ['a NUL', 'a\u0000b', 'validation.invalid'],
  ])('refuses a name that is %s', async (_n, UserName, key) => {
    const a = await tenant(t);
    expectFailure(await a.api.post('/api/UserInfo/UpdateUser', form({ UserName })), 400, 4000, key);
    expect(await countRows(t, 'terminal_user', a.E_ID)).toBe(0);
  });

  it('accepts a name of 32 characters', async () => {
    const a = await tenant(t);
    expectSuccess(await a.api.post('/api/UserInfo/UpdateUser', form({ UserName: '名'.repeat(32) })));
  });

  it.each([
    ['letters', '13800abc', 'user.phone_invalid'],
    ['2 digits', '12', 'user.phone_invalid'],
    ['21 digits', '1'.repeat(21), 'validation.too_long'],
    ['a plus sign', '+8613800000000', 'user.phone_invalid'],
  ])('refuses a phone with %s', async (_n, MobilePhone, key) => {
    const a = await tenant(t);
    expectFailure(await a.api.post('/api/UserInfo/UpdateUser', form({ MobilePhone })), 400, 4000, key);
  });

  it('accepts phones of 3 and 20 digits', async () => {
    const a = await tenant(t);
    const three = String(100 + (process.pid % 900));
    await t.db.deleteFrom('terminal_user').where('MobilePhone', '=', three).execute();
    expectSuccess(await a.api.post('/api/UserInfo/UpdateUser', form({ MobilePhone: three })));
    expectSuccess(
      await a.api.post('/api/UserInfo/UpdateUser', form({ MobilePhone: `${uniquePhone()}123456789`.slice(0, 20) })),
    );
  });

  it.each([
    [18, 'user.iccid_length'],
    [21, 'user.iccid_length'],
  ])('refuses an ICCID of %i characters (ICCID length not correct)', async (length, key) => {
    const a = await tenant(t);
    const res = await a.api.post('/api/UserInfo/UpdateUser', form({ ICCID: '8'.repeat(length) }));
    expect(expectFailure(res, 400, 4000, key).Data).toEqual([{ field: 'ICCID', key }]);
    expect(await countRows(t, 'terminal_user', a.E_ID)).toBe(0);
  });

  it.each([19, 20])('accepts an ICCID of %i characters, trimmed and upper-cased', async (length) => {
    const a = await tenant(t);
    const iccid = uniqueIccid(length);
    const user = body<UserRow>(
      await a.api.post('/api/UserInfo/UpdateUser', form({ ICCID: ` ${iccid.slice(0, -1)}f ` })),
    );
    expect(user.ICCID).toBe(`${iccid.slice(0, -1)}F`);
  });

  it('refuses an ICCID with other characters (user.iccid_invalid) and allows none', async () => {
    const a = await tenant(t);
    expectFailure(
      await a.api.post('/api/UserInfo/UpdateUser', form({ ICCID: '8986-0012345678901234'.slice(0, 20) })),
      400,
      4000,
      'user.iccid_invalid',
    );
    const none = body<UserRow>(await a.api.post('/api/UserInfo/UpdateUser', form({ ICCID: '' })));
    expect(none.ICCID).toBeNull();
  });

  it.each([
    ['-1', 400],
    ['0', 200],
    ['7', 200],
    ['8', 400],
    ['1.5', 400],
  ])('PriorityLevel %s answers %i', async (PriorityLevel, status) => {
    const a = await tenant(t);
    const res = await a.api.post('/api/UserInfo/UpdateUser', form({ PriorityLevel }));
    expect(res.statusCode).toBe(status);
    if (status === 400) expectFailure(res, 400, 4000);
  });

  it.each([
    ['5 characters', 'ab123', 'user.password_invalid'],
    ['17 characters', 'abcdefgh123456789', 'user.password_invalid'],
    ['a space', 'abc 123', 'user.password_invalid'],
    ['Chinese', '密码密码密码', 'user.password_invalid'],
  ])('refuses a terminal password of %s', async (_n, Password, key) => {
    const a = await tenant(t);
    expectFailure(await a.api.post('/api/UserInfo/UpdateUser', form({ Password })), 400, 4000, key);
  });

  it.each(['abc123', 'A!b@c#d$e%f^g&h*'])(
    'accepts the terminal password %s (6 and 16 characters)',
    async (Password) => {
      const a = await tenant(t);
      expectSuccess(await a.api.post('/api/UserInfo/UpdateUser', form({ Password })));
    },
  );

  it.each([
    ['ExpireAt', 'tomorrow', 'validation.bad_date'],
    ['ExpireAt', '2023-02-30', 'validation.bad_date'],
    ['GPSConfig', 'every 30 s', 'user.gps_invalid'],
    ['GPSConfig', '{"interval":0}', 'user.gps_invalid'],
    ['GPSConfig', '[1,2]', 'user.gps_invalid'],
    ['Caps', '64', 'user.caps_invalid'],
    ['UType', '99', 'user.type_unknown'],
  ])('refuses %s = %s', async (field, value, key) => {
    const a = await tenant(t);
    expectFailure(await a.api.post('/api/UserInfo/UpdateUser', form({ [field]: value })), 400, 4000, key);
  });

  it('accepts a user type of the enterprise and lists it in GetMyType', async () => {
    const a = await tenant(t);
    const type = await t.db
      .insertInto('gis_type')
      .values({ E_ID: a.E_ID, Kind: 'user', Name: 'Driver', Option: '{}' })
      .returning('T_ID')
      .executeTakeFirstOrThrow();
    const user = body<UserRow>(await a.api.post('/api/UserInfo/UpdateUser', form({ UType: String(type.T_ID) })));
    expect(user.UType).toBe(type.T_ID);
    const types = expectSuccess(await a.api.get('/api/UserInfo/GetMyType'));
    expect(types.Data).toEqual([
      { ID: 0, Name: 'default', Option: '' },
      { ID: type.T_ID, Name: 'Driver', Option: '{}' },
    ]);
    const b = await tenant(t);
    expectFailure(
      await b.api.post('/api/UserInfo/UpdateUser', form({ UType: String(type.T_ID) })),
      400,
      4000,
      'user.type_unknown',
    );
    expectFailure(await b.api.get(`/api/UserInfo/GetMyType?eID=${a.E_ID}`), 404, 4004);
  });

  it('refuses a phone used anywhere (4009 user.phone_exists) and a name used in the enterprise (4009 common.name_exists)', async () => {
    const a = await tenant(t);
    const b = await tenant(t);
    const taken = await addUser(b.api, { UserName: 'Same Name' });
    expectFailure(
      await a.api.post('/api/UserInfo/UpdateUser', form({ MobilePhone: taken.MobilePhone })),
      409,
      4009,
      'user.phone_exists',
    );
    // The same name in another enterprise is fine; twice in one enterprise is not.
    expectSuccess(await a.api.post('/api/UserInfo/UpdateUser', form({ UserName: 'Same Name' })));
    expectFailure(
      await a.api.post('/api/UserInfo/UpdateUser', form({ UserName: 'Same Name' })),
      409,
      4009,
      'common.name_exists',
    );
    expect(await countRows(t, 'terminal_user', a.E_ID)).toBe(1);
  });

  it('refuses an ICCID held by another user or in another enterprise’s inventory (4009 user.iccid_exists)', async () => {
    const a = await tenant(t);
    const b = await tenant(t);
    const held = await addUser(b.api, { ICCID: uniqueIccid() });
    expectFailure(
      await a.api.post('/api/UserInfo/UpdateUser', form({ ICCID: held.ICCID as string })),
      409,
      4009,
      'user.iccid_exists',
    );
    const stock = uniqueIccid();
    expectSuccess(await b.api.post('/api/Device/Save', { ICCID: stock }));
    expectFailure(await a.api.post('/api/UserInfo/UpdateUser', form({ ICCID: stock })), 409, 4009, 'user.iccid_exists');
    // A free ICCID of the own inventory is taken out of stock.
    const own = uniqueIccid();
    expectSuccess(await a.api.post('/api/Device/Save', { ICCID: own }));
    const user = body<UserRow>(await a.api.post('/api/UserInfo/UpdateUser', form({ ICCID: own })));
    const device = await t.db.selectFrom('device').select('UserID').where('ICCID', '=', own).executeTakeFirstOrThrow();
    expect(device.UserID).toBe(user.UserID);
  });

  it('refuses a department of another enterprise (4004) or of a sub-enterprise (4000)', async () => {
    const a = await tenant(t);
    const b = await tenant(t);
    const child = await tenant(t, { parentId: a.E_ID });
    expectFailure(
      await a.api.post('/api/UserInfo/UpdateUser', form({ OS_ID: String(await addOrgan(b.api)) })),
      404,
      4004,
    );
    expectFailure(
      await a.api.post('/api/UserInfo/UpdateUser', form({ OS_ID: String(await addOrgan(child.api)) })),
      400,
      4000,
      'user.department_enterprise',
    );
    expectFailure(await a.api.post('/api/UserInfo/UpdateUser', form({ E_ID: String(b.E_ID) })), 404, 4004);
  });

  it('refuses the user beyond the licence quota (4009 user.account_shortage) and creates nothing', async () => {
    const a = await tenant(t, { quota: 1 });
    await addUser(a.api);
    const res = await a.api.post('/api/UserInfo/UpdateUser', form({}));
    expect(expectFailure(res, 409, 4009, 'user.account_shortage').BaseResult.Params).toEqual({ balance: 0, needed: 1 });
    expect(await countRows(t, 'terminal_user', a.E_ID)).toBe(1);
  });
});

describe('edit a user', () => {
  it('changes only the fields sent, logs before/after, and a new password ends the terminal sessions', async () => {
    const a = await tenant(t);
    const user = await addUser(a.api, { UserName: 'Before', PriorityLevel: 1, Remark: 'keep' });
    const ended: TerminalSessionEnd[] = [];
    const listener = (e: TerminalSessionEnd) => ended.push(e);
    t.app.terminalEvents.on('endSessions', listener);
    try {
      const edited = body<UserRow>(
        await a.api.post('/api/UserInfo/UpdateUser', {
          UserID: String(user.UserID),
          UserName: 'After',
          Password: 'newpass1',
        }),
      );
      expect(edited).toMatchObject({
        UserName: 'After',
        PriorityLevel: 1,
        Remark: 'keep',
        MobilePhone: user.MobilePhone,
      });
    } finally {
      t.app.terminalEvents.off('endSessions', listener);
    }
    expect(ended).toEqual([{ E_ID: a.E_ID, UserID: user.UserID, MobilePhone: user.MobilePhone, reason: 'password' }]);
    const log = await expectLogged(t, a.E_ID, 'user_update', user.MobilePhone);
    expect(JSON.parse(log.Summary)).toEqual({ UserName: ['Before', 'After'], Password: 'changed' });
  });

  it('moves the SIM: a new ICCID returns the old one to the inventory; an empty ICCID unbinds', async () => {
    const a = await tenant(t);
    const first = uniqueIccid();
    const second = uniqueIccid(20);
    const user = await addUser(a.api, { ICCID: first });
    const moved = body<UserRow>(await a.api.postJson('/api/UserInfo/Save', { UserID: user.UserID, ICCID: second }));
    expect(moved.ICCID).toBe(second);
    const devices = await t.db
      .selectFrom('device')
      .select(['ICCID', 'UserID'])
      .where('E_ID', '=', a.E_ID)
      .orderBy('D_ID')
      .execute();
    expect(devices).toEqual([
      { ICCID: first, UserID: null },
      { ICCID: second, UserID: user.UserID },
    ]);
    const cleared = body<UserRow>(await a.api.postJson('/api/UserInfo/Save', { UserID: user.UserID, ICCID: '' }));
    expect(cleared.ICCID).toBeNull();
    const after = await t.db
      .selectFrom('device')
      .select('UserID')
      .where('ICCID', '=', second)
      .executeTakeFirstOrThrow();
    expect(after.UserID).toBeNull();
  });

  it('refuses taking another user’s phone or name, moving to another enterprise, or a user outside the scope', async () => {
    const a = await tenant(t);
    const b = await tenant(t);
    const one = await addUser(a.api, { UserName: 'One' });
    const two = await addUser(a.api, { UserName: 'Two' });
    const id = String(two.UserID);
    expectFailure(
      await a.api.post('/api/UserInfo/UpdateUser', { UserID: id, MobilePhone: one.MobilePhone }),
      409,
      4009,
      'user.phone_exists',
    );
    expectFailure(
      await a.api.post('/api/UserInfo/UpdateUser', { UserID: id, UserName: 'One' }),
      409,
      4009,
      'common.name_exists',
    );
    expectFailure(
      await a.api.post('/api/UserInfo/UpdateUser', { UserID: id, E_ID: String(b.E_ID) }),
      400,
      4000,
      'user.enterprise_fixed',
    );
    const theirs = await addUser(b.api);
    expectFailure(
      await a.api.post('/api/UserInfo/UpdateUser', { UserID: String(theirs.UserID), UserName: 'Mine' }),
      404,
      4004,
    );
    expectFailure(await a.api.post('/api/UserInfo/UpdateUser', { UserID: '2147483647', UserName: 'Ghost' }), 404, 4004);
    const unchanged = body<UserRow>(await b.api.get(`/api/UserInfo/Entitys/${theirs.UserID}`));
    expect(unchanged.UserName).toBe(theirs.UserName);
  });
});

describe('read and delete', () => {
  it('GET Entitys/{id} returns a user of the scope only', async () => {
    const a = await tenant(t);
    const b = await tenant(t);
    const mine = await addUser(a.api);
    const theirs = await addUser(b.api);
    expect(body<UserRow>(await a.api.get(`/api/UserInfo/Entitys/${mine.UserID}`)).UserID).toBe(mine.UserID);
    expectFailure(await a.api.get(`/api/UserInfo/Entitys/${theirs.UserID}`), 404, 4004, 'error.not_found');
  });

  it('GET Users lists an enterprise’s users lightly, or one of them; other enterprises are 4004', async () => {
    const a = await tenant(t);
    const b = await tenant(t);
    const dept = await addOrgan(a.api);
    const u1 = await addUser(a.api, { OS_ID: dept });
    const u2 = await addUser(a.api);
    const all = expectSuccess(await a.api.get(`/api/UserInfo/Users?eID=${a.E_ID}`));
    expect((all.Data as { UserID: number }[]).map((u) => u.UserID)).toEqual([u1.UserID, u2.UserID]);
    expect(Object.keys((all.Data as object[])[0] ?? {}).sort()).toEqual(
      ['E_ID', 'IsLock', 'MobilePhone', 'OS_ID', 'PriorityLevel', 'UType', 'UserID', 'UserName'].sort(),
    );
    const one = expectSuccess(await a.api.get(`/api/UserInfo/Users?eID=${a.E_ID}&userID=${u2.UserID}`));
    expect(one.Data).toHaveLength(1);
    const inDept = expectSuccess(await a.api.get(`/api/UserInfo/Users?OS_ID=${dept}`));
    expect((inDept.Data as { UserID: number }[]).map((u) => u.UserID)).toEqual([u1.UserID]);
    expectFailure(await a.api.get(`/api/UserInfo/Users?eID=${b.E_ID}`), 404, 4004);
    const theirs = await addUser(b.api);
    expectFailure(await a.api.get(`/api/UserInfo/Users?eID=${a.E_ID}&userID=${theirs.UserID}`), 404, 4004);
  });

  it('GET Users answers getUserList(E_ID, E_Code) and queryRequest(name, E_ID); a wrong code or a mismatch is 4004', async () => {
    const a = await tenant(t);
    const b = await tenant(t);
    const { E_Code } = await t.db
      .selectFrom('enterprise')
      .select('E_Code')
      .where('E_ID', '=', a.E_ID)
      .executeTakeFirstOrThrow();
    const { E_Code: theirCode } = await t.db
      .selectFrom('enterprise')
      .select('E_Code')
      .where('E_ID', '=', b.E_ID)
      .executeTakeFirstOrThrow();
    const alice = await addUser(a.api, { UserName: 'Alice_Dock' });
    const bob = await addUser(a.api, { UserName: 'Bob%Gate' });
    const ids = (res: Parameters<typeof expectSuccess>[0]) =>
      (expectSuccess(res).Data as { UserID: number }[]).map((u) => u.UserID);

    const code = encodeURIComponent(E_Code.toLowerCase());
    expect(ids(await a.api.get(`/api/UserInfo/Users?E_Code=${code}`))).toEqual([alice.UserID, bob.UserID]);
    expect(ids(await a.api.get(`/api/UserInfo/Users?E_ID=${a.E_ID}&E_Code=${code}`))).toEqual([
      alice.UserID,
      bob.UserID,
    ]);
    expect(ids(await a.api.get(`/api/UserInfo/Users?E_ID=${a.E_ID}&name=dock`))).toEqual([alice.UserID]);
    // LIKE's wildcards are plain text: "%" finds the name that has one, "_" only the one with "_".
    expect(ids(await a.api.get(`/api/UserInfo/Users?name=${encodeURIComponent('b%g')}`))).toEqual([bob.UserID]);
    expect(ids(await a.api.get(`/api/UserInfo/Users?name=${encodeURIComponent('e_d')}`))).toEqual([alice.UserID]);
    expect(ids(await a.api.get(`/api/UserInfo/Users?name=nobody`))).toEqual([]);

    expectFailure(await a.api.get(`/api/UserInfo/Users?E_Code=${encodeURIComponent(theirCode)}`), 404, 4004);
    expectFailure(await a.api.get(`/api/UserInfo/Users?E_Code=NO_SUCH_CODE_X`), 404, 4004);
    expectFailure(await a.api.get(`/api/UserInfo/Users?E_ID=${b.E_ID}`), 404, 4004);
    expectFailure(await a.api.get(`/api/UserInfo/Users?eID=${a.E_ID}&E_ID=${b.E_ID}`), 404, 4004);
    expectFailure(await a.api.get(`/api/UserInfo/Users?E_ID=abc`), 400, 4000);
    expectFailure(await a.api.get(`/api/UserInfo/Users?E_Code=${'x'.repeat(65)}`), 400, 4000);
    expectFailure(await a.api.get(`/api/UserInfo/Users?name=${'n'.repeat(33)}`), 400, 4000);
  });

  it('deletes a user: frees a licence, returns the SIM to the inventory, drops memberships and its resume token; logged', async () => {
    const a = await tenant(t, { quota: 1 });
    const user = await addUser(a.api, { ICCID: uniqueIccid() });
    const channel = await t.db
      .insertInto('channel')
      .values({
        E_ID: a.E_ID,
        CName: 'ch',
        CTypeID: 106,
        Note: '',
        Priority: 0,
        VideoEnable: 0,
        Record: 0,
        CreatedAt: Date.now(),
      })
      .returning('CID')
      .executeTakeFirstOrThrow();
    await t.db
      .insertInto('channel_member')
      .values({ CID: channel.CID, UserID: user.UserID, E_ID: a.E_ID, Priority: 0 })
      .execute();
    // The resume token its terminal's password login would have left (docs/terminal-protocol.md).
    await t.db
      .insertInto('terminal_resume')
      .values({ UserID: user.UserID, TokenHash: 'a'.repeat(64), ExpiresAt: Date.now() + 60_000 })
      .execute();
    expectSuccess(await a.api.delete(`/api/UserInfo/Delete/${user.UserID}`));
    const resume = await t.db.selectFrom('terminal_resume').selectAll().where('UserID', '=', user.UserID).execute();
    expect(resume).toEqual([]);
    expect(await countRows(t, 'terminal_user', a.E_ID)).toBe(0);
    const device = await t.db
      .selectFrom('device')
      .select('UserID')
      .where('ICCID', '=', user.ICCID as string)
      .executeTakeFirstOrThrow();
    expect(device.UserID).toBeNull();
    const members = await t.db.selectFrom('channel_member').selectAll().where('CID', '=', channel.CID).execute();
    expect(members).toEqual([]);
    await expectLogged(t, a.E_ID, 'user_delete', user.MobilePhone);
    await addUser(a.api);
  });

  it('answers 4004 when deleting a user of another enterprise', async () => {
    const a = await tenant(t);
    const b = await tenant(t);
    const theirs = await addUser(b.api);
    expectFailure(await a.api.delete(`/api/UserInfo/Delete/${theirs.UserID}`), 404, 4004);
    expect(await countRows(t, 'terminal_user', b.E_ID)).toBe(1);
    expect((await sysLogOf(t.db, b.E_ID)).filter((r) => r.Action === 'user_delete')).toEqual([]);
  });
});
