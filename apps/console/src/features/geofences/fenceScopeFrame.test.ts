import { describe, expect, it } from 'vitest';
import type { MapFence } from '../../map/MapFences';
import { fenceScopeFrame } from './fenceScopeFrame';

/** WGS-84 as it is (an OSM basemap). */
const plain = (lon: number, lat: number): [number, number] => [lon, lat];
const square: MapFence = {
  GF_ID: 1,
  Name: 'Yard',
  Kind: 'polygon',
  Center: null,
  Radius: null,
  Points: [
    [22.5, 114.0],
    [22.6, 114.0],
    [22.6, 114.1],
  ],
};

describe('what the fence editor opens on', () => {
  it('the chosen users, not the enterprise nor the fences', () => {
    const frame = fenceScopeFrame({
      positions: [
        { lon: 114.12, lat: 22.585 },
        { lon: 114.19, lat: 22.52 },
      ],
      enterprise: [
        [0, 0],
        [120, 40],
      ],
      fences: [square],
      project: plain,
    });
    expect(frame).toEqual({
      kind: 'users',
      bounds: [
        [114.12, 22.52],
        [114.19, 22.585],
      ],
    });
  });

  it("the enterprise's users when none is chosen", () => {
    const enterprise: [[number, number], [number, number]] = [
      [113.9, 22.5],
      [114.2, 22.6],
    ];
    expect(fenceScopeFrame({ positions: undefined, enterprise, fences: [square], project: plain })).toEqual({
      kind: 'users',
      bounds: enterprise,
    });
  });

  it('the other fences when no user of the scope has a position; nothing with neither', () => {
    const frame = fenceScopeFrame({ positions: [], enterprise: undefined, fences: [square], project: plain });
    expect(frame).toEqual({
      kind: 'fences',
      bounds: [
        [114.0, 22.5],
        [114.1, 22.6],
      ],
    });
    expect(
      fenceScopeFrame({ positions: undefined, enterprise: undefined, fences: [], project: plain }),
    ).toBeUndefined();
  });

  it('positions pass the basemap projection (GCJ-02 shifts them)', () => {
    const shifted = (lon: number, lat: number): [number, number] => [lon + 0.005, lat - 0.002];
    const frame = fenceScopeFrame({
      positions: [{ lon: 114, lat: 22 }],
      enterprise: undefined,
      fences: [],
      project: shifted,
    });
    expect(frame?.bounds).toEqual([
      [114.005, 21.998],
      [114.005, 21.998],
    ]);
  });
});
