import { describe, expect, it } from 'vitest';
import { fenceFeatures, type MapFence } from './fenceFeatures';

const identity = (lon: number, lat: number): [number, number] => [lon, lat];
const fence = (over: Partial<MapFence>): MapFence => ({
  GF_ID: 1,
  Name: 'Depot',
  Kind: 'polygon',
  Center: null,
  Radius: null,
  Points: null,
  ...over,
});

describe('fenceFeatures', () => {
  it('draws a polygon as a closed ring named above its northernmost corner', () => {
    const { areas, labels } = fenceFeatures(
      [
        fence({
          Points: [
            [0, 0],
            [0, 1],
            [2, 0.5],
          ],
        }),
      ],
      identity,
    );
    expect(areas.features[0]!.geometry).toEqual({
      type: 'Polygon',
      coordinates: [
        [
          [0, 0],
          [1, 0],
          [0.5, 2],
          [0, 0],
        ],
      ],
    });
    expect(labels.features[0]!.geometry).toEqual({ type: 'Point', coordinates: [0.5, 2] });
    expect(labels.features[0]!.properties).toEqual({ id: 1, name: 'Depot' });
  });

  it('draws a circle as a ring round its centre and leaves out a fence without its shape', () => {
    const { areas } = fenceFeatures(
      [
        fence({ GF_ID: 2, Kind: 'circle', Center: [10, 20], Radius: 500 }),
        fence({ GF_ID: 3, Kind: 'circle', Center: null, Radius: null }),
        fence({ GF_ID: 4, Points: [[0, 0]] }),
      ],
      identity,
    );
    expect(areas.features.map((f) => f.properties?.id)).toEqual([2]);
    const ring = (areas.features[0]!.geometry as { coordinates: number[][][] }).coordinates[0]!;
    expect(ring).toHaveLength(65);
    expect(ring[0]).toEqual(ring[64]);
  });

  it('keeps a polygon across the antimeridian in one piece', () => {
    const { areas } = fenceFeatures(
      [
        fence({
          Points: [
            [0, 179],
            [0, -179],
            [1, -179],
          ],
        }),
      ],
      identity,
    );
    const ring = (areas.features[0]!.geometry as { coordinates: number[][][] }).coordinates[0]!;
    expect(ring.map(([lon]) => lon)).toEqual([179, 181, 181, 179]);
  });
});
