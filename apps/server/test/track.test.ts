import { trackSchema } from '@intercom/contract';
import type { Kysely } from 'kysely';
import { describe, expect, it } from 'vitest';
import type { DB } from '../src/db/schema.js';
import { insertUsers } from './channelFixtures.js';
import { authed, enterpriseWithAccount, expectFailure, expectSuccess } from './helper.js';
import { useTestApp } from './useTestApp.js';

const t = useTestApp();

const T0 = Date.UTC(2026, 10, 23, 0, 0, 0);
const DAY = 86_400_000;

/** Fixes at `[seconds, lat, lon, speed]` from T0. */
async function insertFixes(
  db: Kysely<DB>,
  user: { E_ID: number; U_ID: number },
  fixes: [number, number, number, number][],
) {
  await db
    .insertInto('location_history')
    .values(
      fixes.map(([s, lat, lon, speed]) => ({
        ...user,
        H_Time: T0 + s * 1000,
        H_Type: 1,
        C_Latitude: lat,
        C_Longitude: lon,
        Speed: speed,
        Course: 90,
        Accuracy: 5,
        Altitude: null,
      })),
    )
    .execute();
}

async function tenantWithUser(parentId?: number) {
  const tenant = await enterpriseWithAccount(t, { role: 'editor', ...(parentId ? { parentId } : {}) });
  const [U_ID] = await insertUsers(t, tenant.E_ID, 1, { name: () => 'Driver <1>' });
  return { ...tenant, U_ID: U_ID as number, api: authed(t.app, tenant.token) };
}

/** A drive north, a 10-minute stop, a drive on; then a 2-hour silence and one last fix. */
const ROUTE: [number, number, number, number][] = [
  ...Array.from({ length: 10 }, (_, i): [number, number, number, number] => [i * 60, 31 + i * 0.01, 121, 60]),
  ...Array.from({ length: 11 }, (_, i): [number, number, number, number] => [600 + i * 60, 31.1, 121, 0]),
  [1320, 31.11, 121, 50],
  [1320 + 7200, 31.12, 121, 40],
];

const trackUrl = (U_ID: number, query: string) => `/api/GISLocation/Track?U_ID=${U_ID}&${query}`;

describe('GET /api/GISLocation/Track', () => {
  it('answers the whole range as parallel arrays with the stop, the gap and the stats', async () => {
    const { api, E_ID, U_ID } = await tenantWithUser();
    await insertFixes(t.db, { E_ID, U_ID }, ROUTE);
    const track = trackSchema.parse(
      expectSuccess(await api.get(trackUrl(U_ID, `H_Time1=${T0}&H_Time2=${T0 + DAY}`))).BaseData,
    );
    // The 11 identical fixes of the stop merge into their first and last.
    expect(track.t).toHaveLength(10 + 2 + 2);
    expect([track.lat, track.lon, track.speed, track.course, track.type].map((a) => a.length)).toEqual([
      14, 14, 14, 14, 14,
    ]);
    expect(track.t[0]).toBe(T0);
    expect(track.stops).toEqual([{ begin: T0 + 600_000, end: T0 + 1_200_000, lat: 31.1, lon: 121 }]);
    expect(track.gaps).toEqual([{ begin: T0 + 1_320_000, end: T0 + 8_520_000 }]);
    expect(track.distance).toBeGreaterThan(13_000);
    expect(track.distance).toBeLessThan(13_600);
    expect(track.stoppedMs).toBe(600_000);
    expect(track.movingMs).toBe(1_320_000 - 600_000);
    expect(track.maxSpeed).toBe(60);
  });

  it('cuts at the range, and offers the identical-points rule with stopRadius=0', async () => {
    const { api, E_ID, U_ID } = await tenantWithUser();
    await insertFixes(t.db, { E_ID, U_ID }, ROUTE);
    const part = trackSchema.parse(
      expectSuccess(await api.get(trackUrl(U_ID, `H_Time1=${T0 + 60_000}&H_Time2=${T0 + 180_000}`))).BaseData,
    );
    expect(part.t).toEqual([T0 + 60_000, T0 + 120_000, T0 + 180_000]);
    const strict = trackSchema.parse(
      expectSuccess(await api.get(trackUrl(U_ID, `H_Time1=${T0}&stopRadius=0&stopMinutes=0`))).BaseData,
    );
    expect(strict.stops).toEqual([{ begin: T0 + 600_000, end: T0 + 1_200_000, lat: 31.1, lon: 121 }]);
  });

  it('answers an empty range with empty arrays and zero stats', async () => {
    const { api, U_ID } = await tenantWithUser();
    const track = trackSchema.parse(expectSuccess(await api.get(trackUrl(U_ID, `H_Time2=${T0}`))).BaseData);
    expect(track).toMatchObject({ t: [], lat: [], stops: [], gaps: [], distance: 0, movingMs: 0, maxSpeed: 0 });
  });

  it("reads users of the caller's enterprise and its children only: another tenant's user is 4004", async () => {
    const parent = await tenantWithUser();
    const child = await tenantWithUser(parent.E_ID);
    await insertFixes(t.db, { E_ID: child.E_ID, U_ID: child.U_ID }, ROUTE.slice(0, 3));
    const fromParent = trackSchema.parse(
      expectSuccess(await parent.api.get(trackUrl(child.U_ID, `H_Time1=${T0}`))).BaseData,
    );
    expect(fromParent.t).toHaveLength(3);
    expectFailure(await child.api.get(trackUrl(parent.U_ID, `H_Time1=${T0}`)), 404, 4004, 'error.not_found');
    expectFailure(await child.api.get(trackUrl(999_999, `H_Time1=${T0}`)), 404, 4004, 'error.not_found');
    expectFailure(await t.app.inject({ method: 'GET', url: trackUrl(child.U_ID, `H_Time1=${T0}`) }), 401, 50008);
  });

  it('needs a start or an end, at most 7 days, the end after the start and epoch ms times', async () => {
    const { api, U_ID } = await tenantWithUser();
    const bad = async (query: string, message: string) => {
      const body = expectFailure(await api.get(trackUrl(U_ID, query)), 400, 4000, message);
      expect(body.Data?.length).toBeGreaterThan(0);
    };
    await bad('', 'trace.time_required');
    await bad(`H_Time1=${T0}&H_Time2=${T0 + 7 * DAY + 1}`, 'trace.range_too_long');
    await bad(`H_Time1=${T0}&H_Time2=${T0 - 1}`, 'trace.time_order');
    await bad('H_Time1=yesterday', 'validation.invalid');
    await bad('H_Time1=', 'validation.invalid');
    await bad(`H_Time1=${T0}&stopRadius=5000`, 'validation.out_of_range');
    expectFailure(await api.get(`/api/GISLocation/Track?U_ID=abc&H_Time1=${T0}`), 400, 4000);
    expectSuccess(await api.get(trackUrl(U_ID, `H_Time1=${T0}&H_Time2=${T0 + 7 * DAY}`)));
  });
});

