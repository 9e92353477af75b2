import { spawn } from 'node:child_process';
import { once } from 'node:events';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { reverseGeocodeSchema } from '@intercom/contract';
import { describe, expect, it, vi } from 'vitest';
import { insertUsers } from '../channelFixtures.js';
import { authed, buildTestApp, enterpriseWithAccount, expectFailure, expectSuccess, type TestApp } from '../helper.js';
import { useTestApp } from '../useTestApp.js';

const here = path.dirname(fileURLToPath(import.meta.url));

/** test/map/fakeNominatim.mjs in a child process: its `url`, and `close()` kills it. */
async function startGeocoder(): Promise<{ url: string; close(): Promise<void> }> {
  const child = spawn(process.execPath, [path.join(here, 'fakeNominatim.mjs')], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const [chunk] = (await once(child.stdout as NodeJS.ReadableStream, 'data')) as [Buffer];
  return {
    url: `http://127.0.0.1:${chunk.toString().trim()}`,
    close() {
      child.kill();
      return Promise.resolve();
    },
  };
}

const geocoder = useTestApp(startGeocoder);
const t = useTestApp(() =>
  buildTestApp({
    env: { GEOCODER_URL: geocoder.url, GEOCODER_TIMEOUT_MS: '500', GEOCODER_RATE_PER_SECOND: '1000' },
  }),
);

async function stats(): Promise<{ requests: number; userAgent: string }> {
  return (await (await fetch(`${geocoder.url}/stats`)).json()) as { requests: number; userAgent: string };
}

async function tenantWithUser(app: TestApp, parentId?: number) {
  const tenant = await enterpriseWithAccount(app, { role: 'editor', ...(parentId ? { parentId } : {}) });
  const [U_ID] = await insertUsers(app, tenant.E_ID, 1);
  return { ...tenant, U_ID: U_ID as number, api: authed(app.app, tenant.token) };
}

const geocode = async (api: ReturnType<typeof authed>, query: string) =>
  reverseGeocodeSchema.parse(expectSuccess(await api.get(`/api/Map/ReverseGeocode?${query}`)).BaseData);

describe('GET /api/Map/ReverseGeocode', () => {
  it("resolves the user's live position through the geocoder, with a proper User-Agent and the caller's language", async () => {
    const { api, E_ID, U_ID } = await tenantWithUser(t);
    t.deps.realtime.live.reportPosition({ E_ID, U_ID, lat: 22.54321, lon: 114.05678, time: Date.now() });
    const res = await api.inject({
      method: 'GET',
      url: `/api/Map/ReverseGeocode?U_ID=${U_ID}`,
      headers: { 'accept-language': 'zh-CN,zh;q=0.9' },
    });
    expect(reverseGeocodeSchema.parse(expectSuccess(res).BaseData)).toEqual({
      address: 'Addr 22.5432,114.0568 (zh-CN)',
      lat: 22.54321,
      lon: 114.05678,
    });
    expect((await stats()).userAgent).toMatch(/^IntercomPlatform\/[\d.]+ \(/);
  });

  it('geocodes a point of the track (lat, lon) and answers a nearby point from the cache', async () => {
    const { api, U_ID } = await tenantWithUser(t);
    const first = await geocode(api, `U_ID=${U_ID}&lat=31.23041&lon=121.47370`);
    expect(first).toMatchObject({ address: 'Addr 31.2304,121.4737 (en)', lat: 31.23041, lon: 121.4737 });
    const before = (await stats()).requests;
    // 4 m away: the same rounded key, so no second request.
    const second = await geocode(api, `U_ID=${U_ID}&lat=31.23043&lon=121.47371`);
    expect(second.address).toBe('Addr 31.2304,121.4737 (en)');
    expect((await stats()).requests).toBe(before);
  });

  it('says no_position for a user without a fix, without asking the geocoder', async () => {
    const { api, U_ID } = await tenantWithUser(t);
    const before = (await stats()).requests;
    expect(await geocode(api, `U_ID=${U_ID}`)).toEqual({ address: null, lat: null, lon: null, reason: 'no_position' });
    expect((await stats()).requests).toBe(before);
  });

  it('answers failed (HTTP 200, never 500) on a geocoder error, a non-JSON body, open sea and a timeout', async () => {
    const { api, U_ID } = await tenantWithUser(t);
    for (const [lat, lon] of [
      [20, 1],
      [30, 1],
      [0, 0],
    ]) {
      expect(await geocode(api, `U_ID=${U_ID}&lat=${lat}&lon=${lon}`)).toEqual({
        address: null,
        lat,
        lon,
        reason: 'failed',
      });
    }
    // A geocoder that never answers: the lookup answers at its timeout (how long: reverseGeocoder.test.ts,
    // in fake time).
    expect(await geocode(api, `U_ID=${U_ID}&lat=10&lon=1`)).toMatchObject({ address: null, reason: 'failed' });
  });

  it('is scoped: a user of another enterprise is 4004, a sub-enterprise user is visible to the parent', async () => {
    const parent = await tenantWithUser(t);
    const child = await tenantWithUser(t, parent.E_ID);
    const stranger = await tenantWithUser(t);
    expectFailure(await stranger.api.get(`/api/Map/ReverseGeocode?U_ID=${parent.U_ID}&lat=1&lon=1`), 404, 4004);
    expectFailure(await child.api.get(`/api/Map/ReverseGeocode?U_ID=${parent.U_ID}`), 404, 4004);
    expectFailure(await parent.api.get('/api/Map/ReverseGeocode?U_ID=999999'), 404, 4004);
    expect((await geocode(parent.api, `U_ID=${child.U_ID}&lat=1.5&lon=2.5`)).address).toBe('Addr 1.5,2.5 (en)');
  });

  it.each([
    'U_ID=1&lat=91&lon=0',
    'U_ID=1&lat=-90.5&lon=0',
    'U_ID=1&lat=0&lon=180.01',
    'U_ID=1&lat=abc&lon=1',
    'U_ID=1&lat=&lon=1',
    'U_ID=1&lat=NaN&lon=1',
    'U_ID=1&lat=1e1&lon=1',
    'U_ID=1&lat=1',
    'U_ID=1&lon=1',
    'U_ID=0',
    'U_ID=abc',
    'lat=1&lon=1',
  ])('refuses bad input with 4000: %s', async (query) => {
    const { api } = await tenantWithUser(t);
    const before = (await stats()).requests;
    expectFailure(await api.get(`/api/Map/ReverseGeocode?${query}`), 400, 4000);
    expect((await stats()).requests).toBe(before);
  });

  it('needs a token', async () => {
    expectFailure(await t.app.inject({ method: 'GET', url: '/api/Map/ReverseGeocode?U_ID=1' }), 401, 50008);
  });
});

describe('ReverseGeocode without or with a rate-limited geocoder', () => {
  it('says not_configured when no GEOCODER_URL is set', async () => {
    const bare = await buildTestApp();
    try {
      const { api, U_ID } = await tenantWithUser(bare);
      expect(await geocode(api, `U_ID=${U_ID}&lat=1&lon=1`)).toEqual({
        address: null,
        lat: 1,
        lon: 1,
        reason: 'not_configured',
      });
    } finally {
      await bare.close();
    }
  });

  it('sends at most the configured requests per second: a caller that would wait past the timeout gets failed', async () => {
    const slow = await buildTestApp({
      env: { GEOCODER_URL: `${geocoder.url}/reverse`, GEOCODER_TIMEOUT_MS: '300', GEOCODER_RATE_PER_SECOND: '1' },
    });
    try {
      const { api, U_ID } = await tenantWithUser(slow);
      const before = (await stats()).requests;
      const answers = await Promise.all([1, 2, 3].map((n) => geocode(api, `U_ID=${U_ID}&lat=${40 + n}&lon=${n}`)));
      expect(answers.filter((a) => a.address !== null)).toHaveLength(1);
      expect(answers.filter((a) => a.reason === 'failed')).toHaveLength(2);
      expect((await stats()).requests - before).toBe(1);
    } finally {
      await slow.close();
    }
  });
});

describe('ReverseGeocode shared by enterprises', () => {
  it('one enterprise flooding fresh points does not switch addresses off for another, during or after', async () => {
    const shared = await buildTestApp({
      // A queue of rate × timeout = 20 lookups, the first 10 of which take 1 s of the 2 s timeout. At
      // 20 a second and 1 s, a loaded CI machine served only 9 in time.
      env: { GEOCODER_URL: geocoder.url, GEOCODER_TIMEOUT_MS: '2000', GEOCODER_RATE_PER_SECOND: '10' },
    });
    try {
      const flooder = await tenantWithUser(shared);
      const other = await tenantWithUser(shared);
      const before = (await stats()).requests;
      // 60 fresh points at once: six seconds' worth of the geocoder's rate, three times its queue.
      const floodStarted = Date.now();
      const flood = Promise.all(
        Array.from({ length: 60 }, (_, n) => geocode(flooder.api, `U_ID=${flooder.U_ID}&lat=${50 + n / 100}&lon=7`)),
      );
      await vi.waitFor(async () => expect((await stats()).requests).toBeGreaterThan(before), { timeout: 10_000 });
      await new Promise((resolve) => setTimeout(resolve, 50));

      // While the flood still waits for its turns, the other enterprise gets its address (its own turn
      // in the round robin; the turns' times are reverseGeocoder.test.ts's, in fake time).
      let floodAnswered = false;
      void flood.then(() => (floodAnswered = true));
      expect(await geocode(other.api, `U_ID=${other.U_ID}&lat=-33.1&lon=151.2`)).toMatchObject({
        address: 'Addr -33.1,151.2 (en)',
      });
      expect(floodAnswered).toBe(false);

      const answers = await flood;
      const floodSeconds = (Date.now() - floodStarted) / 1000;
      // The flooder gets what fits in its share and the "could not be resolved" answer for the rest.
      expect(answers.filter((a) => a.address !== null).length).toBeGreaterThanOrEqual(10);
      expect(answers.filter((a) => a.reason === 'failed').length).toBeGreaterThanOrEqual(20);
      // Never faster than the rate: one at once, then one a turn (10 a second) while the flood lasted,
      // and the other enterprise's. A quiet machine takes the 2 s timeout (22 requests); a loaded one
      // whose 60 requests reach the server over a longer time may use the turns of that time too.
      expect((await stats()).requests - before).toBeLessThanOrEqual(1 + Math.floor(10 * floodSeconds) + 1);

      // Right after: the refused lookups booked no turns (that the next one goes out at once is
      // reverseGeocoder.test.ts's), so the next fresh point is looked up and answered.
      const sentBefore = (await stats()).requests;
      expect(await geocode(other.api, `U_ID=${other.U_ID}&lat=-34.1&lon=151.2`)).toMatchObject({
        address: 'Addr -34.1,151.2 (en)',
      });
      expect((await stats()).requests).toBe(sentBefore + 1);
    } finally {
      await shared.close();
    }
  });
});
