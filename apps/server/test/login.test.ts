import { constants, createCipheriv, generateKeyPairSync, publicEncrypt, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  authed,
  buildTestApp,
  createAccount,
  createEnterprise,
  encryptLogin,
  expectFailure,
  expectSuccess,
  loginPayload,
  loginRaw,
  postLogin,
  publicKeyOf,
  sysLogOf,
  type TestApp,
} from './helper.js';

let t: TestApp;
let spki: string;

beforeAll(async () => {
  t = await buildTestApp();
  spki = await publicKeyOf(t.app);
});
afterAll(async () => {
  await t.close();
});

/** A fresh enterprise with one editor, so tests that lock or fail logins never disturb each other. */
async function freshAccount(role: 'admin' | 'editor' = 'editor') {
  const enterprise = await createEnterprise(t.db);
  const account = await createAccount(t.db, { E_ID: enterprise.E_ID, role });
  return { ...enterprise, ...account };
}

function form(envelope: { appSecret: string; data: string }, companyId = 'DEMO') {
  return { appId: 'console', companyId, ...envelope };
}

const adminPayload = () => loginPayload({ username: 'admin', password: t.demo.password, code: 'DEMO' });

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
    const res = await postLogin(t.app, form(encryptLogin(spki, payload), a.code));
    expect(res.statusCode, res.body).toBe(200);
    const neither = loginPayload({ username: a.username, password: a.password, code: '' });
    expectFailure(await postLogin(t.app, form(encryptLogin(spki, neither), '')), 403, 4003, 'login.wrong_credentials');
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

describe('account lock', () => {
  it('locks after 5 consecutive failures for 15 minutes, refuses the right password meanwhile, unlocks after', async () => {
    const a = await freshAccount();
    for (let i = 1; i <= 4; i++) {
      const res = await loginRaw(t.app, { username: a.username, password: `Wrong#pass${i}`, code: a.code });
      expectFailure(res, 403, 4003, 'login.wrong_credentials');
    }
    const fifth = await loginRaw(t.app, { username: a.username, password: 'Wrong#pass5', code: a.code });
    const locked = expectFailure(fifth, 429, 4029, 'login.locked');
    expect(locked.BaseResult.Params).toEqual({ minutes: 15 });

    const stored = await t.db
      .selectFrom('account')
      .select('LockedUntil')
      .where('A_ID', '=', a.A_ID)
      .executeTakeFirstOrThrow();
    expect(Number(stored.LockedUntil) - Date.now()).toBeGreaterThan(14 * 60_000);
    expect(Number(stored.LockedUntil) - Date.now()).toBeLessThanOrEqual(15 * 60_000);

    const rightWhileLocked = await loginRaw(t.app, { username: a.username, password: a.password, code: a.code });
    const refused = expectFailure(rightWhileLocked, 429, 4029, 'login.locked');
    expect(refused.BaseResult.Params).toEqual({ minutes: 15 });
    expect(rightWhileLocked.body).not.toContain('access_token');

    // Minutes left are rounded up: 7.5 minutes left reads 8.
    await t.db
      .updateTable('account')
      .set({ LockedUntil: Date.now() + 7.5 * 60_000 })
      .where('A_ID', '=', a.A_ID)
      .execute();
    const later = await loginRaw(t.app, { username: a.username, password: a.password, code: a.code });
    expect(expectFailure(later, 429, 4029, 'login.locked').BaseResult.Params).toEqual({ minutes: 8 });

    // The 15 minutes are over.
    await t.db
      .updateTable('account')
      .set({ LockedUntil: Date.now() - 1000 })
      .where('A_ID', '=', a.A_ID)
      .execute();
    const afterLock = await loginRaw(t.app, { username: a.username, password: a.password, code: a.code });
    expect(afterLock.statusCode, afterLock.body).toBe(200);
    const cleared = await t.db
      .selectFrom('account')
      .select(['FailedCount', 'LockedUntil'])
      .where('A_ID', '=', a.A_ID)
      .executeTakeFirstOrThrow();
    expect(cleared).toEqual({ FailedCount: 0, LockedUntil: null });

    // Five wrong passwords, then two refused attempts while locked.
    const failures = (await sysLogOf(t.db, a.E_ID)).filter((r) => r.Action === 'login_failed');
    expect(failures.map((r) => (JSON.parse(r.Summary) as { reason: string }).reason)).toEqual([
      'wrong_password',
      'wrong_password',
      'wrong_password',
      'wrong_password',
      'wrong_password',
      'locked',
      'locked',
    ]);
  });

  it('a success in between resets the count of consecutive failures', async () => {
    const a = await freshAccount();
    for (let i = 0; i < 4; i++) {
      await loginRaw(t.app, { username: a.username, password: 'Wrong#pass0', code: a.code });
    }
    expect((await loginRaw(t.app, { username: a.username, password: a.password, code: a.code })).statusCode).toBe(200);
    for (let i = 0; i < 4; i++) {
      const res = await loginRaw(t.app, { username: a.username, password: 'Wrong#pass0', code: a.code });
      expectFailure(res, 403, 4003, 'login.wrong_credentials');
    }
  });

  it('after the lock ends, the next failure starts counting from zero', async () => {
    const a = await freshAccount();
    for (let i = 0; i < 5; i++) await loginRaw(t.app, { username: a.username, password: 'Wrong#pass0', code: a.code });
    await t.db
      .updateTable('account')
      .set({ LockedUntil: Date.now() - 1000 })
      .where('A_ID', '=', a.A_ID)
      .execute();
    const again = await loginRaw(t.app, { username: a.username, password: 'Wrong#pass0', code: a.code });
    expectFailure(again, 403, 4003, 'login.wrong_credentials');
  });
});

