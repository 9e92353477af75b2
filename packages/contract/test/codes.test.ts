import { describe, expect, it } from 'vitest';
import { Code, Limits, MessageKeys, SESSION_ENDED_CODES, httpStatusOf, queryParamsSchema } from '../src/index.js';

describe('codes', () => {
  it('pairs every code with the HTTP status of DESIGN.md section 4', () => {
    expect(httpStatusOf).toEqual({
      8888: 200,
      1001: 401,
      50008: 401,
      50012: 401,
      50014: 401,
      4000: 400,
      4003: 403,
      4004: 404,
      4009: 409,
      4029: 429,
      5000: 500,
    });
  });

  it('lists the session-ended codes of SPEC.md section 9', () => {
    expect([...SESSION_ENDED_CODES].sort()).toEqual([1001, 50008, 50012, 50014]);
    expect(Code.Success).toBe(8888);
  });

  it('uses area.thing message keys, all distinct', () => {
    const keys = Object.values(MessageKeys);
    for (const key of keys) expect(key).toMatch(/^[a-z]+\.[a-z_]+$/);
    expect(new Set(keys).size).toBe(keys.length);
    expect(MessageKeys.lpsdNotEmpty).toBe('managent.lpsd_notempty');
    expect(MessageKeys.lcpsdNotCorrect).toBe('managent.lcpsd_notcorrect');
    expect(MessageKeys.psdNotEqual).toBe('managent.psd_notequal');
  });
});

describe('queryParamsSchema', () => {
  it('defaults to page 0 of 10, default order', () => {
    expect(queryParamsSchema.parse({})).toEqual({
      jsonCondition: '',
      pageIndex: 0,
      pageSize: 10,
      orderField: '',
      desc: false,
    });
  });

  it('caps pageSize at 500', () => {
    expect(Limits.maxPageSize).toBe(500);
    expect(queryParamsSchema.safeParse({ pageSize: '500' }).success).toBe(true);
    expect(queryParamsSchema.safeParse({ pageSize: '501' }).success).toBe(false);
    expect(queryParamsSchema.safeParse({ pageSize: '0' }).success).toBe(false);
  });

  it('reads desc as true, 1, false, 0 or empty', () => {
    expect(queryParamsSchema.parse({ desc: 'true' }).desc).toBe(true);
    expect(queryParamsSchema.parse({ desc: '1' }).desc).toBe(true);
    expect(queryParamsSchema.parse({ desc: '0' }).desc).toBe(false);
    expect(queryParamsSchema.safeParse({ desc: 'yes' }).success).toBe(false);
  });
});