describe('GET /api/GISLocation/ExportTrack', () => {
  it("writes GPX with the stop as a waypoint, a segment per side of the gap, times in the reader's zone", async () => {
    const { api, E_ID, U_ID } = await tenantWithUser();
    await insertFixes(t.db, { E_ID, U_ID }, ROUTE);
    const res = await api.get(`/api/GISLocation/ExportTrack?U_ID=${U_ID}&H_Time1=${T0}&format=gpx&utcOffset=480`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('application/gpx+xml');
    expect(res.headers['content-disposition']).toBe(`attachment; filename="track-${U_ID}-2026-11-23.gpx"`);
    expect(res.body).toContain('<trk><name>Driver &lt;1&gt;</name>');
    expect(res.body).toContain('<trkpt lat="31" lon="121"><time>2026-11-23T08:00:00+08:00</time></trkpt>');
    expect(res.body).toContain('<name>2026-11-23 08:10:00 - 2026-11-23 08:20:00</name><type>stop</type>');
    expect(res.body.match(/<trkseg>/g)).toHaveLength(2);
    expect(res.body.match(/<trkpt /g)).toHaveLength(14);
  });

  it('writes CSV with a BOM and local times, and refuses bad input with the envelope', async () => {
    const { api, E_ID, U_ID } = await tenantWithUser();
    await insertFixes(t.db, { E_ID, U_ID }, ROUTE.slice(0, 2));
    const res = await api.get(`/api/GISLocation/ExportTrack?U_ID=${U_ID}&H_Time1=${T0}&format=csv&utcOffset=-300`);
    expect(res.headers['content-type']).toContain('text/csv');
    expect(res.body.split('\r\n')).toEqual([
      '\uFEFFTime,Latitude,Longitude,Speed (km/h),Course,Type',
      '2026-11-22 19:00:00,31,121,60,90,1',
      '2026-11-22 19:01:00,31.01,121,60,90,1',
      '',
    ]);
    expectFailure(await api.get(`/api/GISLocation/ExportTrack?U_ID=${U_ID}`), 400, 4000, 'trace.time_required');
    expectFailure(await api.get(`/api/GISLocation/ExportTrack?U_ID=${U_ID}&H_Time1=${T0}&format=kml`), 400, 4000);
    expectFailure(await api.get(`/api/GISLocation/ExportTrack?U_ID=${U_ID}&H_Time1=${T0}&utcOffset=9999`), 400, 4000);
    expectFailure(await api.get(`/api/GISLocation/ExportTrack?U_ID=999999&H_Time1=${T0}`), 404, 4004);
  });
});
