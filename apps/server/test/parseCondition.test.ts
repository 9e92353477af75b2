import { QUERY_OPS } from '@intercom/contract';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { parseCondition } from '../src/generic/parseCondition.js';
import { AppError } from '../src/http/AppError.js';
import { sysLogEntity } from '../src/modules/syslog/sysLogEntity.js';
import { authed, enterpriseWithAccount, insertSysLog, loginAdmin } from './helper.js';
import { useTestApp } from './useTestApp.js';

const fields = sysLogEntity.fields;
const fieldNames = Object.keys(fields);

/** JSON objects shaped like conditions: known and unknown fields, known and unknown operators, any values. */
const anyJson = fc.jsonValue({ maxDepth: 2, stringUnit: 'binary' });
/** Any code points (NUL and lone surrogates included), and numbers at the edges of the column types. */
const edgyScalar = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 12 }),
  fc.constantFrom(
    0,
    -1,
    2 ** 31 - 1,
    2 ** 31,
    -(2 ** 31) - 1,
    2 ** 53,
    2 ** 63,
    1e300,
    -1e300,
    0.5,
    '1e400',
    ' 7 ',
    '\u0000',
    'a%_\\',
  ),
  fc.integer(),
  fc.double({ noNaN: true }),
);
/** Mostly allowlisted fields (so values reach the database), sometimes anything. */
const conditionLike = fc.dictionary(
  fc.oneof(
    { arbitrary: fc.constantFrom(...fieldNames), weight: 6 },
    { arbitrary: fc.string({ unit: 'binary', maxLength: 8 }), weight: 1 },
  ),
  fc.oneof(
    { arbitrary: edgyScalar, weight: 3 },
    { arbitrary: anyJson, weight: 1 },
    {
      arbitrary: fc.dictionary(
        fc.oneof(
          { arbitrary: fc.constantFrom(...QUERY_OPS), weight: 6 },
          { arbitrary: fc.string({ maxLength: 5 }), weight: 1 },
        ),
        fc.oneof(edgyScalar, anyJson, fc.array(edgyScalar, { minLength: 1, maxLength: 3 })),
        { maxKeys: 2 },
      ),
      weight: 3,
    },
  ),
  { maxKeys: 3 },
);

function outcome(text: string): 'ok' | 'app-error' {
  try {
    parseCondition(text, fields);
    return 'ok';
  } catch (error) {
    if (error instanceof AppError) {
      expect(error.code).toBe(4000);
      expect(error.fields?.length).toBe(1);
      return 'app-error';
    }
    throw error;
  }
}

describe('parseCondition', () => {
  it('never throws anything but a 4000 AppError for any text', () => {
    fc.assert(fc.property(fc.string({ unit: 'binary' }), (text) => void outcome(text)));
  });

  it('never throws anything but a 4000 AppError for any JSON value', () => {
    fc.assert(fc.property(fc.jsonValue({ stringUnit: 'binary' }), (value) => void outcome(JSON.stringify(value))));
  });

  it('never throws anything but a 4000 AppError for condition-shaped objects', () => {
    fc.assert(
      fc.property(conditionLike, (value) => void outcome(JSON.stringify(value))),
      { numRuns: 500 },
    );
  });

  it('only ever yields allowlisted fields and known operators', () => {
    fc.assert(
      fc.property(conditionLike, (value) => {
        try {
          for (const c of parseCondition(JSON.stringify(value), fields)) {
            expect(fieldNames).toContain(c.field);
            expect(QUERY_OPS).toContain(c.op);
          }
        } catch (error) {
          if (!(error instanceof AppError)) throw error;
        }
      }),
      { numRuns: 500 },
    );
  });

  it('names the offending field', () => {
    expect(() => parseCondition('{"Operator":"a","Nope":1}', fields)).toThrow(
      expect.objectContaining({ code: 4000, fields: [{ field: 'Nope', key: 'query.unknown_field' }] }),
    );
  });

  it('turns plain values into eq and operator objects into their conditions', () => {
    expect(parseCondition('{"Operator":"bob","CreatedAt":{"gte":"5","lt":10}}', fields)).toEqual([
      { field: 'Operator', op: 'eq', value: 'bob' },
      { field: 'CreatedAt', op: 'gte', value: 5 },
      { field: 'CreatedAt', op: 'lt', value: 10 },
    ]);
    expect(parseCondition('', fields)).toEqual([]);
    expect(parseCondition('  ', fields)).toEqual([]);
  });
});

