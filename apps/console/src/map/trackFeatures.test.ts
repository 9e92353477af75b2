import { buildTrack, type RawFix } from '@intercom/contract';
import { describe, expect, it } from 'vitest';
import { trackPathFeatures, trackPointFeatures } from './trackFeatures';

const identity = (lon: number, lat: number): [number, number] => [lon, lat];
const fix = (s: number, lat: number, speed: number): RawFix => ({
  t: s * 1000,
  lat,
  lon: 0,
  speed,
  course: null,
  type: 1,
});

describe('trackPathFeatures', () => {
  it('makes one line per run of a speed class, each starting where the last ended', () => {
    const fixes = [
      ...Array.from({ length: 20 }, (_, i) => fix(i * 10, i * 0.001, 20)),
      ...Array.from({ length: 20 }, (_, i) => fix(200 + i * 10, 0.02 + i * 0.001, 80)),
    ];
    const { features } = trackPathFeatures(buildTrack(fixes), identity);
    expect(features.map((f) => f.properties?.cls)).toEqual([1, 2, 3]);
    for (let i = 1; i < features.length; i++) {
      expect(features[i]?.geometry.coordinates[0]).toEqual(features[i - 1]?.geometry.coordinates.at(-1));
    }
  });

  it('smooths a one-fix spike away and draws a gap as its own dashed line', () => {
    const fixes = Array.from({ length: 30 }, (_, i) => fix(i * 10, i * 0.001, i === 10 ? 150 : 40));
    fixes.push(fix(300 + 7200, 0.05, 40), fix(300 + 7210, 0.051, 40));
    const { features } = trackPathFeatures(buildTrack(fixes), identity);
    expect(features.filter((f) => !f.properties?.gap).map((f) => f.properties?.cls)).toEqual([2, 2]);
    expect(features.filter((f) => f.properties?.gap)).toHaveLength(1);
  });
});

describe('trackPointFeatures', () => {
  it('numbers the stops and marks start and end; an empty track has none', () => {
    const fixes = [
      fix(0, 0, 30),
      ...Array.from({ length: 40 }, (_, i) => fix(60 + i * 10, 0.01, 0)),
      fix(600, 0.02, 30),
    ];
    const { features } = trackPointFeatures(buildTrack(fixes), identity);
    expect(features.map((f) => f.properties?.kind)).toEqual(['stop', 'start', 'end']);
    expect(features[0]?.properties?.label).toBe('1');
    expect(trackPointFeatures(buildTrack([]), identity).features).toEqual([]);
  });
});
