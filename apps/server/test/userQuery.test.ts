// postgres: the query engine's SQL (filters, sorting, paging) through the API.
import type { UserRow } from '@intercom/contract';
import ExcelJS from 'exceljs';
import { beforeAll, describe, expect, it } from 'vitest';
import { expectFailure, expectSuccess } from './helper.js';
import { addOrgan, addUser, tenant, uniqueIccid, uniquePhone, type Tenant } from './directoryFixtures.js';
import { useTestApp } from './useTestApp.js';

const t = useTestApp();
let a: Tenant;
let ids: Record<string, number>;
let depts: Record<string, number>;
let iccid: string;

/** One enterprise with a small department tree and users in every state. */
beforeAll(async () => {
  a = await tenant(t);
  const other = await tenant(t);
  await addUser(other.api, { UserName: 'Alice elsewhere' });
  const sales = await addOrgan(a.api, { OSName: 'Sales' });
  const east = await addOrgan(a.api, { OSName: 'East', OSParentID: sales });
  const far = await addOrgan(a.api, { OSName: 'Far East', OSParentID: east });
  const support = await addOrgan(a.api, { OSName: 'Support' });
  depts = { sales, east, far, support };
  iccid = uniqueIccid(20);
  const alice = await addUser(a.api, { UserName: 'Alice', OS_ID: sales, PriorityLevel: 2 });
  const bob = await addUser(a.api, { UserName: 'Bob', OS_ID: east, ICCID: iccid });
  const carol = await addUser(a.api, { UserName: 'Carol', OS_ID: far, ExpireAt: 1000 });
  const dave = await addUser(a.api, { UserName: 'dave_=cmd', OS_ID: support });
  const erin = await addUser(a.api, { UserName: '小王' });
  expectSuccess(await a.api.post('/api/UserInfo/FreezeUser', { MobilePhone: dave.MobilePhone, isLock: 'true' }));
  ids = { alice: alice.UserID, bob: bob.UserID, carol: carol.UserID, dave: dave.UserID, erin: erin.UserID };
});

async function names(condition: object, extra = ''): Promise<string[]> {
  const q = encodeURIComponent(JSON.stringify(condition));
  const res = expectSuccess(await a.api.get(`/api/UserInfo/QueryData?jsonCondition=${q}&pageSize=50${extra}`));
  return (res.Data as UserRow[]).map((u) => u.UserName);
}

describe('GET /api/UserInfo/QueryData', () => {
  it('pages the users of the scope with their department name, in UserID order by default', async () => {
    const res = expectSuccess(await a.api.get('/api/UserInfo/QueryData?pageIndex=0&pageSize=2'));
    expect(res.Total).toBe(5);
    expect((res.Data as UserRow[]).map((u) => [u.UserName, u.OSName])).toEqual([
      ['Alice', 'Sales'],
      ['Bob', 'East'],
    ]);
    const page2 = expectSuccess(await a.api.get('/api/UserInfo/QueryData?pageIndex=2&pageSize=2'));
    expect((page2.Data as UserRow[]).map((u) => u.UserName)).toEqual(['小王']);
  });

  it('filters by a department with all departments below it (OSUnder), or by the department alone (OS_ID)', async () => {
    expect(await names({ OSUnder: depts.sales })).toEqual(['Alice', 'Bob', 'Carol']);
    expect(await names({ OSUnder: depts.east })).toEqual(['Bob', 'Carol']);
    expect(await names({ OS_ID: depts.sales })).toEqual(['Alice']);
    expect(await names({ OSUnder: 2147483647 })).toEqual([]);
  });

  it('searches name, phone or ICCID, case-insensitively, with LIKE wildcards taken literally', async () => {
    expect(await names({ Search: 'ALI' })).toEqual(['Alice']);
    expect(await names({ Search: iccid.slice(-6).toLowerCase() })).toEqual(['Bob']);
    const bob = expectSuccess(await a.api.get(`/api/UserInfo/Entitys/${ids.bob}`)).BaseData as UserRow;
    expect(await names({ Search: bob.MobilePhone.slice(-7) })).toEqual(['Bob']);
    expect(await names({ Search: '_' })).toEqual(['dave_=cmd']);
    expect(await names({ Search: '%' })).toEqual([]);
    expect(await names({ Search: '小' })).toEqual(['小王']);
  });

  it('keeps the search current as users are renamed, given new phones and deleted', async () => {
    const created = await addUser(a.api, { UserName: 'Quentin "Q" Zephyr' });
    const oldDigits = created.MobilePhone.slice(-7);
    expect(await names({ Search: 'zephyr' })).toEqual(['Quentin "Q" Zephyr']);
    expect(await names({ Search: '"Q" z' })).toEqual(['Quentin "Q" Zephyr']);
    expect(await names({ Search: oldDigits })).toEqual(['Quentin "Q" Zephyr']);
    const phone = uniquePhone();
    expectSuccess(
      await a.api.postJson('/api/UserInfo/Save', { UserID: created.UserID, UserName: '张伟明', MobilePhone: phone }),
    );
    expect(await names({ Search: 'zephyr' })).toEqual([]);
    expect(await names({ Search: oldDigits })).toEqual([]);
    expect(await names({ Search: '张伟明' })).toEqual(['张伟明']);
    expect(await names({ Search: phone.slice(-7) })).toEqual(['张伟明']);
    expectSuccess(await a.api.delete(`/api/UserInfo/Delete/${created.UserID}`));
    expect(await names({ Search: '张伟明' })).toEqual([]);
  });

  it('filters by state: normal, locked (frozen), expired', async () => {
    expect(await names({ State: 'locked' })).toEqual(['dave_=cmd']);
    expect(await names({ State: 'expired' })).toEqual(['Carol']);
    expect(await names({ State: 'normal' })).toEqual(['Alice', 'Bob', '小王']);
    expectFailure(
      await a.api.get(`/api/UserInfo/QueryData?jsonCondition=${encodeURIComponent('{"State":"gone"}')}`),
      400,
      4000,
      'query.bad_condition',
    );
  });

  it('combines filters and sorts by any field, the department name included', async () => {
    expect(await names({ OSUnder: depts.sales, State: 'normal' })).toEqual(['Alice', 'Bob']);
    expect(await names({}, '&orderField=UserName&desc=true')).toEqual(['小王', 'dave_=cmd', 'Carol', 'Bob', 'Alice']);
    expect(await names({ OSUnder: depts.sales }, '&orderField=OSName')).toEqual(['Bob', 'Carol', 'Alice']);
    expect(await names({ PriorityLevel: { gte: 2 } })).toEqual(['Alice']);
  });

  it('refuses unknown fields, operators on search filters, and sorting by a filter (4000)', async () => {
    const bad = async (query: string, key: string) =>
      expectFailure(await a.api.get(`/api/UserInfo/QueryData?${query}`), 400, 4000, key);
    await bad(`jsonCondition=${encodeURIComponent('{"PasswordHash":"x"}')}`, 'query.unknown_field');
    await bad(`jsonCondition=${encodeURIComponent('{"Search":{"like":"x"}}')}`, 'query.unknown_op');
    await bad('orderField=Search', 'query.bad_order_field');
    await bad('orderField=PasswordHash', 'query.bad_order_field');
    await bad('pageSize=501', 'validation.out_of_range');
  });

  it('never returns users of another enterprise, even when filtering by its E_ID', async () => {
    const res = expectSuccess(await a.api.get('/api/UserInfo/QueryData?pageSize=100'));
    expect((res.Data as UserRow[]).every((u) => u.E_ID === a.E_ID)).toBe(true);
    const other = await tenant(t);
    expect(await names({ E_ID: other.E_ID })).toEqual([]);
  });
});

