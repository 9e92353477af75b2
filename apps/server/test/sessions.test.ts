import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import { hashToken } from '../src/auth/tokens.js';
import {
  authed,
  buildTestApp,
  call,
  createAccount,
  createEnterprise,
  expectFailure,
  expectSuccess,
  login,
  sysLogOf,
} from './helper.js';
import { useTestApp } from './useTestApp.js';

const t = useTestApp();

const minute = 60_000;

async function freshLogin(role: 'admin' | 'editor' = 'admin') {
  const enterprise = await createEnterprise(t.db);
  const account = await createAccount(t.db, { E_ID: enterprise.E_ID, role, password: 'Start#2026pw' });
  const credentials = { username: account.username, password: account.password, code: enterprise.code };
  const tokens = await login(t.app, credentials);
  return { ...enterprise, ...account, credentials, tokens };
}

async function setSession(token: string, values: { LastSeenAt?: number; ExpiresAt?: number }) {
  await t.db.updateTable('session').set(values).where('TokenHash', '=', hashToken(token)).execute();
}

const loginInfo = (app: FastifyInstance, token: string) => authed(app, token).get('/api/Account/LoginInfo');

describe('50008: missing or unknown token', () => {
  it('answers 401 / 50008 without a token', async () => {
    expectFailure(
      await call(t.app, { method: 'GET', url: '/api/Account/LoginInfo' }),
      401,
      50008,
      'error.token_missing',
    );
  });

  it('answers 401 / 50008 for an unknown token, an empty bearer and another scheme', async () => {
    expectFailure(await loginInfo(t.app, 'not-a-token'), 401, 50008, 'error.token_missing');
    const emptyBearer = await call(t.app, {
      method: 'GET',
      url: '/api/Account/LoginInfo',
      headers: { authorization: 'Bearer ' },
    });
    expectFailure(emptyBearer, 401, 50008);
    const { tokens } = await freshLogin();
    const basic = await call(t.app, {
      method: 'GET',
      url: '/api/Account/LoginInfo',
      headers: { authorization: `Basic ${tokens.access_token}` },
    });
    expectFailure(basic, 401, 50008);
  });

  it('does not accept the refresh token as an access token', async () => {
    const { tokens } = await freshLogin();
    expectFailure(await loginInfo(t.app, tokens.refresh_token), 401, 50008);
  });

  it('stores only token hashes', async () => {
    const { tokens, A_ID } = await freshLogin();
    const rows = await t.db.selectFrom('session').selectAll().where('A_ID', '=', A_ID).execute();
    expect(rows).toHaveLength(1);
    const text = JSON.stringify(rows);
    expect(text).not.toContain(tokens.access_token);
    expect(text).not.toContain(tokens.refresh_token);
  });
});

describe('50014: expired session', () => {
  it('ends a session idle for more than 30 minutes', async () => {
    const { tokens } = await freshLogin();
    await setSession(tokens.access_token, { LastSeenAt: Date.now() - 31 * minute });
    expectFailure(await loginInfo(t.app, tokens.access_token), 401, 50014, 'error.token_expired');
    // It stays ended even if the client comes back.
    await setSession(tokens.access_token, { LastSeenAt: Date.now() });
    expectFailure(await loginInfo(t.app, tokens.access_token), 401, 50014, 'error.token_expired');
  });

  it('keeps a session idle for 29 minutes alive and counts the request as activity', async () => {
    const { tokens } = await freshLogin();
    await setSession(tokens.access_token, { LastSeenAt: Date.now() - 29 * minute });
    expectSuccess(await loginInfo(t.app, tokens.access_token));
    const row = await t.db
      .selectFrom('session')
      .select('LastSeenAt')
      .where('TokenHash', '=', hashToken(tokens.access_token))
      .executeTakeFirstOrThrow();
    expect(Date.now() - Number(row.LastSeenAt)).toBeLessThan(minute);
  });

  it('ends a session past its absolute lifetime even when active', async () => {
    const { tokens } = await freshLogin();
    await setSession(tokens.access_token, { ExpiresAt: Date.now() - 1000, LastSeenAt: Date.now() });
    expectFailure(await loginInfo(t.app, tokens.access_token), 401, 50014, 'error.token_expired');
  });

  it('gives a session 12 hours of absolute lifetime', async () => {
    const { A_ID } = await freshLogin();
    const row = await t.db
      .selectFrom('session')
      .select(['CreatedAt', 'ExpiresAt'])
      .where('A_ID', '=', A_ID)
      .executeTakeFirstOrThrow();
    expect(Number(row.ExpiresAt) - Number(row.CreatedAt)).toBe(12 * 60 * minute);
  });

  it('honours configured timeouts', async () => {
    const short = await buildTestApp({ env: { SESSION_IDLE_MINUTES: '5', SESSION_ABSOLUTE_MINUTES: '60' } });
    try {
      const tokens = await login(short.app, { username: 'admin', password: short.demo.password, code: 'DEMO' });
      expect(tokens.expires_in).toBe(300);
      await short.db
        .updateTable('session')
        .set({ LastSeenAt: Date.now() - 6 * minute })
        .where('TokenHash', '=', hashToken(tokens.access_token))
        .execute();
      expectFailure(await loginInfo(short.app, tokens.access_token), 401, 50014);
    } finally {
      await short.close();
    }
  });
});

