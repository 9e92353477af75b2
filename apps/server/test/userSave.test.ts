import type { UserRow } from '@intercom/contract';
import { describe, expect, it } from 'vitest';
import { expectFailure, expectSuccess } from './helper.js';
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
import { useTestApp } from './useTestApp.js';

const t = useTestApp();

function form(fields: Record<string, string>) {
  return { UserName: `u${uniquePhone()}`, MobilePhone: uniquePhone(), Password: 'abc123', ...fields };
}

// Editing: userEdit.test.ts; reading and deleting: userReadDelete.test.ts.
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
