import { wgs84ToGcj02 } from '@intercom/contract';
import { describe, expect, it } from 'vitest';
import { shapeArea, shapeHandles } from './shapeDrawFeatures';
import {
  circleRing,
  clampRadius,
  distanceMeters,
  edgeMidpoints,
  firstRadiusInRoom,
  insertVertex,
  moveVertex,
  radiusHandle,
  removeVertex,
  unproject,
  type LatLonPair,
} from './shapeGeometry';

const identity = (lon: number, lat: number): [number, number] => [lon, lat];

describe('circleRing', () => {
  it('puts every point the radius from the centre, in 64 steps by default', () => {
    const center: LatLonPair = [22.54, 114.05];
    const ring = circleRing(center, 200);
    expect(ring).toHaveLength(64);
    for (const point of ring) expect(distanceMeters(center, point)).toBeCloseTo(200, 3);
    // North first, then clockwise: the second point lies east of the first.
    expect(ring[0]![0]).toBeGreaterThan(center[0]);
    expect(ring[1]![1]).toBeGreaterThan(ring[0]![1]);
  });

  it('keeps longitudes continuous for a circle across the antimeridian', () => {
    const ring = circleRing([0, 179.99], 5000, 8);
    const lons = ring.map(([, lon]) => lon);
    expect(Math.max(...lons)).toBeGreaterThan(180);
    expect(Math.max(...lons) - Math.min(...lons)).toBeLessThan(0.1);
  });

  it('places the radius handle due east at the radius', () => {
    const at = radiusHandle([-33.9, 151.2], 1500);
    expect(at[0]).toBeCloseTo(-33.9, 3);
    expect(at[1]).toBeGreaterThan(151.2);
    expect(distanceMeters([-33.9, 151.2], at)).toBeCloseTo(1500, 3);
  });

  it('clamps a dragged radius to whole metres the API accepts', () => {
    expect(clampRadius(3.4)).toBe(10);
    expect(clampRadius(1234.6)).toBe(1235);
    expect(clampRadius(250_000)).toBe(100_000);
    expect(clampRadius(Number.NaN)).toBe(10);
  });

  it('first places a circle of a fifth of the visible width, shorter where its handle would pass the edge', () => {
    // 5 km of map: 1 km, whatever the room beyond it.
    expect(firstRadiusInRoom(5_000, 4_000)).toBe(1_000);
    expect(firstRadiusInRoom(5_000, undefined)).toBe(1_000);
    // 300 m to the panel's edge: the handle lands at 300 m, inside the map left uncovered.
    expect(firstRadiusInRoom(5_000, 300.4)).toBe(300);
    // Never under what the API accepts.
    expect(firstRadiusInRoom(5_000, 2)).toBe(10);
  });
});

describe('vertex edits', () => {
  const square: LatLonPair[] = [
    [0, 0],
    [0, 1],
    [1, 1],
    [1, 0],
  ];

  it('moves, inserts and removes one vertex without touching the others or the input', () => {
    expect(moveVertex(square, 2, [2, 2])).toEqual([
      [0, 0],
      [0, 1],
      [2, 2],
      [1, 0],
    ]);
    expect(moveVertex(square, 9, [2, 2])).toEqual(square);
    expect(insertVertex(square, 1, [-1, 0.5])).toEqual([
      [0, 0],
      [-1, 0.5],
      [0, 1],
      [1, 1],
      [1, 0],
    ]);
    expect(insertVertex(square, Infinity, [0.5, -1])).toHaveLength(5);
    expect(insertVertex(square, Infinity, [0.5, -1])[4]).toEqual([0.5, -1]);
    expect(removeVertex(square, 0)).toEqual([
      [0, 1],
      [1, 1],
      [1, 0],
    ]);
    expect(square).toHaveLength(4);
  });

  it('adds no vertex past the 500 a fence may have', () => {
    const full = Array.from({ length: 500 }, (_, i): LatLonPair => [i / 1000, 0]);
    expect(insertVertex(full, 3, [9, 9])).toHaveLength(500);
  });

  it('offers a midpoint on each edge, the closing one too, the short way across 180', () => {
    expect(edgeMidpoints([[0, 0]])).toEqual([]);
    expect(edgeMidpoints(square.slice(0, 2))).toEqual([{ after: 0, at: [0, 0.5] }]);
    expect(edgeMidpoints(square).map((m) => m.at)).toEqual([
      [0, 0.5],
      [0.5, 1],
      [1, 0.5],
      [0.5, 0],
    ]);
    const across = edgeMidpoints([
      [0, 179],
      [0, -179],
      [1, -179],
    ]);
    expect(across[0]!.at[1]).toBeCloseTo(-180, 6);
    // The closing edge runs from -179 (unwrapped 181) back to 179: its middle is 180, not 0.
    expect(Math.abs(across[2]!.at[1])).toBeCloseTo(180, 6);
  });
});

describe('unproject', () => {
  it('inverts GCJ-02 to within a centimetre and leaves other datums alone', () => {
    const [lon, lat] = wgs84ToGcj02(114.05, 22.54);
    const back = unproject(wgs84ToGcj02, lon, lat);
    expect(distanceMeters(back, [22.54, 114.05])).toBeLessThan(0.01);
    expect(unproject(identity, 190, 10)).toEqual([10, -170]);
  });
});

describe('drawing features', () => {
  it('draws a circle as a closed ring with a centre and a radius handle', () => {
    const area = shapeArea('circle', { Center: [10, 20], Radius: 100 }, identity);
    expect(area.features[0]!.geometry.type).toBe('Polygon');
    const handles = shapeHandles('circle', { Center: [10, 20], Radius: 100 }, identity);
    expect(handles.features.map((f) => f.properties?.kind)).toEqual(['centre', 'radius']);
    expect(shapeArea('circle', { Center: [10, 20] }, identity).features).toEqual([]);
  });

  it('draws a polygon with a vertex handle per point and a midpoint per edge', () => {
    const points: LatLonPair[] = [
      [0, 0],
      [0, 1],
      [1, 1],
    ];
    const handles = shapeHandles('polygon', { Points: points }, identity).features.map((f) => f.properties?.kind);
    expect(handles.filter((k) => k === 'vertex')).toHaveLength(3);
    expect(handles.filter((k) => k === 'midpoint')).toHaveLength(3);
    expect(shapeArea('polygon', { Points: points.slice(0, 2) }, identity).features[0]!.geometry.type).toBe(
      'LineString',
    );
    const ring = shapeArea('polygon', { Points: points }, identity).features[0]!.geometry;
    expect(ring).toEqual({
      type: 'Polygon',
      coordinates: [
        [
          [0, 0],
          [1, 0],
          [1, 1],
          [0, 0],
        ],
      ],
    });
  });
});
