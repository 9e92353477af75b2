import { VectorTile } from '@mapbox/vector-tile';
import { PbfReader } from 'pbf';
import { describe, expect, test } from 'vitest';
import { userBatch } from '../shared/hub/userBatch';
import type { UserPoint } from '../shared/hub/UserPointIndex';
import { CLUSTER_COLUMN_HALF_PX, USER_COLUMN_HALF_PX, USERS_COLUMNS_LAYER } from './userColumns';
import { CLUSTER_MAX_ZOOM, USERS_TILE_LAYER, UserTileIndex } from './UserTileIndex';

function indexOf(points: [number, UserPoint][]): UserTileIndex {
  const index = new UserTileIndex();
  const users = new Map(points);
  index.apply(userBatch((id) => users.get(id), users.keys(), [], true, new Map()));
  return index;
}

function tileOf(lon: number, lat: number, z: number): [number, number, number] {
  const n = 2 ** z;
  const rad = (lat * Math.PI) / 180;
  return [
    z,
    Math.floor(((lon + 180) / 360) * n),
    Math.floor(((1 - Math.log(Math.tan(rad) + 1 / Math.cos(rad)) / Math.PI) / 2) * n),
  ];
}

const point = (lon: number, lat: number, state: UserPoint['state']): UserPoint => ({ lon, lat, state, name: 'N' });

describe('the columns of the 3D map', () => {
  test('each user of a tile has a square footprint with its id and state, and no name', () => {
    const index = indexOf([
      [7, point(114.05, 22.55, 'sos')],
      [8, point(114.06, 22.55, 'online')],
    ]);
    const tile = new VectorTile(new PbfReader(index.tile(...tileOf(114.05, 22.55, 14), true)));
    const layer = tile.layers[USERS_COLUMNS_LAYER]!;
    expect(layer.length).toBe(2);
    const columns = Array.from({ length: layer.length }, (_, i) => layer.feature(i));
    expect(
      columns.map((column) => [column.id, { ...column.properties }]).sort((a, b) => Number(a[0]) - Number(b[0])),
    ).toEqual([
      [7, { state: 'sos' }],
      [8, { state: 'online' }],
    ]);
    for (const column of columns) {
      expect(column.type).toBe(3);
      const [ring] = column.loadGeometry();
      const xs = ring!.map((p) => p.x);
      // 8 tile units to a pixel.
      expect(Math.max(...xs) - Math.min(...xs)).toBe(2 * USER_COLUMN_HALF_PX * 8);
    }
    // The points the names and clicks come from are still there.
    expect(tile.layers[USERS_TILE_LAYER]?.length).toBe(2);
  });

  test('a cluster has a wider footprint with its count', () => {
    const index = indexOf(Array.from({ length: 20 }, (_, i) => [i + 1, point(114 + i * 0.0001, 22.5, 'online')]));
    const tile = new VectorTile(new PbfReader(index.tile(...tileOf(114, 22.5, CLUSTER_MAX_ZOOM - 4), true)));
    const column = tile.layers[USERS_COLUMNS_LAYER]!.feature(0);
    expect(column.properties.point_count).toBe(20);
    const xs = column.loadGeometry()[0]!.map((p) => p.x);
    expect(Math.max(...xs) - Math.min(...xs)).toBe(2 * CLUSTER_COLUMN_HALF_PX * 8);
  });

  test('the 2D map’s tiles carry no columns', () => {
    const index = indexOf([[7, point(114.05, 22.55, 'online')]]);
    const tile = new VectorTile(new PbfReader(index.tile(...tileOf(114.05, 22.55, 14))));
    expect(Object.keys(tile.layers)).toEqual([USERS_TILE_LAYER]);
  });
});
