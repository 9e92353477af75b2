import { buildTrack, type RawFix } from '@intercom/contract';
import { describe, expect, it } from 'vitest';
import { trackSpeeds } from './trackSpeeds';

const T0 = Date.UTC(2026, 10, 1, 8);
const MINUTE = 60_000;
/** About 1 km per 0.009 degrees of latitude. */
const KM = 0.008993;
const fix = (minute: number, lat: number, speed: number | null, lon = 116.4): RawFix => ({
  t: T0 + minute * MINUTE,
  lat,
  lon,
  speed,
  course: null,
  type: 1,
});

describe('trackSpeeds: one definition, the maximum never below the average', () => {
  it('a terminal that reports a low speed (here 5 km/h) while it drives 60 km/h: the old stats said average 60 > maximum 5', () => {
    const fixes = Array.from({ length: 11 }, (_, i) => fix(i, 39.9 + i * KM, 5));
    const track = buildTrack(fixes);
    expect(track.avgSpeed).toBeGreaterThan(track.maxSpeed);
    const speeds = trackSpeeds(track);
    expect(speeds.avgSpeed).toBeCloseTo(60, 0);
    expect(speeds.maxSpeed).toBeGreaterThanOrEqual(speeds.avgSpeed);
    expect(speeds.maxSpeed).toBeCloseTo(60, 0);
  });

  it('a reported speed above the steps is the maximum; a stop and its jitter count for neither', () => {
    const fixes = [
      fix(0, 39.9, 40),
      fix(1, 39.9 + KM, 90),
      // A 10-minute stop with 20 m of jitter: not moving.
      fix(2, 39.9 + 2 * KM, 0),
      fix(6, 39.9 + 2 * KM + 0.00018, 0),
      fix(12, 39.9 + 2 * KM, 0),
      fix(13, 39.9 + 3 * KM, 60),
    ];
    const track = buildTrack(fixes);
    expect(track.stops).toHaveLength(1);
    const speeds = trackSpeeds(track);
    expect(speeds.maxSpeed).toBe(90);
    // 3 km in 3 moving minutes.
    expect(speeds.avgSpeed).toBeCloseTo(60, 0);
  });

  it('an hour without data is no movement: its distance does not make a speed', () => {
    const fixes = [fix(0, 39.9, 30), fix(1, 39.9 + 0.5 * KM, 30), fix(120, 40.9, 30), fix(121, 40.9 + 0.5 * KM, 30)];
    const speeds = trackSpeeds(buildTrack(fixes));
    expect(speeds.avgSpeed).toBeCloseTo(30, 0);
    expect(speeds.maxSpeed).toBeCloseTo(30, 0);
  });

  it('an empty or single-fix track has no speed', () => {
    expect(trackSpeeds(buildTrack([]))).toEqual({ avgSpeed: 0, maxSpeed: 0 });
    expect(trackSpeeds(buildTrack([fix(0, 39.9, 12)]))).toEqual({ avgSpeed: 0, maxSpeed: 0 });
  });
});
