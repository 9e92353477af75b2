import type { UserRow } from '@intercom/contract';
import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import { authed, enterpriseWithAccount, expectSuccess, sysLogOf, type TestApp } from './helper.js';

/** Fixtures of the issue-3 API tests (enterprises, departments, users, devices, accounts). */

export type Api = ReturnType<typeof authed>;

export interface Tenant {
  E_ID: number;
  code: string;
  A_ID: number;
  username: string;
  password: string;
  token: string;
  api: Api;
}

/** A fresh enterprise with one logged-in account (admin unless said otherwise). */
export async function tenant(
  t: TestApp,
  input: { role?: 'admin' | 'editor'; parentId?: number | null; quota?: number } = {},
): Promise<Tenant> {
  const e = await enterpriseWithAccount(t, input);
  return { ...e, api: authed(t.app, e.token) };
}

let phoneCounter = 0;
/** A phone number no other test uses (11 digits). */
export function uniquePhone(): string {
  phoneCounter += 1;
  return `1${String(process.pid % 1000).padStart(3, '0')}${String(phoneCounter).padStart(7, '0')}`;
}

let iccidCounter = 0;
/** A valid ICCID of 19 (default) or 20 characters no other test uses. */
export function uniqueIccid(length = 19): string {
  iccidCounter += 1;
  const body = `8986${String(process.pid % 100000).padStart(5, '0')}${String(iccidCounter).padStart(6, '0')}`;
  return body.padEnd(length, '7').slice(0, length);
}

export function body<T = Record<string, unknown>>(res: LightMyRequestResponse): T {
  return expectSuccess(res).BaseData as T;
}

/** Creates a user through POST /api/UserInfo/Save (JSON) and returns its row. */
export async function addUser(api: Api, fields: Record<string, unknown> = {}): Promise<UserRow> {
  const phone = uniquePhone();
  const res = await api.postJson('/api/UserInfo/Save', {
    UserName: `user ${phone}`,
    MobilePhone: phone,
    Password: 'term-123',
    ...fields,
  });
  return body<UserRow>(res);
}

/** Creates a department through POST /api/Organ/Save (form) and returns its OSID. */
export async function addOrgan(api: Api, fields: Record<string, string | number> = {}): Promise<number> {
  const form = Object.fromEntries(
    Object.entries({ OSName: `dept ${uniquePhone()}`, ...fields }).map(([k, v]) => [k, String(v)]),
  );
  const res = await api.post('/api/Organ/Save', form);
  return body<{ OSID: number }>(res).OSID;
}

/** The newest system-log row of an enterprise, checked to carry the action. */
export async function expectLogged(t: TestApp, E_ID: number, action: string, target?: string) {
  const rows = await sysLogOf(t.db, E_ID);
  const row = rows.filter((r) => r.Action === action).at(-1);
  expect(row, `a ${action} row in the system log`).toBeDefined();
  if (target !== undefined) expect(row?.Target).toBe(target);
  return row as NonNullable<typeof row>;
}

export async function countRows(
  t: TestApp,
  table: 'terminal_user' | 'device' | 'organ' | 'account',
  E_ID: number,
): Promise<number> {
  const row = await t.db
    .selectFrom(table)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('E_ID', '=', E_ID)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}
