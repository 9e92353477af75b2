import { distanceMeters, ringSelfIntersects, zoneShape as fenceShape, type LatLon } from '@intercom/contract';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

const polygon = (Points: LatLon[]) =>
  fenceShape({ Kind: 'polygon', CenterLat: null, CenterLon: null, Radius: null, Points });
const inBox = (boxes: { minX: number; minY: number; maxX: number; maxY: number }[], lat: number, lon: number) =>
  boxes.some((b) => b.minX <= lon && lon <= b.maxX && b.minY <= lat && lat <= b.maxY);

describe('fence shapes', () => {
  it('a circle: depth is the radius minus the great-circle distance', () => {
    const shape = fenceShape({ Kind: 'circle', CenterLat: 22.54, CenterLon: 114.05, Radius: 100, Points: null });
    expect(shape.depth(22.54, 114.05)).toBeCloseTo(100, 6);
    const north = 22.54 + 150 / 111_195;
    expect(shape.depth(north, 114.05)).toBeCloseTo(-50, 0);
    expect(inBox(shape.boxes, 22.5405, 114.0505)).toBe(true);
  });

  it('a polygon: positive inside by the distance to the nearest edge, negative outside', () => {
    // About 1.1 km square.
    const shape = polygon([
      [0, 0],
      [0, 0.01],
      [0.01, 0.01],
      [0.01, 0],
    ]);
    expect(shape.depth(0.005, 0.005)).toBeCloseTo(556, -1);
    expect(shape.depth(0.005, 0.0001)).toBeCloseTo(11.1, 0);
    expect(shape.depth(0.005, -0.0001)).toBeCloseTo(-11.1, 0);
    expect(shape.depth(0.02, 0.005)).toBeCloseTo(-1112, -1);
  });

  it('a polygon across the antimeridian holds points on both sides of it, and not those round the other way', () => {
    const shape = polygon([
      [-17, 179],
      [-17, -179],
      [-18, -179],
      [-18, 179],
    ]);
    for (const [lat, lon] of [
      [-17.5, 179.5],
      [-17.5, -179.5],
      [-17.5, 180],
      [-17.5, -180],
    ] as const) {
      expect(shape.depth(lat, lon), `${lat},${lon}`).toBeGreaterThan(0);
      expect(inBox(shape.boxes, lat, lon), `box ${lat},${lon}`).toBe(true);
    }
    expect(shape.depth(-17.5, 0)).toBeLessThan(0);
    expect(shape.depth(-17.5, 178.5)).toBeLessThan(0);
    expect(shape.depth(-17.5, -178.5)).toBeLessThan(0);
    // Half a degree of longitude at 17.5 degrees south, from the middle to an edge: about 53 km.
    expect(shape.depth(-17.5, 180)).toBeCloseTo(distanceMeters(-17.5, 180, -17, 180), -2);
  });

  it('inside and beyond answer as depth does, for any point near a circle or a polygon (the antimeridian too)', () => {
    const shapes = [
      fenceShape({ Kind: 'circle', CenterLat: 22.54, CenterLon: 114.05, Radius: 500, Points: null }),
      polygon([
        [0, 0],
        [0, 0.01],
        [0.005, 0.004],
        [0.01, 0.01],
        [0.01, 0],
      ]),
      polygon([
        [-17, 179],
        [-17, -179],
        [-18, -179],
        [-18, 179],
      ]),
    ];
    const centres = [
      [22.54, 114.05, 0.02],
      [0.005, 0.005, 0.02],
      [-17.5, 180, 2],
    ] as const;
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 2 }),
        fc.double({ min: -1, max: 1, noNaN: true }),
        fc.double({ min: -1, max: 1, noNaN: true }),
        fc.double({ min: 0, max: 2000, noNaN: true }),
        (i, u, v, metres) => {
          const shape = shapes[i]!;
          const [lat, lon, spread] = centres[i]!;
          let pLon = lon + v * spread;
          if (pLon > 180) pLon -= 360;
          const depth = shape.depth(lat + u * spread, pLon);
          expect(shape.inside(lat + u * spread, pLon)).toBe(depth > 0);
          expect(shape.beyond(lat + u * spread, pLon, metres)).toBe(depth < -metres);
        },
      ),
      { numRuns: 3000 },
    );
  });

  it('a circle across the antimeridian is found from either side', () => {
    const shape = fenceShape({ Kind: 'circle', CenterLat: 0, CenterLon: 179.999, Radius: 1000, Points: null });
    expect(inBox(shape.boxes, 0, -179.998)).toBe(true);
    expect(shape.depth(0, -179.998)).toBeGreaterThan(0);
  });

  const rings: [string, LatLon[], boolean][] = [
    [
      'a bow tie',
      [
        [0, 0],
        [1, 1],
        [0, 1],
        [1, 0],
      ],
      true,
    ],
    [
      'a repeated point',
      [
        [0, 0],
        [0, 1],
        [0, 1],
        [1, 1],
      ],
      true,
    ],
    [
      'an edge folding back',
      [
        [0, 0],
        [0, 2],
        [0, 1],
        [1, 1],
      ],
      true,
    ],
    [
      'a square',
      [
        [0, 0],
        [0, 1],
        [1, 1],
        [1, 0],
      ],
      false,
    ],
    [
      'a square across the antimeridian',
      [
        [-17, 179],
        [-17, -179],
        [-18, -179],
        [-18, 179],
      ],
      false,
    ],
  ];
  it.each(rings)('self-intersection: %s -> %s', (_name, ring, crossed) => {
    expect(ringSelfIntersects(ring)).toBe(crossed);
  });
});
