import { describe, expect, it } from 'vitest';
import {
  buildTrack,
  findGaps,
  distanceMeters,
  positionAt,
  trackQuerySchema,
  type RawFix,
  TRACK_MAX_RANGE_MS,
} from '../src/index.js';

const T0 = Date.UTC(2026, 10, 23, 8, 0, 0);
const fix = (seconds: number, lat: number, lon: number, speed: number | null = null): RawFix => ({
  t: T0 + seconds * 1000,
  lat,
  lon,
  speed,
  course: null,
  type: 1,
});
/** Metres per degree of latitude on the mean sphere. */
const M_PER_DEG = 111_195;

describe('distanceMeters', () => {
  it('measures a degree of latitude and is zero for the same point', () => {
    expect(distanceMeters(0, 0, 1, 0)).toBeCloseTo(M_PER_DEG, -1);
    expect(distanceMeters(31.2, 121.4, 31.2, 121.4)).toBe(0);
  });

  it('shrinks a degree of longitude with latitude, unlike the flat 100,000 m constant', () => {
    expect(distanceMeters(60, 10, 60, 11)).toBeCloseTo(M_PER_DEG / 2, -2);
    expect(distanceMeters(0, 10, 0, 11)).toBeCloseTo(M_PER_DEG, -1);
  });

  it('crosses the antimeridian the short way', () => {
    expect(distanceMeters(0, 179.9, 0, -179.9)).toBeCloseTo(0.2 * M_PER_DEG, -1);
  });
});

describe('buildTrack', () => {
  it('answers an empty track with zeros', () => {
    expect(buildTrack([])).toMatchObject({ t: [], stops: [], gaps: [], distance: 0, movingMs: 0, stoppedMs: 0 });
  });

  it('keeps one point as it is: no distance, no stop, no time', () => {
    const track = buildTrack([fix(0, 31.2, 121.4, 12)]);
    expect(track).toMatchObject({ t: [T0], lat: [31.2], lon: [121.4], speed: [12], distance: 0, stops: [] });
    expect(track.movingMs + track.stoppedMs).toBe(0);
  });

  it('merges all identical points into their first and last, one stop from begin to end', () => {
    const fixes = Array.from({ length: 600 }, (_, i) => fix(i, 31.2, 121.4, 0));
    const track = buildTrack(fixes);
    expect(track.t).toEqual([T0, T0 + 599_000]);
    expect(track.stops).toEqual([{ begin: T0, end: T0 + 599_000, lat: 31.2, lon: 121.4 }]);
    expect(track).toMatchObject({ distance: 0, stoppedMs: 599_000, movingMs: 0, avgSpeed: 0 });
  });

  it('makes no stop of a stay shorter than the minimum time', () => {
    const fixes = [fix(0, 0, 0), fix(60, 0, 0), fix(299, 0, 0), fix(360, 0.01, 0)];
    expect(buildTrack(fixes).stops).toEqual([]);
    expect(buildTrack(fixes, { radius: 0, minMs: 0 }).stops).toEqual([
      { begin: T0, end: T0 + 299_000, lat: 0, lon: 0 },
    ]);
  });

  it('finds a stop within 30 m of where it began, not one that drifts out of it', () => {
    // Jitter of about 11 m for ten minutes, then away; a slow walk (~20 m a minute) is no stop.
    const stay = Array.from({ length: 11 }, (_, i) => fix(i * 60, 10 + (i % 2) * 0.0001, 20));
    const walk = Array.from({ length: 20 }, (_, i) => fix(700 + i * 60, 10.01 + i * 0.00018, 20));
    const track = buildTrack([...stay, ...walk]);
    expect(track.stops).toHaveLength(1);
    expect(track.stops[0]).toMatchObject({ begin: T0, end: T0 + 600_000 });
    expect(track.stops[0]?.lat).toBeCloseTo(10.00005, 5);
  });

  it('shows a silence over an hour as no data: a gap, neither moving nor stopped, and no stop across it', () => {
    const fixes = [fix(0, 0, 0, 10), fix(60, 0.001, 0, 10), fix(60 + 7200, 0.001, 0, 0), fix(60 + 7260, 0.002, 0, 10)];
    const track = buildTrack(fixes);
    expect(track.gaps).toEqual([{ begin: T0 + 60_000, end: T0 + 7_260_000 }]);
    expect(track.stops).toEqual([]);
    expect(track.movingMs).toBe(120_000);
    expect(track.stoppedMs).toBe(0);
    expect(findGaps([0, 3_600_000])).toEqual([]);
  });

  it('adds up distance and speeds: max of the fixes, average over the moving time', () => {
    // 0.01 degree of latitude a minute: about 66.7 km/h.
    const fixes = Array.from({ length: 11 }, (_, i) => fix(i * 60, i * 0.01, 0, i === 5 ? 80 : 66));
    const track = buildTrack(fixes);
    expect(track.distance).toBeCloseTo(0.1 * M_PER_DEG, -1);
    expect(track.maxSpeed).toBe(80);
    expect(track.avgSpeed).toBeCloseTo(66.7, 0);
    expect(track.movingMs).toBe(600_000);
  });

  it('fills a missing speed from the distance to the previous fix', () => {
    const track = buildTrack([fix(0, 0, 0), fix(60, 0.01, 0)]);
    expect(track.speed[0]).toBe(0);
    expect(track.speed[1]).toBeCloseTo(66.7, 0);
  });

  it('measures a track over the antimeridian as the short way', () => {
    const track = buildTrack([fix(0, 0, 179.99), fix(60, 0, -179.99)]);
    expect(track.distance).toBeCloseTo(0.02 * M_PER_DEG, -1);
  });
});