describe('50012: replaced by a second login', () => {
  it('ends the first session when the same account logs in again', async () => {
    const { tokens: first, credentials } = await freshLogin();
    const second = await login(t.app, credentials);
    expectFailure(await loginInfo(t.app, first.access_token), 401, 50012, 'error.session_replaced');
    expectSuccess(await loginInfo(t.app, second.access_token));
  });

  it('does not touch sessions of other accounts', async () => {
    const one = await freshLogin();
    const other = await createAccount(t.db, { E_ID: one.E_ID, password: 'Other#2026pw' });
    await login(t.app, { username: other.username, password: other.password, code: one.code });
    expectSuccess(await loginInfo(t.app, one.tokens.access_token));
  });
});

describe('1001: session ended', () => {
  it('after logout, and logout writes a system-log row', async () => {
    const { tokens, E_ID, username } = await freshLogin();
    const res = await authed(t.app, tokens.access_token).post('/api/Account/Logout');
    expect(expectSuccess(res).BaseResult.Message).toBe('common.oper_success');
    expectFailure(await loginInfo(t.app, tokens.access_token), 401, 1001, 'error.session_ended');
    // A second logout with the same token is refused too.
    expectFailure(await authed(t.app, tokens.access_token).post('/api/Account/Logout'), 401, 1001);
    const logouts = (await sysLogOf(t.db, E_ID)).filter((r) => r.Action === 'logout');
    expect(logouts).toHaveLength(1);
    expect(logouts[0]).toMatchObject({ Operator: username, IP: '127.0.0.1' });
  });

  it('after a password change', async () => {
    const { tokens } = await freshLogin();
    const change = await authed(t.app, tokens.access_token).post(
      '/api/Account/ChangePassword?OldPassword=Start%232026pw&NewPassword=Next%232026pw',
    );
    expectSuccess(change);
    expectFailure(await loginInfo(t.app, tokens.access_token), 401, 1001, 'error.session_ended');
  });

  it('after the account is disabled, and the session stays ended', async () => {
    const { tokens, A_ID } = await freshLogin();
    await t.db.updateTable('account').set({ Disabled: 1 }).where('A_ID', '=', A_ID).execute();
    expectFailure(await loginInfo(t.app, tokens.access_token), 401, 1001, 'error.session_ended');
    await t.db.updateTable('account').set({ Disabled: 0 }).where('A_ID', '=', A_ID).execute();
    expectFailure(await loginInfo(t.app, tokens.access_token), 401, 1001, 'error.session_ended');
  });
});

describe('refresh', () => {
  const refresh = (token: string) =>
    call(t.app, {
      method: 'POST',
      url: '/api/UAuth/Refresh',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ refresh_token: token }).toString(),
    });

  it('issues new tokens that work; the old refresh and access tokens are refused', async () => {
    const { tokens, A_ID } = await freshLogin();
    const res = await refresh(tokens.refresh_token);
    expect(res.statusCode, res.body).toBe(200);
    const next = res.json<{
      Code: number;
      Message: string;
      access_token: string;
      refresh_token: string;
      expires_in: number;
    }>();
    expect(next.Code).toBe(8888);
    expect(next.Message).toBe(next.access_token);
    expect(next.access_token).not.toBe(tokens.access_token);
    expect(next.refresh_token).not.toBe(tokens.refresh_token);
    expect(next.expires_in).toBe(30 * 60);

    const info = expectSuccess(await loginInfo(t.app, next.access_token));
    expect(info.BaseData).toMatchObject({ A_ID });
    expectFailure(await loginInfo(t.app, tokens.access_token), 401, 50008);
    expectFailure(await refresh(tokens.refresh_token), 401, 50008, 'login.refresh_invalid');
    // The new refresh token is good exactly once more.
    expect((await refresh(next.refresh_token)).statusCode).toBe(200);
  });

  it('refuses a refresh token of a session that ended or expired', async () => {
    const loggedOut = await freshLogin();
    await authed(t.app, loggedOut.tokens.access_token).post('/api/Account/Logout');
    expectFailure(await refresh(loggedOut.tokens.refresh_token), 401, 1001);

    const replaced = await freshLogin();
    await login(t.app, replaced.credentials);
    expectFailure(await refresh(replaced.tokens.refresh_token), 401, 50012);

    const idle = await freshLogin();
    await setSession(idle.tokens.access_token, { LastSeenAt: Date.now() - 31 * minute });
    expectFailure(await refresh(idle.tokens.refresh_token), 401, 50014);

    const frozen = await freshLogin();
    await t.db.updateTable('account').set({ Disabled: 1 }).where('A_ID', '=', frozen.A_ID).execute();
    expectFailure(await refresh(frozen.tokens.refresh_token), 401, 1001, 'error.session_ended');

    const old = await freshLogin();
    await setSession(old.tokens.access_token, { ExpiresAt: Date.now() - 1 });
    expectFailure(await refresh(old.tokens.refresh_token), 401, 50014);
  });

  it('refuses an unknown and a missing refresh token', async () => {
    expectFailure(await refresh('unknown-token'), 401, 50008, 'login.refresh_invalid');
    const missing = await call(t.app, { method: 'POST', url: '/api/UAuth/Refresh', payload: {} });
    expectFailure(missing, 400, 4000);
  });
});
