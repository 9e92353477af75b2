import type { SysLogRow } from '@intercom/contract';
import ExcelJS from 'exceljs';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  authed,
  createAccount,
  createEnterprise,
  expectFailure,
  expectSuccess,
  insertSysLog,
  login,
} from './helper.js';
import { useTestApp } from './useTestApp.js';

const t = useTestApp();

/** A fresh enterprise whose admin is logged in; its log holds that login plus what a test inserts. */
async function freshAdmin() {
  const enterprise = await createEnterprise(t.db);
  const account = await createAccount(t.db, { E_ID: enterprise.E_ID, role: 'admin' });
  const tokens = await login(t.app, { username: account.username, password: account.password, code: enterprise.code });
  const api = authed(t.app, tokens.access_token);
  const query = (params: Record<string, string>) => api.get(`/api/SysLog/QueryData?${new URLSearchParams(params)}`);
  return { ...enterprise, api, query };
}

const condition = (value: unknown) => ({ jsonCondition: JSON.stringify(value) });

describe('QueryData validation', () => {
  let admin: Awaited<ReturnType<typeof freshAdmin>>;
  beforeAll(async () => {
    admin = await freshAdmin();
  });

  it.each([
    ['an unknown field', { Password: 'x' }, 'Password', 'query.unknown_field'],
    ['an inherited name as field', { constructor: 'x' }, 'constructor', 'query.unknown_field'],
    ['an unknown operator', { Operator: { regex: '.*' } }, 'Operator', 'query.unknown_op'],
    ['like on a number field', { L_ID: { like: '1' } }, 'L_ID', 'query.unknown_op'],
    ['a word for an int field', { L_ID: 'abc' }, 'L_ID', 'validation.not_number'],
    ['a word in an operator on an int field', { CreatedAt: { gt: 'soon' } }, 'CreatedAt', 'validation.not_number'],
    ['a fraction for an int field', { L_ID: 1.5 }, 'L_ID', 'validation.not_number'],
    ['a boolean for an int field', { E_ID: true }, 'E_ID', 'validation.not_number'],
    ['an array without an operator', { Operator: ['a', 'b'] }, 'Operator', 'query.bad_condition'],
    ['an empty in list', { Operator: { in: [] } }, 'Operator', 'query.bad_condition'],
    ['between with one bound', { CreatedAt: { between: [1] } }, 'CreatedAt', 'query.bad_condition'],
    ['an object as a value', { Operator: { eq: { nested: 1 } } }, 'Operator', 'query.bad_condition'],
    ['a string past 256 characters', { Operator: 'x'.repeat(257) }, 'Operator', 'query.bad_condition'],
    ['a NUL character', { Operator: 'a\u0000b' }, 'Operator', 'query.bad_condition'],
    ['a NUL character in a like', { Target: { like: '\u0000' } }, 'Target', 'query.bad_condition'],
  ])('refuses %s with 4000 naming the field', async (_name, value, field, key) => {
    const res = await admin.query(condition(value));
    expect(expectFailure(res, 400, 4000, key).Data).toEqual([{ field, key }]);
  });

  it.each([
    ['not JSON', '{oops'],
    ['a JSON array', '[1,2]'],
    ['a JSON string', '"Operator"'],
    ['a JSON number', '42'],
  ])('refuses a jsonCondition that is %s', async (_name, jsonCondition) => {
    const res = await admin.query({ jsonCondition });
    expect(expectFailure(res, 400, 4000, 'query.bad_condition').Data).toEqual([
      { field: 'jsonCondition', key: 'query.bad_condition' },
    ]);
  });

  it('refuses an unknown orderField naming it', async () => {
    const res = await admin.query({ orderField: 'PasswordHash' });
    expect(expectFailure(res, 400, 4000, 'query.bad_order_field').Data).toEqual([
      { field: 'orderField', key: 'query.bad_order_field' },
    ]);
    const injected = await admin.query({ orderField: 'CreatedAt; drop table sys_log' });
    expectFailure(injected, 400, 4000, 'query.bad_order_field');
  });

  it.each([
    ['pageSize 501', { pageSize: '501' }, 'pageSize'],
    ['pageSize 0', { pageSize: '0' }, 'pageSize'],
    ['pageSize abc', { pageSize: 'abc' }, 'pageSize'],
    ['pageIndex -1', { pageIndex: '-1' }, 'pageIndex'],
    ['pageIndex 1.5', { pageIndex: '1.5' }, 'pageIndex'],
    ['desc maybe', { desc: 'maybe' }, 'desc'],
  ])('refuses %s naming the parameter', async (_name, params, field) => {
    const body = expectFailure(await admin.query(params), 400, 4000);
    expect((body.Data as { field: string }[]).map((d) => d.field)).toEqual([field]);
  });

  it('accepts pageSize 500', async () => {
    expectSuccess(await admin.query({ pageSize: '500' }));
  });
});