describe('positionAt', () => {
  const points = buildTrack([fix(0, 0, 179.9), fix(100, 1, -179.9), fix(100 + 7200, 2, -179.9)]);

  it('interpolates linearly between fixes, the short way round the antimeridian', () => {
    const mid = positionAt(points, T0 + 50_000);
    expect(mid?.lat).toBeCloseTo(0.5, 6);
    expect(Math.abs(mid?.lon ?? 0)).toBeCloseTo(180, 6);
    expect(positionAt(points, T0 + 75_000)?.lon).toBeCloseTo(-179.95, 6);
  });

  it('holds at the ends and across a gap, and has nothing for an empty track', () => {
    expect(positionAt(points, T0 - 1000)).toMatchObject({ lat: 0, lon: 179.9, index: 0 });
    expect(positionAt(points, T0 + 3_700_000)).toMatchObject({ lat: 1, index: 1 });
    expect(positionAt(points, T0 + 99_999_999)).toMatchObject({ lat: 2, index: 2 });
    expect(positionAt(buildTrack([]), T0)).toBeUndefined();
  });
});

describe('trackQuerySchema', () => {
  const parse = (query: Record<string, string>) => trackQuerySchema.safeParse(query);

  it('needs a start or an end, and makes the other a day from it', () => {
    expect(parse({ U_ID: '7' }).error?.issues[0]?.message).toBe('trace.time_required');
    expect(parse({ U_ID: '7', H_Time1: String(T0) }).data).toMatchObject({ from: T0, to: T0 + 86_400_000 });
    expect(parse({ U_ID: '7', H_Time2: String(T0) }).data).toMatchObject({ from: T0 - 86_400_000, to: T0 });
  });

  it('refuses more than 7 days, an end before the start, and times that are not epoch ms', () => {
    const week = { U_ID: '7', H_Time1: String(T0), H_Time2: String(T0 + TRACK_MAX_RANGE_MS) };
    expect(parse(week).success).toBe(true);
    expect(parse({ ...week, H_Time2: String(T0 + TRACK_MAX_RANGE_MS + 1) }).error?.issues[0]?.message).toBe(
      'trace.range_too_long',
    );
    expect(parse({ ...week, H_Time2: String(T0 - 1) }).error?.issues[0]?.message).toBe('trace.time_order');
    for (const bad of ['', 'yesterday', '-5', '1e12', '1.5']) {
      expect(parse({ U_ID: '7', H_Time1: bad }).success, bad).toBe(false);
    }
  });
});
