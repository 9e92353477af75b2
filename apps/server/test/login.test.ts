import { describe, expect, it } from 'vitest';
import {
  authed,
  encryptLogin,
  expectFailure,
  expectSuccess,
  loginPayload,
  loginRaw,
  postLogin,
  sysLogOf,
} from './helper.js';
import { useLoginApp } from './loginFixtures.js';

// Envelope checks: loginEnvelope.test.ts; account lock and per-IP limit: loginLocks.test.ts.
const { t, freshAccount, form, spki } = useLoginApp();

describe('login', () => {
  it('publishes an RSA-OAEP-256 public key', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/UAuth/PublicKey' });
    const body = expectSuccess(res);
    expect(body.BaseData).toMatchObject({ alg: 'RSA-OAEP-256', keyId: expect.any(String), spki: expect.any(String) });
  });

  it('succeeds with the right password: token in Message and access_token, LoginInfo answers', async () => {
    const res = await loginRaw(t.app, { username: 'admin', password: t.demo.password, code: 'DEMO' });
    expect(res.statusCode).toBe(200);
    const body = res.json<Record<string, unknown>>();
    expect(body.Code).toBe(8888);
    expect(typeof body.access_token).toBe('string');
    expect((body.access_token as string).length).toBeGreaterThanOrEqual(32);
    expect(body.Message).toBe(body.access_token);
    expect(typeof body.refresh_token).toBe('string');
    expect(body.refresh_token).not.toBe(body.access_token);
    expect(body.expires_in).toBe(30 * 60);

    const info = expectSuccess(await authed(t.app, body.access_token as string).get('/api/Account/LoginInfo'));
    expect(info.BaseData).toEqual({
      E_ID: t.demo.E_ID,
      E_Code: 'DEMO',
      E_Name: 'Demo Enterprise',
      A_ID: t.demo.A_ID,
      IsAdmin: true,
      role: 'admin',
      roles: ['admin'],
      name: 'Administrator',
      account: 'admin',
      HasChildren: false,
    });
  });

  it('gives an editor IsAdmin false and role editor', async () => {
    const a = await freshAccount('editor');
    const res = await loginRaw(t.app, { username: a.username, password: a.password, code: a.code });
    const token = res.json<{ access_token: string }>().access_token;
    const info = expectSuccess(await authed(t.app, token).get('/api/Account/LoginInfo'));
    expect(info.BaseData).toMatchObject({
      E_ID: a.E_ID,
      A_ID: a.A_ID,
      IsAdmin: false,
      role: 'editor',
      roles: ['editor'],
    });
    // No display name set: the login name stands in.
    expect(info.BaseData).toMatchObject({ name: a.username, account: a.username });
  });

  it('refuses a wrong password without a token and counts the failure', async () => {
    const a = await freshAccount();
    const res = await loginRaw(t.app, { username: a.username, password: 'Wrong#pass1', code: a.code });
    const body = expectFailure(res, 403, 4003, 'login.wrong_credentials');
    expect(res.body).not.toContain('access_token');
    expect(body.BaseResult.Message).toBe('login.wrong_credentials');
    const row = await t.db
      .selectFrom('account')
      .select('FailedCount')
      .where('A_ID', '=', a.A_ID)
      .executeTakeFirstOrThrow();
    expect(row.FailedCount).toBe(1);
  });

  it('answers an unknown company code and an unknown user exactly like a wrong password', async () => {
    const a = await freshAccount();
    const unknownCode = await loginRaw(t.app, { username: a.username, password: a.password, code: 'NO_SUCH_CODE' });
    expectFailure(unknownCode, 403, 4003, 'login.wrong_credentials');
    const unknownUser = await loginRaw(t.app, { username: 'nobody', password: a.password, code: a.code });
    expectFailure(unknownUser, 403, 4003, 'login.wrong_credentials');
    // The right user in another enterprise is not found either.
    const otherEnterprise = await loginRaw(t.app, { username: a.username, password: a.password, code: 'DEMO' });
    expectFailure(otherEnterprise, 403, 4003, 'login.wrong_credentials');
  });

  it('trims spaces around the username and the company code', async () => {
    const a = await freshAccount();
    const res = await loginRaw(t.app, { username: `  ${a.username}  `, password: a.password, code: ` ${a.code} ` });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<{ Code: number }>().Code).toBe(8888);
  });

  it('answers a NUL character in the username or code like any unknown account, never 500', async () => {
    const a = await freshAccount();
    const nulUser = await loginRaw(t.app, { username: `${a.username}\u0000`, password: a.password, code: a.code });
    expectFailure(nulUser, 403, 4003, 'login.wrong_credentials');
    const nulCode = await loginRaw(t.app, { username: a.username, password: a.password, code: `${a.code}\u0000` });
    expectFailure(nulCode, 403, 4003, 'login.wrong_credentials');
  });

  it('logs a failed login of an unknown account, a disabled account and a locked account under the enterprise', async () => {
    const a = await freshAccount();
    await loginRaw(t.app, { username: 'ghost', password: 'Wrong#pass1', code: a.code });
    await t.db.updateTable('account').set({ Disabled: 1 }).where('A_ID', '=', a.A_ID).execute();
    await loginRaw(t.app, { username: a.username, password: a.password, code: a.code });
    await t.db
      .updateTable('account')
      .set({ Disabled: 0, LockedUntil: Date.now() + 60_000 })
      .where('A_ID', '=', a.A_ID)
      .execute();
    await loginRaw(t.app, { username: a.username, password: a.password, code: a.code });
    const rows = await sysLogOf(t.db, a.E_ID);
    expect(rows.map((r) => [r.Action, r.A_ID, r.Operator])).toEqual([
      ['login_failed', null, 'ghost'],
      ['login_failed', a.A_ID, a.username],
      ['login_failed', a.A_ID, a.username],
    ]);
    expect(rows.map((r) => (JSON.parse(r.Summary) as { reason: string }).reason)).toEqual([
      'unknown_account',
      'disabled',
      'locked',
    ]);
  });

  it('takes the company code from the form when the envelope leaves it empty', async () => {
    const a = await freshAccount();
    const payload = loginPayload({ username: a.username, password: a.password, code: '' });
    const res = await postLogin(t.app, form(encryptLogin(spki(), payload), a.code));
    expect(res.statusCode, res.body).toBe(200);
    const neither = loginPayload({ username: a.username, password: a.password, code: '' });
    expectFailure(
      await postLogin(t.app, form(encryptLogin(spki(), neither), '')),
      403,
      4003,
      'login.wrong_credentials',
    );
  });

  it('does not trim the password', async () => {
    const a = await freshAccount();
    const res = await loginRaw(t.app, { username: a.username, password: ` ${a.password} `, code: a.code });
    expectFailure(res, 403, 4003, 'login.wrong_credentials');
  });

  it('refuses a disabled account even with the right password', async () => {
    const a = await freshAccount();
    await t.db.updateTable('account').set({ Disabled: 1 }).where('A_ID', '=', a.A_ID).execute();
    const res = await loginRaw(t.app, { username: a.username, password: a.password, code: a.code });
    expectFailure(res, 403, 4003, 'login.disabled');
  });

  it('refuses an account of an expired or disabled enterprise', async () => {
    const a = await freshAccount();
    await t.db
      .updateTable('enterprise')
      .set({ ExpireAt: Date.now() - 1000 })
      .where('E_ID', '=', a.E_ID)
      .execute();
    expectFailure(
      await loginRaw(t.app, { username: a.username, password: a.password, code: a.code }),
      403,
      4003,
      'login.enterprise_expired',
    );
    await t.db.updateTable('enterprise').set({ ExpireAt: null, Disabled: 1 }).where('E_ID', '=', a.E_ID).execute();
    expectFailure(
      await loginRaw(t.app, { username: a.username, password: a.password, code: a.code }),
      403,
      4003,
      'login.enterprise_expired',
    );
  });
});

