import { VectorTile, type VectorTileFeature } from '@mapbox/vector-tile';
import { PbfReader } from 'pbf';
import { describe, expect, test } from 'vitest';
import { batchNames, userBatch } from '../shared/hub/userBatch';
import type { UserPoint } from '../shared/hub/UserPointIndex';
import { CLUSTER_MAX_ZOOM, USERS_TILE_LAYER, UserTileIndex } from './UserTileIndex';

const at = (lon: number, lat: number, state: UserPoint['state'] = 'online', name = `U${lon}`): UserPoint => ({
  lon,
  lat,
  name,
  state,
});

/** Applies `points` (a full set with `replace`) the way the page sends them. */
function send(index: UserTileIndex, points: Map<number, UserPoint>, names: Map<number, string>, replace = false) {
  index.apply(userBatch((id) => points.get(id), points.keys(), [], replace, names));
}

/** The features of a tile, as MapLibre reads them. */
function features(index: UserTileIndex, z: number, x: number, y: number): VectorTileFeature[] {
  const bytes = index.tile(z, x, y);
  if (bytes.byteLength === 0) return [];
  const layer = new VectorTile(new PbfReader(bytes)).layers[USERS_TILE_LAYER];
  return layer ? Array.from({ length: layer.length }, (_, i) => layer.feature(i)) : [];
}

/** The tile of zoom z holding lon/lat. */
function tileOf(lon: number, lat: number, z: number): [number, number, number] {
  const n = 2 ** z;
  const x = Math.floor(((lon + 180) / 360) * n);
  const rad = (lat * Math.PI) / 180;
  const y = Math.floor(((1 - Math.log(Math.tan(rad) + 1 / Math.cos(rad)) / Math.PI) / 2) * n);
  return [z, x, y];
}

describe('UserTileIndex', () => {
  test('above the cluster zooms each user is a feature with its id, name and state', () => {
    const index = new UserTileIndex();
    const names = new Map<number, string>();
    send(index, new Map([[7, at(114.05, 22.55, 'sos', '张三')]]), names, true);
    const [feature] = features(index, ...tileOf(114.05, 22.55, 14));
    expect(feature?.id).toBe(7);
    expect(feature?.properties).toEqual({ name: '张三', state: 'sos' });
    expect(index.user(7)).toEqual({ lon: 114.05, lat: 22.55, name: '张三', state: 'sos' });
  });

  test('users in SOS are never clustered: each stays on its own beside the cluster of the others', () => {
    const index = new UserTileIndex();
    const points = new Map(Array.from({ length: 30 }, (_, i) => [i + 1, at(114 + i * 0.0001, 22.5)] as const));
    points.set(31, at(114.0005, 22.5, 'sos'));
    points.set(32, at(114.0006, 22.5, 'sos'));
    send(index, points, new Map(), true);
    const low = features(index, ...tileOf(114, 22.5, 5));
    const cluster = low.filter((feature) => feature.properties.cluster === true);
    expect(cluster.map((feature) => feature.properties.point_count)).toEqual([30]);
    const alone = low.filter((feature) => feature.properties.cluster !== true);
    expect(alone.map((feature) => [feature.id, feature.properties.state]).sort()).toEqual([
      [31, 'sos'],
      [32, 'sos'],
    ]);
    // Out of SOS, the user joins the cluster again.
    points.set(31, at(114.0005, 22.5, 'online'));
    send(index, points, new Map(), true);
    const after = features(index, ...tileOf(114, 22.5, 5));
    expect(after.filter((feature) => feature.properties.cluster === true)[0]?.properties.point_count).toBe(31);
    expect(after.filter((feature) => feature.properties.cluster !== true).map((feature) => feature.id)).toEqual([32]);
  });

  test('users close together are one cluster with their count at low zoom, apart above', () => {
    const index = new UserTileIndex();
    const points = new Map(Array.from({ length: 30 }, (_, i) => [i + 1, at(114 + i * 0.0001, 22.5)] as const));
    send(index, points, new Map(), true);
    const low = features(index, ...tileOf(114, 22.5, 5));
    expect(low).toHaveLength(1);
    expect(low[0]?.properties.point_count).toBe(30);
    expect(low[0]?.properties.cluster).toBe(true);
    const clusterId = low[0]?.properties.cluster_id as number;
    expect(index.expansionZoom(clusterId)).toBeGreaterThan(5);
    expect(features(index, ...tileOf(114, 22.5, CLUSTER_MAX_ZOOM + 1))).toHaveLength(30);
  });

  test('a move, a new state and a removal show in the next tiles; names are sent once', () => {
    const index = new UserTileIndex();
    const names = new Map<number, string>();
    const points = new Map([
      [1, at(10, 10, 'online', 'A')],
      [2, at(20, 20, 'online', 'B')],
    ]);
    send(index, points, names, true);
    const moved = at(10.5, 10, 'stale', 'A');
    const batch = userBatch((id) => (id === 1 ? moved : undefined), [1], [2], false, names);
    expect(batchNames(batch).size).toBe(0);
    index.apply(batch);
    expect(index.user(1)).toEqual({ lon: 10.5, lat: 10, name: 'A', state: 'stale' });
    expect(index.user(2)).toBeUndefined();
    expect(index.size).toBe(1);
    expect(features(index, ...tileOf(20, 20, 14))).toEqual([]);
    expect(features(index, ...tileOf(10.5, 10, 14))[0]?.properties.state).toBe('stale');
  });

  test('a snapshot drops the users it lacks', () => {
    const index = new UserTileIndex();
    const names = new Map<number, string>();
    send(
      index,
      new Map([
        [1, at(1, 1)],
        [2, at(2, 2)],
      ]),
      names,
      true,
    );
    send(index, new Map([[3, at(3, 3)]]), names, true);
    expect(index.size).toBe(1);
    expect(index.user(1)).toBeUndefined();
    expect(index.user(3)?.name).toBe('U3');
  });

  test('a tile without users is empty, and an unknown cluster throws', () => {
    const index = new UserTileIndex();
    expect(index.tile(0, 0, 0).byteLength).toBe(0);
    send(index, new Map([[1, at(1, 1)]]), new Map(), true);
    expect(index.tile(10, 0, 0).byteLength).toBe(0);
    expect(() => index.expansionZoom(123456)).toThrow();
  });
});
