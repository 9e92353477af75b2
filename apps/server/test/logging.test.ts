import { describe, expect, it } from 'vitest';
import { loggerOptions } from '../src/app.js';
import { redactUrl } from '../src/http/redactUrl.js';
import { signTicket } from '../src/modules/media/playTicket.js';
import {
  authed,
  call,
  encryptLogin,
  enterpriseWithAccount,
  expectSuccess,
  login,
  loginPayload,
  postLogin,
  publicKeyOf,
} from './helper.js';
import { useTestApp } from './useTestApp.js';

const lines: string[] = [];
const stream = { write: (line: string) => void lines.push(line) };
// Trace level: the most the server ever logs.
const t = useTestApp({ logger: { ...(loggerOptions('trace') as object), stream } });

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

describe('redactUrl by rule', () => {
  it.each([
    ['/api/Media/Play/12.3.1700000000000.abcDEF_-', '/api/Media/Play/[REDACTED]'],
    ['/api/Media/Play/12.3.17.abc?download=1', '/api/Media/Play/[REDACTED]?download=1'],
    ['/FuncService?id=conn1&access_token=eyJ.x.y', '/FuncService?id=conn1&access_token=[REDACTED]'],
    ['/x?ticket=t1&sig=s2&X-Amz-Signature=s3', '/x?ticket=[REDACTED]&sig=[REDACTED]&X-Amz-Signature=[REDACTED]'],
    [
      '/x?authCode=A1&auth_code=A2&api_key=K&apikey=K2',
      '/x?authCode=[REDACTED]&auth_code=[REDACTED]&api_key=[REDACTED]&apikey=[REDACTED]',
    ],
    [
      '/x?client_secret=s&metricsToken=m&passwd=p&pwd=q',
      '/x?client_secret=[REDACTED]&metricsToken=[REDACTED]&passwd=[REDACTED]&pwd=[REDACTED]',
    ],
    ['/x?%61ccess_token=hidden', '/x?%61ccess_token=[REDACTED]'],
    ['/x?token=&a=1', '/x?token=[REDACTED]&a=1'],
    // Kept: the enterprise code, ids, coordinates, search text, a "sig" inside a longer word.
    ['/login?user=a&code=DEMO', '/login?user=a&code=DEMO'],
    ['/api/osmand?id=860000001&lat=1&lon=2', '/api/osmand?id=860000001&lat=1&lon=2'],
    ['/x?design=a&signal=b&search=token', '/x?design=a&signal=b&search=token'],
    ['/api/Media/Recording/5?download=1', '/api/Media/Recording/5?download=1'],
  ])('%s', (url, expected) => {
    expect(redactUrl(url)).toBe(expected);
  });

  it('finds URLs inside a log line too, without breaking its JSON', () => {
    const line = JSON.stringify({
      msg: 'Reply was already sent in "/FuncService?id=1&access_token=abc" or "/api/Media/Play/1.2.3.sig"',
      stack: 'Error: at /x?ticket=t1\n    at handler',
    });
    expect(JSON.parse(redactUrl(line))).toEqual({
      msg: 'Reply was already sent in "/FuncService?id=1&access_token=[REDACTED]" or "/api/Media/Play/[REDACTED]"',
      stack: 'Error: at /x?ticket=[REDACTED]\n    at handler',
    });
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

describe('logs of play URLs and query tokens', () => {
  it('never contain a play ticket, the hub access_token or another query token, on any line', async () => {
    // Its own account: the test above changed the admin's password.
    const { token } = await enterpriseWithAccount(t);
    const api = authed(t.app, token);
    const ticket = signTicket(t.deps.loginKey, { R_ID: 1, S_ID: 1, exp: Date.now() + 60_000 });
    // A play URL as an <audio> element fetches it (a 403: the session of the ticket is not alive).
    await call(t.app, { method: 'GET', url: `/api/Media/Play/${ticket}?download=1` });
    // The hub as SignalR's WebSocket and SSE transports call it: the token in the query.
    const hubToken = token;
    await call(t.app, { method: 'POST', url: `/FuncService/negotiate?negotiateVersion=1&access_token=${hubToken}` });
    await call(t.app, { method: 'GET', url: `/FuncService?id=nope&access_token=${hubToken}` });
    // Other token-like query parameters on a route that logs its request line.
    const others = ['AuthCodeValue12345', 'TicketValue67890', 'SignatureValue42'];
    await api.get(`/api/NoSuchThing?authCode=${others[0]}&ticket=${others[1]}&sig=${others[2]}`);
    // Lines whose text holds a URL (Fastify's "Reply was already sent in <url>", an error's message).
    t.app.log.warn(
      `Reply was already sent, did you forget to "return reply" in the "/api/Media/Play/${ticket}" route?`,
    );
    t.app.log.error({ err: new Error(`failed: /FuncService?access_token=${hubToken}`) }, 'request failed');

    const text = lines.join('');
    expect(text).toContain('/api/Media/Play/[REDACTED]?download=1');
    expect(text).toContain('access_token=[REDACTED]');
    expect(text).toContain('authCode=[REDACTED]&ticket=[REDACTED]&sig=[REDACTED]');
    for (const secret of [ticket, ticket.split('.').at(-1) as string, hubToken, ...others]) {
      expect(text.includes(secret), `logs contain ${secret.slice(0, 12)}`).toBe(false);
    }
    for (const line of lines) expect(() => JSON.parse(line) as unknown).not.toThrow();
  });
});

describe('request lines at the default level', () => {
  const infoLines: string[] = [];
  const infoStream = { write: (line: string) => void infoLines.push(line) };
  const quiet = useTestApp({ logger: { ...(loggerOptions('info') as object), stream: infoStream } });

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
