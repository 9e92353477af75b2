import { constants, createCipheriv, generateKeyPairSync, publicEncrypt, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { encryptLogin, expectFailure, loginPayload, loginRaw, postLogin, sysLogOf } from './helper.js';
import { useLoginApp } from './loginFixtures.js';

// postgres: the system log row of a failed login is read back through sysLogOf.
const { t, freshAccount, form, adminPayload, spki } = useLoginApp();

describe('envelope checks', () => {
  it('refuses a replayed envelope', async () => {
    const envelope = encryptLogin(spki(), adminPayload());
    const first = await postLogin(t.app, form(envelope));
    expect(first.statusCode, first.body).toBe(200);
    const second = await postLogin(t.app, form(envelope));
    expectFailure(second, 400, 4000, 'login.replay');
    expect(second.body).not.toContain('access_token');
  });

  it('refuses a replay even when the first attempt failed', async () => {
    const envelope = encryptLogin(spki(), loginPayload({ username: 'admin', password: 'Wrong#pass0', code: 'NOPE' }));
    expectFailure(await postLogin(t.app, form(envelope)), 403, 4003);
    expectFailure(await postLogin(t.app, form(envelope)), 400, 4000, 'login.replay');
  });

  it('refuses a client clock 6 minutes behind or ahead, accepts 4 minutes', async () => {
    const minute = 60_000;
    /** The demo admin's login, sent by a client whose clock is `offset` ms off. */
    const loginAt = (offset: number) => {
      const payload = loginPayload({
        username: 'admin',
        password: t.demo.password,
        code: 'DEMO',
        time: Date.now() + offset,
      });
      return postLogin(t.app, form(encryptLogin(spki(), payload)));
    };
    for (const offset of [-6 * minute, 6 * minute]) {
      expectFailure(await loginAt(offset), 400, 4000, 'login.clock_skew');
    }
    for (const offset of [-4 * minute, 4 * minute]) {
      const res = await loginAt(offset);
      expect(res.statusCode, res.body).toBe(200);
    }
  });

  it('refuses garbled base64 in appSecret and in data', async () => {
    const good = encryptLogin(spki(), adminPayload());
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
    const key = createPublicKey({ key: Buffer.from(spki(), 'base64'), format: 'der', type: 'spki' });
    const appSecret = publicEncrypt(
      { key, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' },
      randomBytes(16),
    ).toString('base64');
    const good = encryptLogin(spki(), adminPayload());
    expectFailure(await postLogin(t.app, form({ appSecret, data: good.data })), 400, 4000, 'login.bad_envelope');
  });

  it('refuses truncated ciphertext and a tampered tag', async () => {
    const good = encryptLogin(spki(), adminPayload());
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
      const res = await postLogin(t.app, form(encryptLogin(spki(), plain)));
      expect(res.statusCode, JSON.stringify(plain)).toBe(400);
      expectFailure(res, 400, 4000, 'login.bad_envelope');
    }
  });

  it('refuses a form that lacks appId, appSecret or data with 4000 naming the field', async () => {
    const good = encryptLogin(spki(), adminPayload());
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
      payload: form(encryptLogin(spki(), adminPayload())),
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
    const good = encryptLogin(spki(), adminPayload());
    const cipher = createCipheriv('aes-256-gcm', randomBytes(32), randomBytes(12));
    const body = Buffer.concat([randomBytes(12), cipher.update('{}'), cipher.final(), cipher.getAuthTag()]);
    const res = await postLogin(t.app, form({ appSecret: good.appSecret, data: body.toString('base64') }));
    expectFailure(res, 400, 4000, 'login.bad_envelope');
  });
});