describe('GET /api/UserInfo/ExportData', () => {
  it('streams the filtered set as CSV (UTF-8 with BOM, header, one line per user)', async () => {
    const q = encodeURIComponent(JSON.stringify({ State: { eq: 'locked' } }));
    const all = await a.api.get('/api/UserInfo/ExportData?orderField=UserName');
    expect(all.statusCode).toBe(200);
    expect(all.headers['content-type']).toContain('text/csv');
    expect(all.headers['content-disposition']).toMatch(/attachment; filename="UserInfo-\d{4}-\d{2}-\d{2}\.csv"/);
    const lines = all.body.split('\r\n').filter(Boolean);
    expect(lines[0]).toBe(
      '\uFEFFUserID,UserName,MobilePhone,ICCID,OSName,UType,PriorityLevel,ExpireAt,IsLock,Caps,Remark,CreatedAt',
    );
    expect(lines).toHaveLength(6);
    expect(lines.map((l) => l.split(',')[1])).toEqual(['UserName', 'Alice', 'Bob', 'Carol', 'dave_=cmd', '小王']);
    const locked = await a.api.get(`/api/UserInfo/ExportData?jsonCondition=${q}`);
    expect(locked.body.split('\r\n').filter(Boolean)).toHaveLength(2);
  });

  it('exports XLSX of the filtered set', async () => {
    const q = encodeURIComponent(JSON.stringify({ OSUnder: depts.sales }));
    const res = await a.api.get(`/api/UserInfo/ExportData?format=xlsx&jsonCondition=${q}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('spreadsheetml');
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const sheet = workbook.worksheets[0];
    const values = (sheet?.getColumn(2).values ?? []).filter((v) => v !== undefined && v !== null);
    expect(values).toEqual(['UserName', 'Alice', 'Bob', 'Carol']);
  });

  it('answers a bad filter with the envelope, not a broken file', async () => {
    expectFailure(
      await a.api.get(`/api/UserInfo/ExportData?jsonCondition=${encodeURIComponent('{"Nope":1}')}`),
      400,
      4000,
    );
  });
});

describe('GET /api/SysLog/QueryData filters', () => {
  it('finds rows by operator, action and text over target and summary', async () => {
    const q = (c: object) => encodeURIComponent(JSON.stringify(c));
    const frozen = expectSuccess(
      await a.api.get(`/api/SysLog/QueryData?jsonCondition=${q({ Action: 'user_freeze' })}`),
    );
    expect(frozen.Total).toBe(1);
    const text = expectSuccess(
      await a.api.get(`/api/SysLog/QueryData?jsonCondition=${q({ Text: 'far east', Action: 'organ_create' })}`),
    );
    expect(text.Total).toBe(1);
    const byOperator = expectSuccess(
      await a.api.get(
        `/api/SysLog/QueryData?pageSize=100&jsonCondition=${q({ Operator: a.username, CreatedAt: { gte: 0 } })}`,
      ),
    );
    expect(byOperator.Total).toBeGreaterThanOrEqual(10);
  });
});
