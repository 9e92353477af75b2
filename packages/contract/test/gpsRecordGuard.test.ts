import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { gpsRecordSchema, isGpsRecord } from '../src/index.js';

const valid = {
  U_ID: 7,
  E_ID: 1,
  Phone: '13600000007',
  UserName: 'Bench7',
  lat: 22.5,
  lon: 114.05,
  time: 1_700_000_000_000,
  speed: 30,
  course: null,
  battery: 80,
  signal: null,
  online: true,
  talking: false,
  gpsOnline: true,
  interval: 30,
};

/** Values a field may wrongly (or rightly) hold: edges of every rule the schema has. */
const anyValue = fc.oneof(
  fc.constantFrom(null, undefined, true, false, '', '1', NaN, Infinity, -Infinity, -0.5, 0, 1, 1.5, -1, 90, 90.1),
  fc.constantFrom(-90, -90.1, 180, 180.1, -180.1, 100, 100.1, 2 ** 53, -(2 ** 53), [], {}),
  fc.double(),
  fc.integer(),
  fc.string(),
);

describe('isGpsRecord', () => {
  it('accepts a valid record and what zod accepts', () => {
    expect(isGpsRecord(valid)).toBe(true);
    expect(isGpsRecord({ ...valid, extra: 1 })).toBe(gpsRecordSchema.safeParse({ ...valid, extra: 1 }).success);
  });

  it('agrees with gpsRecordSchema whatever one or two fields hold', () => {
    const keys = Object.keys(valid) as (keyof typeof valid)[];
    fc.assert(
      fc.property(fc.constantFrom(...keys), anyValue, fc.constantFrom(...keys), anyValue, (k1, v1, k2, v2) => {
        const record: Record<string, unknown> = { ...valid, [k1]: v1, [k2]: v2 };
        if (v1 === undefined) delete record[k1];
        expect(isGpsRecord(record)).toBe(gpsRecordSchema.safeParse(record).success);
      }),
      { numRuns: 5000 },
    );
  });

  it('refuses what is not an object', () => {
    for (const value of [null, undefined, 1, 'x', [valid]]) {
      expect(isGpsRecord(value)).toBe(gpsRecordSchema.safeParse(value).success);
    }
  });
});
