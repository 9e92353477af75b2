import gcoordModule from 'gcoord';
import { describe, expect, it } from 'vitest';
import { outOfChina, wgs84ToGcj02 } from '../src/index.js';

/** gcoord is CommonJS (`module.exports` is the API); its typings describe an ES module with a default export. */
const gcoord = gcoordModule as unknown as typeof gcoordModule.default;

/** [lon, lat] in WGS-84. */
const CHINA: [number, number][] = [
  [116.397428, 39.90923], // Beijing, Tiananmen
  [121.473701, 31.230416], // Shanghai, People's Square
  [114.057868, 22.543099], // Shenzhen, Civic Center
  [104.065735, 30.659462], // Chengdu
  [87.617733, 43.792818], // Urumqi
  [126.642464, 45.756967], // Harbin
];

describe('wgs84ToGcj02', () => {
  it('shifts points in China as the published algorithm does (gcoord as the reference), to 1e-9 degrees', () => {
    for (const point of CHINA) {
      const [lon, lat] = wgs84ToGcj02(point[0], point[1]);
      const [refLon, refLat] = gcoord.transform<[number, number]>(point, gcoord.WGS84, gcoord.GCJ02);
      expect(lon).toBeCloseTo(refLon, 9);
      expect(lat).toBeCloseTo(refLat, 9);
    }
  });

  it('moves points in China by the known few hundred metres (Beijing: about +0.0062 lon, +0.0014 lat)', () => {
    const [lon, lat] = wgs84ToGcj02(116.397428, 39.90923);
    expect(lon - 116.397428).toBeGreaterThan(0.0055);
    expect(lon - 116.397428).toBeLessThan(0.0068);
    expect(lat - 39.90923).toBeGreaterThan(0.0008);
    expect(lat - 39.90923).toBeLessThan(0.0018);
  });

  it('leaves points outside China unchanged', () => {
    for (const [lon, lat] of [
      [-0.1276, 51.5072], // London
      [139.6917, 35.6895], // Tokyo
      [-74.006, 40.7128], // New York
      [151.2093, -33.8688], // Sydney
    ] as [number, number][]) {
      expect(outOfChina(lat, lon)).toBe(true);
      expect(wgs84ToGcj02(lon, lat)).toEqual([lon, lat]);
    }
  });
});