describe('QueryData with arbitrary conditions', () => {
  const t = useTestApp();
  let token: string;
  /** A second tenant with log rows just like the demo enterprise's, so a leak would show. */
  let other: { E_ID: number; token: string };
  beforeAll(async () => {
    token = await loginAdmin(t);
    other = await enterpriseWithAccount(t);
    for (const E_ID of [t.demo.E_ID, other.E_ID]) {
      for (const Action of ['login', 'user_save', 'test']) {
        await insertSysLog(t.db, { E_ID, Action, Operator: 'tester', Target: 'a', Summary: '{}' });
      }
    }
  });

  it('answers 200 or 400 (never 500) and only rows of the scope, for each of two tenants', async () => {
    const tenants = [
      { E_ID: t.demo.E_ID, api: authed(t.app, token) },
      { E_ID: other.E_ID, api: authed(t.app, other.token) },
    ];
    // Both tenants see their own rows: the property below checks a real boundary, not an empty table.
    for (const tenant of tenants) {
      const res = await tenant.api.get('/api/SysLog/QueryData?pageSize=500');
      const rows = res.json<{ Data: { E_ID: number }[] }>().Data;
      expect(rows.filter((r) => r.E_ID === tenant.E_ID).length).toBeGreaterThanOrEqual(3);
    }
    // Conditions naming the other tenant's E_ID must not reach its rows either.
    const eids = fc.constantFrom(t.demo.E_ID, other.E_ID);
    const naming = fc.oneof(
      fc.record({ E_ID: eids }),
      fc.record({ E_ID: fc.record({ in: fc.array(eids, { minLength: 1, maxLength: 2 }) }) }),
      fc.record({ E_ID: fc.record({ ne: eids }) }),
    );
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...tenants), fc.oneof(conditionLike, naming), async (tenant, value) => {
        const url = `/api/SysLog/QueryData?pageSize=500&jsonCondition=${encodeURIComponent(JSON.stringify(value))}`;
        const res = await tenant.api.get(url);
        expect([200, 400], res.body).toContain(res.statusCode);
        const body = res.json<{ BaseResult: { Code: number }; Data?: { E_ID: number }[] }>();
        if (res.statusCode === 200) {
          expect(body.BaseResult.Code).toBe(8888);
          expect(body.Data?.filter((r) => r.E_ID !== tenant.E_ID)).toEqual([]);
        } else {
          expect(body.BaseResult.Code).toBe(4000);
        }
      }),
      { numRuns: 200 },
    );
  });

  it('answers 200 or 400 for numbers at the edges of every numeric field', async () => {
    const api = authed(t.app, token);
    const edges = [0, -1, 2 ** 31 - 1, 2 ** 31, -(2 ** 31) - 1, 2 ** 53 - 1, 2 ** 53, 2 ** 63, 1e300, -1e300, 1e-7];
    const failures: string[] = [];
    for (const field of fieldNames.filter((f) => fields[f] !== 'string')) {
      for (const edge of edges) {
        for (const cond of [{ [field]: edge }, { [field]: { gt: edge } }, { [field]: { in: [1, edge] } }]) {
          const res = await api.get(`/api/SysLog/QueryData?jsonCondition=${encodeURIComponent(JSON.stringify(cond))}`);
          if (res.statusCode !== 200 && res.statusCode !== 400)
            failures.push(`${JSON.stringify(cond)}: ${res.statusCode}`);
        }
      }
    }
    expect(failures).toEqual([]);
  });

  it('refuses a number outside the column range with validation.out_of_range naming the field', async () => {
    const api = authed(t.app, token);
    const query = (cond: unknown) =>
      api.get(`/api/SysLog/QueryData?jsonCondition=${encodeURIComponent(JSON.stringify(cond))}`);
    // E_ID is a 32-bit column, L_ID and CreatedAt are 64-bit ones (safe integers only).
    for (const cond of [
      { E_ID: 2 ** 31 },
      { E_ID: { gte: -(2 ** 31) - 1 } },
      { L_ID: 2 ** 53 },
      { CreatedAt: { in: [1, 1e300] } },
    ]) {
      const res = await query(cond);
      const field = Object.keys(cond)[0] ?? '';
      expect(res.statusCode, JSON.stringify(cond)).toBe(400);
      expect(res.json<{ Data: unknown }>().Data).toEqual([{ field, key: 'validation.out_of_range' }]);
    }
    for (const cond of [
      { E_ID: 2 ** 31 - 1 },
      { E_ID: -(2 ** 31) },
      { L_ID: 2 ** 53 - 1 },
      { CreatedAt: { gt: 2 ** 52 } },
    ]) {
      const res = await query(cond);
      expect(res.statusCode, JSON.stringify(cond)).toBe(200);
      expect(res.json<{ Total: number }>().Total).toBe(0);
    }
  });
});
