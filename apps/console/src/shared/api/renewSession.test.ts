// @vitest-environment happy-dom
import { Code } from '@intercom/contract';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { clearTokens, getAccessToken, getRefreshToken, setTokens } from '../storage/tokenStore';
import { ApiError } from './ApiError';
import { apiRequest, getObject } from './apiClient';
import { onApiEvent, type ApiEvent } from './apiEvents';

/** A server whose access tokens are `valid`; Refresh trades `refresh` for the next pair or refuses. */
function fakeServer(refreshAnswer: 'renew' | 'idle') {
  const server = { valid: new Set(['a1']), refreshes: 0, calls: [] as string[] };
  const json = (status: number, body: unknown) =>
    new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
  const answer = (url: string, init: RequestInit): Response => {
    if (url === '/api/UAuth/Refresh') {
      server.refreshes += 1;
      const body = typeof init.body === 'string' ? init.body : '{}';
      const sent = (JSON.parse(body) as { refresh_token?: string }).refresh_token;
      if (refreshAnswer === 'idle' || sent !== `r${server.refreshes}`) {
        return json(401, { Code: Code.TokenExpired, Message: 'error.token_expired' });
      }
      const next = server.refreshes + 1;
      server.valid = new Set([`a${next}`]);
      return json(200, { Code: Code.Success, access_token: `a${next}`, refresh_token: `r${next}`, expires_in: 1800 });
    }
    const token = new Headers(init.headers).get('Authorization')?.replace('Bearer ', '') ?? '';
    server.calls.push(token);
    if (!server.valid.has(token)) {
      return json(401, { BaseResult: { Code: Code.TokenExpired, Message: 'error.token_expired' } });
    }
    return json(200, { BaseResult: { Code: Code.Success, Message: '' }, BaseData: { who: token } });
  };
  vi.stubGlobal('fetch', (url: string, init: RequestInit) => Promise.resolve(answer(url, init)));
  return server;
}

const events: ApiEvent[] = [];
let stop: () => void;
beforeEach(() => {
  events.length = 0;
  stop = onApiEvent((event) => events.push(event));
  setTokens({ accessToken: 'a1', refreshToken: 'r1', expiresIn: 1800 });
});
afterEach(() => {
  stop();
  clearTokens();
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

describe('a request the logout overtook', () => {
  it('ends quietly: its refusal opens no re-login dialog over the login page', async () => {
    let answer: (response: Response) => void = () => undefined;
    vi.stubGlobal('fetch', () => new Promise<Response>((resolve) => (answer = resolve)));
    const underWay = apiRequest('GET', '/api/Enterprise/Statistics').catch((e: unknown) => e);
    await vi.waitFor(() => expect(answer).not.toBe(undefined));
    clearTokens(); // the user logged out; the server ended the session the request carries
    const body = { BaseResult: { Code: Code.SessionEnded, Message: 'error.session_ended' } };
    answer(new Response(JSON.stringify(body), { status: 401, headers: { 'Content-Type': 'application/json' } }));
    expect(((await underWay) as ApiError).code).toBe(Code.SessionEnded);
    expect(events).toEqual([]);
  });

  it('still opens the dialog when the session ends while the user is signed in', async () => {
    const body = { BaseResult: { Code: Code.SessionEnded, Message: 'error.session_ended' } };
    const headers = { 'Content-Type': 'application/json' };
    vi.stubGlobal('fetch', () => Promise.resolve(new Response(JSON.stringify(body), { status: 401, headers })));
    expect(await apiRequest('GET', '/api/Enterprise/Statistics').catch((e: unknown) => e)).toBeInstanceOf(ApiError);
    expect(events.map((e) => e.type)).toEqual(['session']);
  });
});

describe('an expired access token (50014)', () => {
  it('is renewed once through Refresh and the request repeated, without the re-login dialog', async () => {
    const server = fakeServer('renew');
    server.valid.clear(); // a1 expired
    const [one, two] = await Promise.all([
      getObject<{ who: string }>('/api/Account/LoginInfo'),
      getObject<{ who: string }>('/api/Enterprise/Statistics'),
    ]);
    expect(one.who).toBe('a2');
    expect(two.who).toBe('a2');
    // Two requests failed at once: one exchange (the server rotates the refresh token).
    expect(server.refreshes).toBe(1);
    expect(getAccessToken()).toBe('a2');
    expect(getRefreshToken()).toBe('r2');
    expect(events).toEqual([]);
  });

  it('ends in the re-login dialog when Refresh is refused too (the idle timeout passed)', async () => {
    const server = fakeServer('idle');
    server.valid.clear();
    const failure = await apiRequest('GET', '/api/Account/LoginInfo').catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(ApiError);
    expect((failure as ApiError).code).toBe(Code.TokenExpired);
    expect(server.refreshes).toBe(1);
    expect(server.calls).toEqual(['a1']); // not repeated
    expect(events.map((e) => e.type)).toEqual(['session']);
  });

  it('keeps the dialog closed when the caller asked so, and still renews nothing without a refresh token', async () => {
    const server = fakeServer('renew');
    server.valid.clear();
    setTokens({ accessToken: 'a1' });
    await expect(apiRequest('GET', '/api/Account/LoginInfo', { sessionDialog: false })).rejects.toBeInstanceOf(
      ApiError,
    );
    expect(server.refreshes).toBe(0);
    expect(events).toEqual([]);
  });
});

describe('a token about to expire', () => {
  it('is renewed before the request, and only when a request is made', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const server = fakeServer('renew');
    setTokens({ accessToken: 'a1', refreshToken: 'r1', expiresIn: 1800 });
    // Activity keeps the idle clock fresh: no renewal.
    await getObject('/api/Account/LoginInfo');
    vi.setSystemTime(Date.now() + 20 * 60_000);
    await getObject('/api/Account/LoginInfo');
    expect(server.refreshes).toBe(0);
    // Idle for 29.5 of 30 minutes: nothing happens by itself (a refresh never outlives the idle timeout)...
    vi.setSystemTime(Date.now() + 29.5 * 60_000);
    expect(server.refreshes).toBe(0);
    // ...and the next request renews first, then goes with the new token.
    const answer = await getObject<{ who: string }>('/api/Account/LoginInfo');
    expect(server.refreshes).toBe(1);
    expect(answer.who).toBe('a2');
    expect(server.calls).toEqual(['a1', 'a1', 'a2']);
  });
});
