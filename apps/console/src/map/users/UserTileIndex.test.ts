import { VectorTile, type VectorTileFeature } from '@mapbox/vector-tile';
import { PbfReader } from 'pbf';
import { describe, expect, test } from 'vitest';
import { batchNames, userBatch } from '../../shared/hub/userFeed/userBatch';
import type { UserPoint } from '../../shared/hub/userFeed/UserPointIndex';
import { CLUSTER_CELLS_PER_TILE, CLUSTER_MAX_ZOOM, CLUSTER_RADIUS_PX } from './ClusterGrid';
import { MAX_CHANGED_TILES, USERS_TILE_LAYER, UserTileIndex } from './UserTileIndex';

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

  test('a cluster sits at the mean place of its users, and opens at the first zoom where they part', () => {
    const index = new UserTileIndex();
    // 0.1° apart: one cell at low zoom (a cell is 64 px), two cells from about zoom 9.
    const points = new Map([
      [1, at(114.0, 22.5)],
      [2, at(114.1, 22.5)],
      [3, at(114.1, 22.5)],
    ]);
    send(index, points, new Map(), true);
    const [cluster] = features(index, ...tileOf(114, 22.5, 7));
    expect(cluster?.properties).toMatchObject({ cluster: true, point_count: 3, point_count_abbreviated: 3 });
    const place = cluster!.toGeoJSON(...(tileOf(114, 22.5, 7).slice(1, 3) as [number, number]), 7).geometry;
    expect(place.type === 'Point' && place.coordinates[0]).toBeCloseTo((114 + 114.1 * 2) / 3, 3);
    const zoom = index.expansionZoom(cluster!.properties.cluster_id as number);
    expect(zoom).toBeLessThan(CLUSTER_MAX_ZOOM);
    const before = features(index, ...tileOf(114, 22.5, zoom - 1));
    expect(before.filter((feature) => feature.properties.cluster === true)).toHaveLength(1);
    // At the expansion zoom the first user is on its own and the other two a cluster of 2.
    const tiles = new Set([tileOf(114, 22.5, zoom), tileOf(114.1, 22.5, zoom)].map((tile) => tile.join('/')));
    const opened = [...tiles].flatMap((tile) =>
      features(index, ...(tile.split('/').map(Number) as [number, number, number])),
    );
    expect(opened.map((feature) => feature.properties.point_count ?? `user ${feature.id}`).sort()).toEqual([
      2,
      'user 1',
    ]);
  });

  test('after any run of moves, new states and removals the tiles are those of the same users sent at once', () => {
    let seed = 7;
    const random = () => ((seed = (seed * 16807) % 2147483647) - 1) / 2147483646;
    const states: UserPoint['state'][] = ['online', 'chatting', 'stale', 'sos', 'offline'];
    const somewhere = () => at(113.8 + random() * 0.6, 22.4 + random() * 0.4, states[Math.floor(random() * 5)]);
    const names = new Map<number, string>();
    const points = new Map(Array.from({ length: 400 }, (_, i) => [i + 1, somewhere()] as const));
    const moved = new UserTileIndex();
    send(moved, points, names, true);
    for (let round = 0; round < 30; round++) {
      const changed = new Set<number>();
      for (let j = 0; j < 20; j++) {
        const id = 1 + Math.floor(random() * 450);
        changed.add(id);
        const was = points.get(id);
        // Half of them a few metres (the cells of most zooms stay), half anywhere with any state.
        points.set(id, was && j % 2 === 0 ? { ...was, lon: was.lon + (random() - 0.5) * 0.001 } : somewhere());
      }
      const removed = [...points.keys()].filter(() => random() < 0.01);
      for (const id of removed) {
        points.delete(id);
        changed.delete(id);
      }
      moved.apply(userBatch((id) => points.get(id), changed, removed, false, names));
    }
    const fresh = new UserTileIndex();
    send(fresh, points, new Map(), true);
    expect(moved.size).toBe(points.size);
    const shape = (index: UserTileIndex, z: number, x: number, y: number) =>
      features(index, z, x, y)
        .map((feature) => JSON.stringify([feature.loadGeometry(), feature.properties, feature.id]))
        .sort();
    for (const z of [0, 5, 9, 11, 12, 14]) {
      const [, x0, y0] = tileOf(113.8, 22.8, z);
      const [, x1, y1] = tileOf(114.4, 22.4, z);
      for (let x = x0; x <= x1; x++)
        for (let y = y0; y <= y1; y++) expect(shape(moved, z, x, y)).toEqual(shape(fresh, z, x, y));
    }
  });

  test('reports the tiles a batch changed at the zooms around the one shown, or all of them', () => {
    const index = new UserTileIndex();
    const names = new Map<number, string>();
    const points = new Map(Array.from({ length: 200 }, (_, i) => [i + 1, at(114 + i * 0.01, 22.5)] as const));
    send(index, points, names, true);
    // Not yet told the zoom, and a snapshot: every tile.
    expect(index.takeChanged()).toBe('all');
    index.watch(14.6);
    expect(index.takeChanged()).toBe('all'); // a new zoom: tiles kept from before may be older
    points.set(1, at(114.0, 22.6));
    index.apply(userBatch((id) => points.get(id), [1], [], false, names));
    const expected = [13, 14, 15].flatMap((z) => [tileOf(114, 22.5, z), tileOf(114, 22.6, z)]);
    const key = ({ z, x, y }: { z: number; x: number; y: number }) => `${z}/${x}/${y}`;
    const changed = index.takeChanged();
    expect(changed !== 'all' && changed.map(key).sort()).toEqual(
      [...new Set(expected.map(([z, x, y]) => key({ z, x, y })))].sort(),
    );
    // Nothing since: nothing to cut again.
    index.apply(userBatch(() => undefined, [], [], false, names));
    expect(index.takeChanged()).toEqual([]);
    // A removal changes its tiles too.
    index.apply(userBatch(() => undefined, [], [2], false, names));
    expect(index.takeChanged()).toHaveLength(3);
    // Only what is in view counts: a move far outside it changes no tile the map shows.
    index.watch(14.6, [113.99, 22.49, 114.01, 22.61]);
    index.takeChanged();
    points.set(150, at(115.5, 22.5));
    index.apply(userBatch((id) => points.get(id), [150], [], false, names));
    expect(index.takeChanged()).toEqual([]);
    points.set(1, at(114.0, 22.5));
    index.apply(userBatch((id) => points.get(id), [1], [], false, names));
    expect(index.takeChanged()).toHaveLength(6);
    // Users moved across more tiles than listing them is worth: all of them.
    index.watch(14.6);
    index.takeChanged();
    for (let id = 3; id <= 200; id++) points.set(id, at(115 + id * 0.01, 23));
    index.apply(userBatch((id) => points.get(id), [...points.keys()].slice(2), [], false, names));
    expect(MAX_CHANGED_TILES).toBeLessThan(200);
    expect(index.takeChanged()).toBe('all');
  });

  test('refuses an expansion zoom for a single user, a cluster id of no zoom and a fraction', () => {
    const index = new UserTileIndex();
    send(
      index,
      new Map([
        [1, at(1, 1)],
        [2, at(1, 1)],
      ]),
      new Map(),
      true,
    );
    const [cluster] = features(index, ...tileOf(1, 1, 3));
    const id = cluster!.properties.cluster_id as number;
    expect(index.expansionZoom(id)).toBe(CLUSTER_MAX_ZOOM + 1); // in one place: apart only above the cluster zooms
    for (const bad of [id + 0.5, -1, 2 ** 40, Number.NaN]) expect(() => index.expansionZoom(bad)).toThrow();
    send(index, new Map([[1, at(1, 1)]]), new Map(), true);
    expect(() => index.expansionZoom(id)).toThrow();
  });

  test('users a few pixels apart on either side of a cell edge or a tile edge are one cluster, drawn once', () => {
    const z = 6;
    // The edge between tiles 52 and 53 of zoom 6 (a tile edge is a cell edge too): 3 px either side.
    const edge = (53 / 2 ** z) * 360 - 180;
    const px = 360 / 2 ** z / 512;
    // ...and an edge between two cells inside tile 53.
    const inner = edge + (360 / 2 ** z / CLUSTER_CELLS_PER_TILE) * 3;
    for (const line of [edge, inner]) {
      const index = new UserTileIndex();
      send(
        index,
        new Map([
          [1, at(line - 3 * px, 22.5)],
          [2, at(line + 3 * px, 22.5)],
        ]),
        new Map(),
        true,
      );
      const [, , y] = tileOf(line, 22.5, z);
      const drawn = [52, 53].flatMap((x) => features(index, z, x, y));
      expect(drawn.map((feature) => feature.properties.point_count)).toEqual([2]);
      // Apart from the first zoom where they are more than the radius apart (6 px at zoom 6: zoom 9).
      const opens = index.expansionZoom(drawn[0]!.properties.cluster_id as number);
      expect(opens).toBe(z + Math.ceil(Math.log2(CLUSTER_RADIUS_PX / 6)));
    }
  });

  test('every user is drawn exactly once at every zoom, however the cells group', () => {
    let seed = 3;
    const random = () => ((seed = (seed * 16807) % 2147483647) - 1) / 2147483646;
    const points = new Map<number, UserPoint>();
    // Dense clumps and a sparse spread, 0.3° across: groups meet at tile and cell edges at every zoom.
    for (let id = 1; id <= 1500; id++) {
      const clump = id % 3 === 0;
      const lon = 114 + (clump ? 0.15 + random() * 0.002 : random() * 0.3);
      points.set(
        id,
        at(lon, 22.4 + (clump ? 0.15 + random() * 0.002 : random() * 0.3), id % 50 === 0 ? 'sos' : 'online'),
      );
    }
    const index = new UserTileIndex();
    send(index, points, new Map(), true);
    for (let z = 0; z <= CLUSTER_MAX_ZOOM + 1; z++) {
      const [, x0, y0] = tileOf(113.99, 22.71, z);
      const [, x1, y1] = tileOf(114.31, 22.39, z);
      let drawn = 0;
      let alone = 0;
      const ids = new Set<number>();
      for (let x = x0; x <= x1; x++) {
        for (let y = y0; y <= y1; y++) {
          for (const feature of features(index, z, x, y)) {
            if (feature.properties.cluster === true) drawn += feature.properties.point_count as number;
            else {
              drawn += 1;
              alone += 1;
              ids.add(feature.id!);
            }
          }
        }
      }
      expect({ z, drawn }).toEqual({ z, drawn: points.size });
      expect(ids.size, 'a user drawn twice').toBe(alone);
    }
  });
});