describe('envelope checks', () => {
  it('refuses a replayed envelope', async () => {
    const envelope = encryptLogin(spki, adminPayload());
    const first = await postLogin(t.app, form(envelope));
    expect(first.statusCode, first.body).toBe(200);
    const second = await postLogin(t.app, form(envelope));
    expectFailure(second, 400, 4000, 'login.replay');
    expect(second.body).not.toContain('access_token');
  });

  it('refuses a replay even when the first attempt failed', async () => {
    const envelope = encryptLogin(spki, loginPayload({ username: 'admin', password: 'Wrong#pass0', code: 'NOPE' }));
    expectFailure(await postLogin(t.app, form(envelope)), 403, 4003);
    expectFailure(await postLogin(t.app, form(envelope)), 400, 4000, 'login.replay');
  });

  it('refuses a client clock 6 minutes behind or ahead, accepts 4 minutes', async () => {
    const minute = 60_000;
    for (const offset of [-6 * minute, 6 * minute]) {
      const payload = loginPayload({
        username: 'admin',
        password: t.demo.password,
        code: 'DEMO',
        time: Date.now() + offset,
      });
      const res = await postLogin(t.app, form(encryptLogin(spki, payload)));
      expectFailure(res, 400, 4000, 'login.clock_skew');
    }
    for (const offset of [-4 * minute, 4 * minute]) {
      const payload = loginPayload({
        username: 'admin',
        password: t.demo.password,
        code: 'DEMO',
        time: Date.now() + offset,
      });
      const res = await postLogin(t.app, form(encryptLogin(spki, payload)));
      expect(res.statusCode, res.body).toBe(200);
    }
  });

  it('refuses garbled base64 in appSecret and in data', async () => {
    const good = encryptLogin(spki, adminPayload());
    expectFailure(
      await postLogin(t.app, form({ ...good, appSecret: '%%%not base64%%%' })),
      400,
      4000,
      'login.bad_envelope',
    );
    expectFailure(await postLogin(t.app, form({ ...good, data: 'abc' })), 400, 4000, 'login.bad_envelope');
    expectFailure(
      await postLogin(t.app, form({ ...good, data: `${good.data.slice(0, 20)}*${good.data.slice(21)}` })),
      400,
      4000,
      'login.bad_envelope',
    );
  });

  it('refuses an AES key wrapped with another RSA key', async () => {
    const { publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const otherSpki = publicKey.export({ type: 'spki', format: 'der' }).toString('base64');
    const res = await postLogin(t.app, form(encryptLogin(otherSpki, adminPayload())));
    expectFailure(res, 400, 4000, 'login.unknown_key');
  });

  it('refuses a wrapped key that is not 32 bytes', async () => {
    const { createPublicKey } = await import('node:crypto');
    const key = createPublicKey({ key: Buffer.from(spki, 'base64'), format: 'der', type: 'spki' });
    const appSecret = publicEncrypt(
      { key, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' },
      randomBytes(16),
    ).toString('base64');
    const good = encryptLogin(spki, adminPayload());
    expectFailure(await postLogin(t.app, form({ appSecret, data: good.data })), 400, 4000, 'login.bad_envelope');
  });

  it('refuses truncated ciphertext and a tampered tag', async () => {
    const good = encryptLogin(spki, adminPayload());
    const sealed = Buffer.from(good.data, 'base64');
    const variants = {
      'iv only': sealed.subarray(0, 12),
      'shorter than iv + tag': sealed.subarray(0, 27),
      'last 4 bytes cut': sealed.subarray(0, sealed.length - 4),
      'ciphertext cut in half': Buffer.concat([sealed.subarray(0, 12 + 10), sealed.subarray(sealed.length - 16)]),
    };
    for (const [name, bytes] of Object.entries(variants)) {
      const res = await postLogin(t.app, form({ appSecret: good.appSecret, data: bytes.toString('base64') }));
      expect(res.statusCode, name).toBe(400);
      expectFailure(res, 400, 4000, 'login.bad_envelope');
    }
    const tampered = Buffer.from(sealed);
    tampered[tampered.length - 1] = (tampered[tampered.length - 1] ?? 0) ^ 0x01;
    expectFailure(
      await postLogin(t.app, form({ appSecret: good.appSecret, data: tampered.toString('base64') })),
      400,
      4000,
      'login.bad_envelope',
    );
    const flippedBody = Buffer.from(sealed);
    flippedBody[14] = (flippedBody[14] ?? 0) ^ 0x80;
    expectFailure(
      await postLogin(t.app, form({ appSecret: good.appSecret, data: flippedBody.toString('base64') })),
      400,
      4000,
      'login.bad_envelope',
    );
  });

  it('refuses plaintext that is not JSON, not an object, or lacks fields', async () => {
    const time = `${Date.now()}_admin`;
    const plaintexts: (string | Record<string, unknown>)[] = [
      'username=admin&password=x',
      '',
      '"just a string"',
      '[1,2,3]',
      'null',
      { password: t.demo.password, code: 'DEMO', time },
      { username: 'admin', code: 'DEMO', time },
      { username: 'admin', password: t.demo.password, code: 'DEMO' },
      { username: 'admin', password: t.demo.password, code: 'DEMO', time: `${Date.now()}` },
      { username: 'admin', password: t.demo.password, code: 'DEMO', time: 'yesterday_admin' },
      { username: 1, password: t.demo.password, code: 'DEMO', time },
    ];
    for (const plain of plaintexts) {
      const res = await postLogin(t.app, form(encryptLogin(spki, plain)));
      expect(res.statusCode, JSON.stringify(plain)).toBe(400);
      expectFailure(res, 400, 4000, 'login.bad_envelope');
    }
  });

  it('refuses a form that lacks appId, appSecret or data with 4000 naming the field', async () => {
    const good = encryptLogin(spki, adminPayload());
    for (const field of ['appId', 'appSecret', 'data'] as const) {
      const body: Record<string, string> = { ...form(good) };
      delete body[field];
      const res = await postLogin(t.app, body);
      const failure = expectFailure(res, 400, 4000);
      expect(failure.Data).toContainEqual({ field, key: 'validation.required' });
    }
  });

  it('refuses an empty body and a JSON body that is not an object', async () => {
    const empty = await t.app.inject({ method: 'POST', url: '/api/UAuth/Login' });
    expectFailure(empty, 400, 4000);
    const array = await t.app.inject({ method: 'POST', url: '/api/UAuth/Login', payload: [1, 2] });
    expectFailure(array, 400, 4000);
  });

  it('accepts the same login as JSON', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/UAuth/Login',
      payload: form(encryptLogin(spki, adminPayload())),
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<{ Code: number }>().Code).toBe(8888);
  });

  it('never stores the password or the envelope in the system log', async () => {
    const a = await freshAccount();
    await loginRaw(t.app, { username: a.username, password: 'Wrong#secret9', code: a.code });
    await loginRaw(t.app, { username: a.username, password: a.password, code: a.code });
    const rows = await sysLogOf(t.db, a.E_ID);
    expect(rows.map((r) => r.Action)).toEqual(['login_failed', 'login']);
    const text = JSON.stringify(rows);
    expect(text).not.toContain('Wrong#secret9');
    expect(text).not.toContain(a.password);
  });

  it('ciphertext made with the right key but an unrelated iv is refused, never 500', async () => {
    // A valid RSA-wrapped key but data sealed with a different AES key.
    const good = encryptLogin(spki, adminPayload());
    const cipher = createCipheriv('aes-256-gcm', randomBytes(32), randomBytes(12));
    const body = Buffer.concat([randomBytes(12), cipher.update('{}'), cipher.final(), cipher.getAuthTag()]);
    const res = await postLogin(t.app, form({ appSecret: good.appSecret, data: body.toString('base64') }));
    expectFailure(res, 400, 4000, 'login.bad_envelope');
  });
});

describe('per-IP login limit', () => {
  it('answers 429 with 4029 once an address exceeds the limit; other addresses still log in', async () => {
    const limited = await buildTestApp({ env: { LOGIN_IP_LIMIT_PER_MINUTE: '3' } });
    try {
      const key = await publicKeyOf(limited.app);
      const attempt = (ip: string) =>
        postLogin(
          limited.app,
          form(encryptLogin(key, loginPayload({ username: 'admin', password: 'Wrong#pass0', code: 'DEMO' }))),
          { ip },
        );
      for (let i = 0; i < 3; i++) expect((await attempt('10.1.1.1')).statusCode).toBe(403);
      const blocked = await attempt('10.1.1.1');
      expectFailure(blocked, 429, 4029, 'error.too_many');
      expect(blocked.json()).toMatchObject({ Code: 4029, Message: 'error.too_many' });
      // The limit counted attempts, not the account's failures: the account is not locked.
      const other = await postLogin(
        limited.app,
        form(encryptLogin(key, loginPayload({ username: 'admin', password: limited.demo.password, code: 'DEMO' }))),
        { ip: '10.2.2.2' },
      );
      expect(other.statusCode, other.body).toBe(200);
    } finally {
      await limited.close();
    }
  });
});
