import type { UserListRow, CreatedUsers } from '@intercom/contract';
import { describe, expect, it } from 'vitest';
import { expectFailure, expectSuccess, sysLogOf } from './helper.js';
import {
  addOrgan,
  addUser,
  body,
  countRows,
  tenant,
  uniqueIccid,
  uniquePhone,
  type Tenant,
} from './directoryFixtures.js';
import { useTestApp } from './useTestApp.js';

const t = useTestApp();

let startCounter = 0;
/** A start number whose next 200 numbers no other test uses. */
function freshStart(): string {
  startCounter += 1;
  return `0${String(process.pid % 10000).padStart(4, '0')}${String(startCounter).padStart(3, '0')}000`;
}

function batch(fields: Record<string, string> = {}) {
  return { prefix: 'drv_', start: freshStart(), count: '3', Password: 'abc123', ConfirmPassword: 'abc123', ...fields };
}

describe('POST /api/UserInfo/BatchAdd', () => {
  it('creates 99 users prefix+number, phones from the start number with its width, in one log row', async () => {
    const a = await tenant(t);
    const dept = await addOrgan(a.api);
    const start = freshStart();
    const res = await a.api.post(
      '/api/UserInfo/BatchAdd',
      batch({ start, count: '99', OS_ID: String(dept), PriorityLevel: '2' }),
    );
    const created = body<CreatedUsers>(res);
    expect(created.created).toBe(99);
    expect(created.users[0]).toMatchObject({ UserName: `drv_${start}`, MobilePhone: start });
    const last = (BigInt(start) + 98n).toString().padStart(start.length, '0');
    expect(created.users[98]).toMatchObject({ UserName: `drv_${last}`, MobilePhone: last });
    expect(await countRows(t, 'terminal_user', a.E_ID)).toBe(99);
    const rows = await t.db
      .selectFrom('terminal_user')
      .select(['OS_ID', 'PriorityLevel', 'PasswordHash'])
      .where('E_ID', '=', a.E_ID)
      .execute();
    expect(new Set(rows.map((r) => `${r.OS_ID}/${r.PriorityLevel}`))).toEqual(new Set([`${dept}/2`]));
    expect(rows.every((r) => r.PasswordHash.startsWith('scrypt$'))).toBe(true);
    const logs = (await sysLogOf(t.db, a.E_ID)).filter((r) => r.Action === 'user_batch_create');
    expect(logs).toHaveLength(1);
    expect(logs[0]?.Target).toBe(`${start}..${last}`);
  });

  it('refuses 100 at once (4000 user.batch_too_many) and 0, creating nothing', async () => {
    const a = await tenant(t);
    expectFailure(
      await a.api.post('/api/UserInfo/BatchAdd', batch({ count: '100' })),
      400,
      4000,
      'user.batch_too_many',
    );
    expectFailure(
      await a.api.post('/api/UserInfo/BatchAdd', batch({ count: '0' })),
      400,
      4000,
      'validation.out_of_range',
    );
    expect(await countRows(t, 'terminal_user', a.E_ID)).toBe(0);
  });

  it.each([
    ['1 character', 'a', 400],
    ['2 characters', 'ab', 200],
    ['10 characters', 'abcdefghij', 200],
    ['11 characters', 'abcdefghijk', 400],
    ['2 Chinese characters', '司机', 200],
    ['a hyphen', 'ab-c', 400],
    ['a space', 'ab c', 400],
  ])('a prefix of %s answers %i', async (_n, prefix, status) => {
    const a = await tenant(t);
    const res = await a.api.post('/api/UserInfo/BatchAdd', batch({ prefix }));
    if (status === 200) {
      expect(body<CreatedUsers>(res).users[0]?.UserName.startsWith(prefix)).toBe(true);
    } else {
      expect(expectFailure(res, 400, 4000, 'user.prefix_invalid').Data).toEqual([
        { field: 'prefix', key: 'user.prefix_invalid' },
      ]);
    }
  });

  it.each([
    ['5 characters', 'ab123', 400],
    ['6 characters', 'ab1234', 200],
    ['16 characters', 'abcdefgh12345678', 200],
    ['17 characters', 'abcdefgh123456789', 400],
  ])('a password of %s answers %i', async (_n, Password, status) => {
    const a = await tenant(t);
    const res = await a.api.post('/api/UserInfo/BatchAdd', batch({ Password, ConfirmPassword: Password }));
    if (status === 200) expectSuccess(res);
    else expectFailure(res, 400, 4000, 'user.password_invalid');
  });

  it('refuses a confirmation that differs (managent.psd_notequal) and a start that is not 3-18 digits', async () => {
    const a = await tenant(t);
    expectFailure(
      await a.api.post('/api/UserInfo/BatchAdd', batch({ ConfirmPassword: 'abc124' })),
      400,
      4000,
      'managent.psd_notequal',
    );
    expectFailure(await a.api.post('/api/UserInfo/BatchAdd', batch({ start: '12' })), 400, 4000, 'user.start_invalid');
    expectFailure(
      await a.api.post('/api/UserInfo/BatchAdd', batch({ start: '12a45' })),
      400,
      4000,
      'user.start_invalid',
    );
    expectFailure(
      await a.api.post('/api/UserInfo/BatchAdd', batch({ start: '1'.repeat(19) })),
      400,
      4000,
      'user.start_invalid',
    );
  });

  it('checks the licences first: 6 users with 4 left is 4009 user.account_shortage and nothing is created', async () => {
    const a = await tenant(t, { quota: 7 });
    await addUser(a.api);
    await addUser(a.api);
    const start = freshStart();
    // A row that would also conflict: the quota is told first.
    await addUser(a.api, { MobilePhone: start });
    const shortage = await a.api.post('/api/UserInfo/BatchAdd', batch({ start, count: '6' }));
    expect(expectFailure(shortage, 409, 4009, 'user.account_shortage').BaseResult.Params).toEqual({
      balance: 4,
      needed: 6,
    });
    expect(await countRows(t, 'terminal_user', a.E_ID)).toBe(3);
    expect(body<CreatedUsers>(await a.api.post('/api/UserInfo/BatchAdd', batch({ count: '4' }))).created).toBe(4);
    const detail = body<{ Balance: number }>(await a.api.get(`/api/Enterprise/Entitys/${a.E_ID}`));
    expect(detail.Balance).toBe(0);
  });

  it('is all or nothing: one phone already used fails the batch with per-row errors and leaves nothing', async () => {
    const a = await tenant(t);
    const b = await tenant(t);
    const start = freshStart();
    const third = (BigInt(start) + 2n).toString().padStart(start.length, '0');
    await addUser(b.api, { MobilePhone: third });
    await addUser(a.api, { UserName: `drv_${start}` });
    const res = await a.api.post('/api/UserInfo/BatchAdd', batch({ start, count: '5' }));
    const failure = expectFailure(res, 409, 4009);
    expect(failure.Data).toEqual([
      { field: 'rows.0.UserName', key: 'common.name_exists' },
      { field: 'rows.2.MobilePhone', key: 'user.phone_exists' },
    ]);
    expect(await countRows(t, 'terminal_user', a.E_ID)).toBe(1);
    expect((await sysLogOf(t.db, a.E_ID)).filter((r) => r.Action === 'user_batch_create')).toEqual([]);
  });

  it('two overlapping batches at the same time: one wins whole, the other changes nothing', async () => {
    const a = await tenant(t);
    const start = freshStart();
    const [one, two] = await Promise.all([
      a.api.post('/api/UserInfo/BatchAdd', batch({ start, count: '20' })),
      a.api.post('/api/UserInfo/BatchAdd', batch({ start, count: '20', prefix: 'other' })),
    ]);
    expect([one.statusCode, two.statusCode].sort()).toEqual([200, 409]);
    expect(await countRows(t, 'terminal_user', a.E_ID)).toBe(20);
  });

  it('refuses a department or enterprise outside the scope (4004)', async () => {
    const a = await tenant(t);
    const b = await tenant(t);
    expectFailure(
      await a.api.post('/api/UserInfo/BatchAdd', batch({ OS_ID: String(await addOrgan(b.api)) })),
      404,
      4004,
    );
    expectFailure(await a.api.post('/api/UserInfo/BatchAdd', batch({ E_ID: String(b.E_ID) })), 404, 4004);
    expect(await countRows(t, 'terminal_user', a.E_ID)).toBe(0);
  });
});

