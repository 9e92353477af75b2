import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loggerOptions } from '../src/app.js';
import { redactUrl } from '../src/http/redactUrl.js';
import {
  authed,
  buildTestApp,
  call,
  encryptLogin,
  expectSuccess,
  login,
  loginPayload,
  postLogin,
  publicKeyOf,
  type TestApp,
} from './helper.js';

const lines: string[] = [];
const stream = { write: (line: string) => void lines.push(line) };
let t: TestApp;

beforeAll(async () => {
  // Trace level: the most the server ever logs.
  t = await buildTestApp({ logger: { ...(loggerOptions('trace') as object), stream } });
});
afterAll(async () => {
  await t.close();
});

describe('redactUrl', () => {
  it('hides secret query parameters and keeps the rest', () => {
    expect(redactUrl('/login?user=a&psd=secret&code=c')).toBe('/login?user=a&psd=[REDACTED]&code=c');
    expect(redactUrl('/api/Account/ChangePassword?OldPassword=a1&NewPassword=b2')).toBe(
      '/api/Account/ChangePassword?OldPassword=[REDACTED]&NewPassword=[REDACTED]',
    );
    expect(redactUrl('/FuncService?id=x&access_token=tok#frag')).toBe('/FuncService?id=x&access_token=[REDACTED]#frag');
    expect(redactUrl('/x?PSD=loud')).toBe('/x?PSD=[REDACTED]');
  });
});

describe('logs', () => {
  it('never contain passwords, tokens, the login envelope or the psd parameter', async () => {
    const spki = await publicKeyOf(t.app);
    const failed = encryptLogin(spki, loginPayload({ username: 'admin', password: 'Wrong#Secret1', code: 'DEMO' }));
    expect((await postLogin(t.app, { appId: 'console', companyId: 'DEMO', ...failed })).statusCode).toBe(403);
    const good = encryptLogin(spki, loginPayload({ username: 'admin', password: t.demo.password, code: 'DEMO' }));
    const res = await postLogin(t.app, { appId: 'console', companyId: 'DEMO', ...good });
    const tokens = res.json<{ access_token: string; refresh_token: string }>();
    expect(res.statusCode).toBe(200);
    const api = authed(t.app, tokens.access_token);
    expectSuccess(await api.get('/api/Account/LoginInfo'));
    // A password change with both passwords in the query string, as the spec has it.
    expectSuccess(await api.post('/api/Account/ChangePassword?OldPassword=Admin%232026pw&NewPassword=Brand%23New99'));
    const again = await login(t.app, { username: 'admin', password: 'Brand#New99', code: 'DEMO' });
    const refreshed = await call(t.app, {
      method: 'POST',
      url: '/api/UAuth/Refresh',
      payload: { refresh_token: again.refresh_token },
    });
    expect(refreshed.statusCode).toBe(200);
    // The console's login link.
    await call(t.app, { method: 'GET', url: '/login?user=a&psd=secret&code=c' });
    await call(t.app, { method: 'GET', url: `/FuncService?access_token=${again.access_token}` });

    const text = lines.join('');
    // The logger really ran, saw the requests, and redacted in place.
    expect(text).toContain('/api/UAuth/Login');
    expect(text).toContain('/login?user=a&psd=[REDACTED]&code=c');
    expect(text).toContain('OldPassword=[REDACTED]');
    for (const secret of [
      'secret',
      t.demo.password,
      'Wrong#Secret1',
      'Brand#New99',
      'Brand%23New99',
      'Admin%232026pw',
      tokens.access_token,
      tokens.refresh_token,
      again.access_token,
      again.refresh_token,
      refreshed.json<{ access_token: string }>().access_token,
      good.appSecret,
      good.data,
      failed.data,
    ]) {
      expect(text.includes(secret), `logs contain ${secret.slice(0, 12)}`).toBe(false);
    }
  });
});

describe('request lines at the default level', () => {
  const infoLines: string[] = [];
  let quiet: TestApp;
  beforeAll(async () => {
    const infoStream = { write: (line: string) => void infoLines.push(line) };
    quiet = await buildTestApp({ logger: { ...(loggerOptions('info') as object), stream: infoStream } });
  });
  afterAll(async () => {
    await quiet.close();
  });

  it('leaves out quick successes and keeps failures, one line each', async () => {
    const token = (await login(quiet.app, { username: 'admin', password: quiet.demo.password, code: 'DEMO' }))
      .access_token;
    expectSuccess(await authed(quiet.app, token).get('/api/Account/LoginInfo'));
    expect((await call(quiet.app, { method: 'GET', url: '/api/Account/LoginInfo' })).statusCode).toBe(401);
    expect((await call(quiet.app, { method: 'GET', url: '/api/NoSuchThing' })).statusCode).toBe(404);

    const requests = infoLines.map((l) => JSON.parse(l) as { msg: string; statusCode?: number; req?: { url: string } });
    const logged = requests.filter((l) => l.msg === 'request completed').map((l) => `${l.statusCode} ${l.req?.url}`);
    expect(logged).toEqual(['401 /api/Account/LoginInfo', '404 /api/NoSuchThing']);
    expect(requests.some((l) => l.msg === 'incoming request')).toBe(false);
  });
});