describe('QueryData results', () => {
  it('binds values: SQL in a value matches nothing, or only the literal text', async () => {
    const admin = await freshAdmin();
    await insertSysLog(t.db, { E_ID: admin.E_ID, Operator: 'alice' });
    await insertSysLog(t.db, { E_ID: admin.E_ID, Operator: 'bob' });
    const injected = expectSuccess(await admin.query(condition({ Operator: "x' OR 1=1 --" })));
    expect(injected).toMatchObject({ Data: [], Total: 0 });
    const injectedLike = expectSuccess(await admin.query(condition({ Operator: { like: "' OR '1'='1" } })));
    expect(injectedLike).toMatchObject({ Data: [], Total: 0 });

    await insertSysLog(t.db, { E_ID: admin.E_ID, Operator: "x' OR 1=1 --" });
    const literal = expectSuccess(await admin.query(condition({ Operator: "x' OR 1=1 --" })));
    expect((literal.Data as SysLogRow[]).map((r) => r.Operator)).toEqual(["x' OR 1=1 --"]);
    expect(literal.Total).toBe(1);
  });

  it('treats % and _ in a like as literal characters, case-insensitively', async () => {
    const admin = await freshAdmin();
    for (const Operator of ['alice', 'bob', '50%off', 'a_c', 'abc', 'ALICE2', 'back\\slash']) {
      await insertSysLog(t.db, { E_ID: admin.E_ID, Operator, Action: 'test' });
    }
    const operators = async (value: unknown) =>
      (
        expectSuccess(await admin.query({ ...condition({ Operator: value, Action: 'test' }), orderField: 'Operator' }))
          .Data as SysLogRow[]
      )
        .map((r) => r.Operator)
        .sort();
    expect(await operators({ like: '%' })).toEqual(['50%off']);
    expect(await operators({ like: 'a_c' })).toEqual(['a_c']);
    expect(await operators({ like: 'ali' })).toEqual(['ALICE2', 'alice']);
    expect(await operators({ like: '\\' })).toEqual(['back\\slash']);
    expect(await operators({ like: '' })).toHaveLength(7);
  });

  it('applies eq, ne, lt, lte, gt, gte, in and between', async () => {
    const admin = await freshAdmin();
    const base = 1_700_000_000_000;
    for (let i = 1; i <= 5; i++) {
      await insertSysLog(t.db, { E_ID: admin.E_ID, Operator: `op${i}`, Action: 'test', CreatedAt: base + i * 1000 });
    }
    const ops = async (value: Record<string, unknown>) => {
      const body = expectSuccess(
        await admin.query({ ...condition({ ...value, Action: 'test' }), orderField: 'CreatedAt' }),
      );
      return (body.Data as SysLogRow[]).map((r) => r.Operator);
    };
    expect(await ops({ Operator: 'op3' })).toEqual(['op3']);
    expect(await ops({ Operator: { eq: 'op3' } })).toEqual(['op3']);
    expect(await ops({ Operator: { ne: 'op3' } })).toEqual(['op1', 'op2', 'op4', 'op5']);
    expect(await ops({ CreatedAt: { lt: base + 3000 } })).toEqual(['op1', 'op2']);
    expect(await ops({ CreatedAt: { lte: base + 3000 } })).toEqual(['op1', 'op2', 'op3']);
    expect(await ops({ CreatedAt: { gt: base + 3000 } })).toEqual(['op4', 'op5']);
    expect(await ops({ CreatedAt: { gte: String(base + 3000) } })).toEqual(['op3', 'op4', 'op5']);
    expect(await ops({ CreatedAt: { gte: base + 2000, lte: base + 4000 } })).toEqual(['op2', 'op3', 'op4']);
    expect(await ops({ Operator: { in: ['op1', 'op5', 'nobody'] } })).toEqual(['op1', 'op5']);
    expect(await ops({ CreatedAt: { between: [base + 2000, base + 4000] } })).toEqual(['op2', 'op3', 'op4']);
    // null and '' mean "no filter on this field", as the console sends empty search boxes.
    expect(await ops({ Operator: '', Target: null })).toHaveLength(5);
  });

  it('pages with a correct Total and orders as asked', async () => {
    const admin = await freshAdmin();
    const base = 1_700_000_000_000;
    for (let i = 0; i < 25; i++) {
      await insertSysLog(t.db, {
        E_ID: admin.E_ID,
        Operator: `op${String(i).padStart(2, '0')}`,
        Action: 'test',
        CreatedAt: base + i * 1000,
      });
    }
    const page = async (params: Record<string, string>) => {
      const body = expectSuccess(await admin.query({ ...condition({ Action: 'test' }), ...params }));
      return { ops: (body.Data as SysLogRow[]).map((r) => r.Operator), total: body.Total };
    };
    // Defaults: page 0, size 10, newest first.
    const first = await page({});
    expect(first.total).toBe(25);
    expect(first.ops).toEqual(['op24', 'op23', 'op22', 'op21', 'op20', 'op19', 'op18', 'op17', 'op16', 'op15']);
    const last = await page({ pageIndex: '2', pageSize: '10' });
    expect(last).toEqual({ total: 25, ops: ['op04', 'op03', 'op02', 'op01', 'op00'] });
    expect(await page({ pageIndex: '3', pageSize: '10' })).toEqual({ total: 25, ops: [] });
    const ascending = await page({ orderField: 'Operator', desc: 'false', pageSize: '3' });
    expect(ascending).toEqual({ total: 25, ops: ['op00', 'op01', 'op02'] });
    const descending = await page({ orderField: 'Operator', desc: 'true', pageSize: '3' });
    expect(descending).toEqual({ total: 25, ops: ['op24', 'op23', 'op22'] });
    const all = await page({ pageSize: '500' });
    expect(all.ops).toHaveLength(25);
    expect(new Set(all.ops).size).toBe(25);
  });

  it('returns rows with the contract fields and numbers as numbers', async () => {
    const admin = await freshAdmin();
    const id = await insertSysLog(t.db, {
      E_ID: admin.E_ID,
      Operator: 'shape',
      Action: 'test',
      CreatedAt: 1_700_000_000_123,
    });
    const body = expectSuccess(await admin.query(condition({ Action: 'test' })));
    expect(body.Data).toEqual([
      {
        L_ID: id,
        E_ID: admin.E_ID,
        A_ID: null,
        Operator: 'shape',
        Action: 'test',
        Target: '',
        Summary: '',
        IP: '127.0.0.1',
        CreatedAt: 1_700_000_000_123,
      },
    ]);
  });
});