/** `n` rows with unique names and phones; `extra(i)` changes row i (undefined: as it is). */
function rows(n: number, extra: (i: number) => Partial<UserListRow> | undefined = () => ({})): UserListRow[] {
  return Array.from({ length: n }, (_, i) => ({
    UserName: `row ${uniquePhone()}`,
    MobilePhone: uniquePhone(),
    ...extra(i),
  }));
}

/** ListAdd of `list` with a shared password. */
const listAdd = (a: Tenant, list: UserListRow[]) =>
  a.api.postJson('/api/UserInfo/ListAdd', { Password: 'shared1', rows: list });

describe('POST /api/UserInfo/ListAdd', () => {
  it('creates 20 typed rows (JSON) with their ICCIDs and own or shared passwords', async () => {
    const a = await tenant(t);
    const list = rows(20, (i) => (i === 0 ? { ICCID: uniqueIccid(), Password: 'own-pass1' } : {}));
    const created = body<CreatedUsers>(await listAdd(a, list));
    expect(created.created).toBe(20);
    expect(created.users.map((u) => u.MobilePhone)).toEqual(list.map((r) => r.MobilePhone));
    const first = await t.db
      .selectFrom('terminal_user')
      .select(['ICCID', 'PasswordHash'])
      .where('UserID', '=', created.users[0]?.UserID as number)
      .executeTakeFirstOrThrow();
    const second = await t.db
      .selectFrom('terminal_user')
      .select('PasswordHash')
      .where('UserID', '=', created.users[1]?.UserID as number)
      .executeTakeFirstOrThrow();
    expect(first.ICCID).toBe(list[0]?.ICCID);
    expect(first.PasswordHash).not.toBe(second.PasswordHash);
    await expect(countRows(t, 'device', a.E_ID)).resolves.toBe(1);
  });

  it('accepts the rows as JSON text in a form', async () => {
    const a = await tenant(t);
    const created = body<CreatedUsers>(
      await a.api.post('/api/UserInfo/ListAdd', { Password: 'shared1', rows: JSON.stringify(rows(2)) }),
    );
    expect(created.created).toBe(2);
  });

  it('refuses 21 rows (4000 user.list_too_many) and creates nothing', async () => {
    const a = await tenant(t);
    expectFailure(await listAdd(a, rows(21)), 400, 4000, 'user.list_too_many');
    expectFailure(await listAdd(a, []), 400, 4000, 'validation.required');
    expect(await countRows(t, 'terminal_user', a.E_ID)).toBe(0);
  });

  it('reports every malformed row by index and creates nothing', async () => {
    const a = await tenant(t);
    const list = rows(4, (i) => [{}, { MobilePhone: '12' }, { ICCID: '8'.repeat(18) }, { UserName: '' }][i]);
    const res = expectFailure(await listAdd(a, list), 400, 4000);
    expect(res.Data).toEqual([
      { field: 'rows.1.MobilePhone', key: 'user.phone_invalid' },
      { field: 'rows.2.ICCID', key: 'user.iccid_length' },
      { field: 'rows.3.UserName', key: 'validation.required' },
    ]);
    expect(await countRows(t, 'terminal_user', a.E_ID)).toBe(0);
  });

  it('needs a password per row when there is no shared one', async () => {
    const a = await tenant(t);
    const list = rows(2, (i) => (i === 0 ? { Password: 'abc123' } : {}));
    const res = expectFailure(await a.api.postJson('/api/UserInfo/ListAdd', { rows: list }), 400, 4000);
    expect(res.Data).toEqual([{ field: 'rows.1.Password', key: 'validation.required' }]);
  });

  it('refuses duplicates inside the list and against the database (4009, per row), creating nothing', async () => {
    const a = await tenant(t);
    const existing = await addUser(a.api, { ICCID: uniqueIccid() });
    const phone = uniquePhone();
    const sameAsExisting = [{ UserName: existing.UserName }, { ICCID: existing.ICCID as string }];
    const list = rows(4, (i) => [{ MobilePhone: phone }, { MobilePhone: phone }, ...sameAsExisting][i]);
    const res = expectFailure(await listAdd(a, list), 409, 4009);
    expect(res.Data).toEqual([
      { field: 'rows.1.MobilePhone', key: 'user.phone_exists' },
      { field: 'rows.2.UserName', key: 'common.name_exists' },
      { field: 'rows.3.ICCID', key: 'user.iccid_exists' },
    ]);
    expect(await countRows(t, 'terminal_user', a.E_ID)).toBe(1);
  });

  it('checks the licences first (4009 user.account_shortage)', async () => {
    const a = await tenant(t, { quota: 3 });
    const res = await listAdd(a, rows(4));
    expect(expectFailure(res, 409, 4009, 'user.account_shortage').BaseResult.Params).toEqual({ balance: 3, needed: 4 });
    expect(await countRows(t, 'terminal_user', a.E_ID)).toBe(0);
  });
});
