import type { ChannelRow } from '@intercom/contract';
import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import {
  authed,
  createAccount,
  enterpriseWithAccount,
  expectSuccess,
  login,
  sysLogOf,
  type TestApp,
} from './helper.js';
import { useTestApp } from './useTestApp.js';

/** Fixtures of the issue-4 API tests (channels, media, location profiles, alarms). */

export type Api = ReturnType<typeof authed>;

export interface Org {
  E_ID: number;
  code: string;
  A_ID: number;
  username: string;
  token: string;
  api: Api;
}

/** A fresh enterprise with one logged-in account (admin unless said otherwise). */
export async function org(t: TestApp, input: { role?: 'admin' | 'editor'; parentId?: number } = {}): Promise<Org> {
  const e = await enterpriseWithAccount(t, {
    role: input.role ?? 'admin',
    parentId: input.parentId ?? null,
    quota: 100_000,
  });
  return { ...e, api: authed(t.app, e.token) };
}

/** Another account (editor by default) of the same enterprise, logged in. */
export async function colleague(t: TestApp, of: Org, role: 'admin' | 'editor' = 'editor'): Promise<Org> {
  const account = await createAccount(t.db, { E_ID: of.E_ID, role });
  const tokens = await login(t.app, { username: account.username, password: account.password, code: of.code });
  return {
    ...of,
    A_ID: account.A_ID,
    username: account.username,
    token: tokens.access_token,
    api: authed(t.app, tokens.access_token),
  };
}

let phoneSeq = 0;

/** Terminal users inserted straight into the database (batched), in order; returns their ids. */
export async function insertUsers(
  t: TestApp,
  E_ID: number,
  count: number,
  fields: { OS_ID?: number | null; PriorityLevel?: number; name?: (i: number) => string } = {},
): Promise<number[]> {
  const ids: number[] = [];
  const now = Date.now();
  for (let start = 0; start < count; start += 500) {
    const rows = Array.from({ length: Math.min(500, count - start) }, (_, k) => {
      phoneSeq += 1;
      const i = start + k;
      return {
        E_ID,
        OS_ID: fields.OS_ID ?? null,
        UserName: fields.name ? fields.name(i) : `u${E_ID}-${phoneSeq}`,
        MobilePhone: `19${String(process.pid % 1000).padStart(3, '0')}${String(phoneSeq).padStart(7, '0')}`,
        ICCID: null,
        UType: 0,
        PriorityLevel: fields.PriorityLevel ?? 0,
        ExpireAt: null,
        IsLock: 0,
        Caps: 0,
        PasswordHash: '',
        GPSConfig: '',
        Remark: '',
        CreatedAt: now,
      };
    });
    const inserted = await t.db.insertInto('terminal_user').values(rows).returning('UserID').execute();
    ids.push(...inserted.map((r) => r.UserID));
  }
  return ids;
}

/** Sets a config entry straight in the database. */
export async function setConfig(t: TestApp, E_ID: number, Code: string, Value: string): Promise<void> {
  await t.db
    .insertInto('sys_config')
    .values({ E_ID, Code, Value })
    .onConflict((oc) => oc.columns(['E_ID', 'Code']).doUpdateSet({ Value }))
    .execute();
}

export function form(values: Record<string, string | number | boolean>): Record<string, string> {
  return Object.fromEntries(Object.entries(values).map(([k, v]) => [k, String(v)]));
}

export function data<T = Record<string, unknown>>(res: LightMyRequestResponse): T {
  return expectSuccess(res).BaseData as T;
}

export function rows<T = Record<string, unknown>>(res: LightMyRequestResponse): { rows: T[]; total: number } {
  const body = expectSuccess(res);
  return { rows: body.Data as T[], total: body.Total ?? 0 };
}

/** Log rows of an enterprise with one action. */
export async function logged(t: TestApp, E_ID: number, action: string) {
  return (await sysLogOf(t.db, E_ID)).filter((r) => r.Action === action);
}

export async function expectLogCount(t: TestApp, E_ID: number, action: string, count: number) {
  expect((await logged(t, E_ID, action)).length, `${action} rows`).toBe(count);
}

/** The members of a channel, by UserID. */
export async function memberIds(t: TestApp, CID: number): Promise<number[]> {
  const found = await t.db
    .selectFrom('channel_member')
    .select('UserID')
    .where('CID', '=', CID)
    .orderBy('UserID')
    .execute();
  return found.map((r) => r.UserID);
}

let channelSeq = 0;
export function channelName(prefix = 'ch'): string {
  channelSeq += 1;
  return `${prefix}${channelSeq}`;
}

/** Creates a channel through SaveChannel (form) and returns it. */
export async function saveChannel(
  api: Api,
  fields: Record<string, string | number | boolean> = {},
): Promise<ChannelRow> {
  return data<ChannelRow>(await api.post('/api/THChannel/SaveChannel', form({ cname: channelName(), ...fields })));
}

/**
 * The app of a channel test file (started before its tests, closed after) with the fixtures above
 * that need it bound to it, as loginFixtures does for the login tests.
 */
export function useChannelApp() {
  const t = useTestApp();
  const bound =
    <A extends unknown[], R>(fixture: (app: TestApp, ...args: A) => R) =>
    (...args: A) =>
      fixture(t, ...args);
  return {
    t,
    org: bound(org),
    colleague: bound(colleague),
    insertUsers: bound(insertUsers),
    setConfig: bound(setConfig),
    logged: bound(logged),
    expectLogCount: bound(expectLogCount),
    memberIds: bound(memberIds),
  };
}