describe('login failure body', () => {
  it('carries Code, Message and Params at the top level as DESIGN.md says, and the envelope too', async () => {
    const a = await freshAccount();
    const wrong = await loginRaw(t.app, { username: a.username, password: 'Wrong#pass1', code: a.code });
    expect(wrong.json()).toEqual({
      Code: 4003,
      Message: 'login.wrong_credentials',
      BaseResult: { Code: 4003, Message: 'login.wrong_credentials' },
    });
    await t.db
      .updateTable('account')
      .set({ LockedUntil: Date.now() + 3 * 60_000 })
      .where('A_ID', '=', a.A_ID)
      .execute();
    const locked = await loginRaw(t.app, { username: a.username, password: a.password, code: a.code });
    expect(locked.json()).toMatchObject({ Code: 4029, Message: 'login.locked', Params: { minutes: 3 } });
    const missing = await postLogin(t.app, { appId: 'console' });
    expect(missing.json()).toMatchObject({ Code: 4000, Message: 'validation.required' });
    const refresh = await t.app.inject({
      method: 'POST',
      url: '/api/UAuth/Refresh',
      payload: { refresh_token: 'nope' },
    });
    expect(refresh.json()).toMatchObject({ Code: 50008, Message: 'login.refresh_invalid' });
  });

  it('keeps the plain envelope on other routes', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/Account/LoginInfo' });
    expect(res.json()).toEqual({ BaseResult: { Code: 50008, Message: 'error.token_missing' } });
  });
});