describe('ExportData', () => {
  it('streams CSV with a UTF-8 BOM, the header, the rows, and neutralised formulas', async () => {
    const admin = await freshAdmin();
    await insertSysLog(t.db, {
      E_ID: admin.E_ID,
      Operator: '张三',
      Action: 'test',
      Target: 'plain',
      CreatedAt: 1_700_000_001_000,
    });
    await insertSysLog(t.db, {
      E_ID: admin.E_ID,
      Operator: '=HYPERLINK("http://evil.example","x")',
      Action: 'test',
      Target: '+1+1',
      Summary: '@SUM(A1)',
      CreatedAt: 1_700_000_002_000,
    });
    await insertSysLog(t.db, {
      E_ID: admin.E_ID,
      Operator: '-2',
      Action: 'test',
      Target: 'a,b',
      CreatedAt: 1_700_000_003_000,
    });
    const res = await admin.api.get(
      `/api/SysLog/ExportData?${new URLSearchParams({ ...condition({ Action: 'test' }), orderField: 'CreatedAt', desc: 'false' })}`,
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="SysLog-\d{4}-\d{2}-\d{2}\.csv"$/);
    const bytes = res.rawPayload;
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const lines = bytes.subarray(3).toString('utf8').split('\r\n');
    expect(lines[0]).toBe('L_ID,E_ID,A_ID,Operator,Action,Target,Summary,IP,CreatedAt');
    expect(lines).toHaveLength(5); // header, 3 rows, the empty string after the last CRLF
    expect(lines[4]).toBe('');
    // Times read as a date and time (UTC without utcOffset): 1_700_000_001_000 is 2023-11-14 22:13:21 UTC.
    expect(lines[1]).toMatch(new RegExp(`^\\d+,${admin.E_ID},,张三,test,plain,,127\\.0\\.0\\.1,2023-11-14 22:13:21$`));
    // Formula-looking cells start with a quote mark, then CSV quoting applies.
    expect(lines[2]).toContain(`"'=HYPERLINK(""http://evil.example"",""x"")"`);
    expect(lines[2]).toContain(",'+1+1,'@SUM(A1),");
    expect(lines[3]).toContain(`,'-2,test,"a,b",`);
  });

  it('exports every matching row beyond one chunk, and only those', async () => {
    const admin = await freshAdmin();
    const rows = Array.from({ length: 1005 }, (_, i) => ({
      E_ID: admin.E_ID,
      A_ID: null,
      Operator: `bulk${i}`,
      Action: 'bulk',
      Target: '',
      Summary: '',
      IP: '127.0.0.1',
      CreatedAt: 1_700_000_000_000 + i,
    }));
    for (let i = 0; i < rows.length; i += 200)
      await t.db
        .insertInto('sys_log')
        .values(rows.slice(i, i + 200))
        .execute();
    const res = await admin.api.get(`/api/SysLog/ExportData?${new URLSearchParams(condition({ Action: 'bulk' }))}`);
    expect(res.statusCode).toBe(200);
    const lines = res.rawPayload.subarray(3).toString('utf8').trimEnd().split('\r\n');
    expect(lines).toHaveLength(1 + 1005);
    const operators = new Set(lines.slice(1).map((l) => l.split(',')[3]));
    expect(operators.size).toBe(1005);
    expect(operators.has('bulk0')).toBe(true);
    expect(operators.has('bulk1004')).toBe(true);
  });

  it('streams XLSX on format=xlsx: a zip workbook with the header and the rows', async () => {
    const admin = await freshAdmin();
    await insertSysLog(t.db, { E_ID: admin.E_ID, Operator: '李四', Action: 'test', CreatedAt: 1_700_000_001_000 });
    const res = await admin.api.get(
      `/api/SysLog/ExportData?${new URLSearchParams({ ...condition({ Action: 'test' }), format: 'xlsx' })}`,
    );
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    expect(res.headers['content-disposition']).toMatch(/filename="SysLog-\d{4}-\d{2}-\d{2}\.xlsx"$/);
    expect([...res.rawPayload.subarray(0, 4)]).toEqual([0x50, 0x4b, 0x03, 0x04]);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const sheet = workbook.getWorksheet('SysLog');
    expect(sheet).toBeDefined();
    expect(sheet?.getRow(1).values).toEqual([
      undefined,
      'L_ID',
      'E_ID',
      'A_ID',
      'Operator',
      'Action',
      'Target',
      'Summary',
      'IP',
      'CreatedAt',
    ]);
    expect(sheet?.rowCount).toBe(2);
    expect(sheet?.getRow(2).getCell(4).value).toBe('李四');
    expect(sheet?.getRow(2).getCell(2).value).toBe(admin.E_ID);
    // A date cell showing the reader's wall clock (utcOffset 0 here).
    const created = sheet?.getRow(2).getCell(9);
    expect(created?.value).toEqual(new Date(1_700_000_001_000));
    expect(created?.numFmt).toBe('yyyy-mm-dd hh:mm:ss');
  });

  it('writes times in the reader’s offset from UTC, and refuses an offset no place has', async () => {
    const admin = await freshAdmin();
    await insertSysLog(t.db, { E_ID: admin.E_ID, Operator: 'tz', Action: 'tz', CreatedAt: 1_700_000_001_000 });
    const query = (utcOffset: string) =>
      admin.api.get(`/api/SysLog/ExportData?${new URLSearchParams({ ...condition({ Action: 'tz' }), utcOffset })}`);
    const shanghai = await query('480');
    expect(shanghai.statusCode).toBe(200);
    expect(shanghai.rawPayload.subarray(3).toString('utf8').split('\r\n')[1]).toMatch(/,2023-11-15 06:13:21$/);
    const newYork = await query('-300');
    expect(newYork.rawPayload.subarray(3).toString('utf8').split('\r\n')[1]).toMatch(/,2023-11-14 17:13:21$/);
    for (const bad of ['841', '-841', '1.5', 'east']) {
      expect((expectFailure(await query(bad), 400, 4000).Data as { field: string }[]).map((d) => d.field)).toEqual([
        'utcOffset',
      ]);
    }
  });

  it('answers a bad condition, order or format with a 4000 envelope, not a broken file', async () => {
    const admin = await freshAdmin();
    const bad = await admin.api.get(`/api/SysLog/ExportData?${new URLSearchParams(condition({ Nope: 1 }))}`);
    expect(expectFailure(bad, 400, 4000, 'query.unknown_field').Data).toEqual([
      { field: 'Nope', key: 'query.unknown_field' },
    ]);
    expectFailure(await admin.api.get('/api/SysLog/ExportData?orderField=Nope'), 400, 4000, 'query.bad_order_field');
    const format = await admin.api.get('/api/SysLog/ExportData?format=pdf');
    expect((expectFailure(format, 400, 4000).Data as { field: string }[]).map((d) => d.field)).toEqual(['format']);
  });
});
