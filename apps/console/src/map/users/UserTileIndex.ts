import { fromGeojsonVt } from 'vt-pbf';
import type { PlacedCell } from './CellGroups';
import {
  CELL_STRIDE,
  CLUSTER_CELLS_PER_TILE,
  CLUSTER_ID_ZOOM_STRIDE,
  CLUSTER_MAX_ZOOM,
  ClusterGrid,
  type GridPoint,
} from './ClusterGrid';
import { batchNames, type UserBatch } from '../../shared/hub/userFeed/userBatch';
import { USER_MAP_STATES, type UserMapState } from '../../shared/hub/userMapState';
import { gridOf, mercatorX, mercatorY } from './webMercator';

/** The one layer of the users' tiles (the map's layers name it as their `source-layer`). */
export const USERS_TILE_LAYER = 'users';
/** Coordinates across a tile; MapLibre draws a tile 512 px wide, so 8 to a pixel. */
export const TILE_EXTENT = 4096;
/** Highest zoom the tiles are cut at; beyond it MapLibre scales up the tiles of this zoom. */
export const USERS_TILE_MAX_ZOOM = 16;
/**
 * More changed tiles than this in one batch are reported as "all of them": MapLibre's refresh of a
 * list of tiles compares each tile it shows with every one listed.
 */
export const MAX_CHANGED_TILES = 64;

/** The zoom whose tiles hold the users one by one; the tiles of the zooms above are cut from them. */
const SINGLE_ZOOM = CLUSTER_MAX_ZOOM + 1;
const TILE_STRIDE = 2 ** 16; // tile keys across zooms: zoom, row, column (zooms up to 16)

/** What the tiles say of one user (browser tests ask the worker for it). */
export interface TileUser {
  lon: number;
  lat: number;
  name: string;
  state: UserMapState;
}

/** A tile of the map, as MapLibre names it. */
export interface TileId {
  z: number;
  x: number;
  y: number;
}

/** A user as the index holds it; x and y (Web Mercator, 0-1) place it in any zoom's tiles and cells. */
interface Held extends GridPoint {
  lon: number;
  lat: number;
  state: number;
  name: string;
}

/** Tiles x0-x1 by y0-y1 (inclusive) of zoom z. */
interface TileRange {
  z: number;
  x0: number;
  x1: number;
  y0: number;
  y1: number;
}

/** A point feature as vt-pbf encodes it (geojson-vt's tile layout). */
interface TileFeature {
  type: 1;
  id: number;
  geometry: [[number, number]];
  tags: Record<string, string | number | boolean>;
}

/**
 * The users' vector tiles, cut in the tile worker (usersTiles.worker.ts) from an index changed in
 * place: a batch of k changes costs O(k), whatever the fleet's size (issue 52, docs/decisions.md).
 * - At zooms up to CLUSTER_MAX_ZOOM the users are counted in a grid of cells (ClusterGrid). When a
 *   tile is cut, cells whose users are close are drawn together (CellGroups): a group of several
 *   users is one cluster at their mean place, with its count; of one, that user.
 * - Above, each user is a feature with its name and state, found through the tile of SINGLE_ZOOM
 *   that holds it.
 * - Users in SOS are never clustered: each is drawn on its own at every zoom, beside the clusters.
 * - The tiles a batch changed at the zooms the map shows (`watch`) are reported (`takeChanged`),
 *   so only those are cut again.
 */
export class UserTileIndex {
  private users = new Map<number, Held>();
  private grid = new ClusterGrid();
  /** The users in each tile of SINGLE_ZOOM, by key. */
  private singles = new Map<number, Set<number>>();
  /** The tiles in view (and one around) at the zooms whose changes are reported; none: every change is "all tiles". */
  private watched: TileRange[] = [];
  /** Keys (tileKey) of the watched tiles changed since the last `takeChanged`. */
  private changed = new Set<number>();
  private changedAll = false;

  get size(): number {
    return this.users.size;
  }

  user(id: number): TileUser | undefined {
    const held = this.users.get(id);
    return held && { lon: held.lon, lat: held.lat, name: held.name, state: stateOf(held.state) };
  }

  /**
   * The map shows tiles of about this zoom, within `bounds` (west, south, east, north; the world when
   * left out): the changes to report are those of its tiles, and of the zooms either side. No zoom:
   * the map shows tiles of more zooms than that (pitched), so every batch changes "all".
   */
  watch(zoom: number | undefined, bounds: [number, number, number, number] = [-180, -85.05113, 180, 85.05113]): void {
    this.changedAll = true;
    if (zoom === undefined) {
      this.watched = [];
      return;
    }
    const z = Math.max(0, Math.min(USERS_TILE_MAX_ZOOM, Math.floor(zoom)));
    const [west, south, east, north] = bounds;
    this.watched = [z - 1, z, z + 1]
      .filter((zz) => zz >= 0 && zz <= USERS_TILE_MAX_ZOOM)
      .map((zz) => {
        const n = 2 ** zz;
        // One tile more on each side: MapLibre keeps a margin of tiles about the view.
        const clamp = (v: number) => Math.max(0, Math.min(n - 1, v));
        return {
          z: zz,
          x0: clamp(gridOf(mercatorX(west), n) - 1),
          x1: clamp(gridOf(mercatorX(east), n) + 1),
          y0: clamp(gridOf(mercatorY(north), n) - 1),
          y1: clamp(gridOf(mercatorY(south), n) + 1),
        };
      });
  }

  apply(batch: UserBatch): void {
    const names = batchNames(batch);
    if (batch.replace) {
      const before = this.users;
      this.users = new Map();
      this.singles = new Map();
      this.changedAll = true;
      for (let i = 0; i < batch.ids.length; i++) {
        const id = batch.ids[i]!;
        const user = held(batch, i, names.get(id) ?? before.get(id)?.name ?? '');
        this.users.set(id, user);
        this.placeSingle(id, user, 1);
      }
      this.grid.load(this.users);
      return;
    }
    for (const id of batch.removed) {
      const old = this.users.get(id);
      if (old) this.remove(id, old);
    }
    for (let i = 0; i < batch.ids.length; i++) {
      const id = batch.ids[i]!;
      const old = this.users.get(id);
      const user = held(batch, i, names.get(id) ?? old?.name ?? '');
      if (old) this.move(id, old, user);
      else this.add(id, user);
    }
  }

  /** The tiles changed since the last call at the watched zooms, or 'all' (too many, or not known). */
  takeChanged(): TileId[] | 'all' {
    const all = this.changedAll || this.watched.length === 0 || this.changed.size > MAX_CHANGED_TILES;
    const changed = all ? 'all' : [...this.changed].map(tileOfKey);
    this.changed.clear();
    this.changedAll = false;
    return changed;
  }

  /** The tile at z/x/y as Mapbox Vector Tile bytes; empty where no user is. */
  tile(z: number, x: number, y: number): Uint8Array {
    const features = z <= CLUSTER_MAX_ZOOM ? this.clusterFeatures(z, x, y) : this.singleFeatures(z, x, y);
    if (features.length === 0) return new Uint8Array(0);
    const bytes = fromGeojsonVt({ [USERS_TILE_LAYER]: { features } as never }, { version: 2, extent: TILE_EXTENT });
    // The encoder's buffer is larger than the tile: hand over exactly the tile's bytes.
    return bytes.byteLength === bytes.buffer.byteLength ? bytes : bytes.slice();
  }

  /** The zoom at which a cluster falls apart (a click zooms there); throws for a cluster gone. */
  expansionZoom(clusterId: number): number {
    return this.grid.expansionZoom(clusterId);
  }

  private add(id: number, user: Held): void {
    this.users.set(id, user);
    this.grid.add(id, user);
    this.placeSingle(id, user, 1);
    this.changedAt(user);
  }

  private remove(id: number, user: Held): void {
    this.users.delete(id);
    this.grid.remove(id, user);
    this.placeSingle(id, user, -1);
    this.changedAt(user);
  }

  private move(id: number, old: Held, user: Held): void {
    this.users.set(id, user);
    this.grid.move(id, old, user);
    const tiles = 2 ** SINGLE_ZOOM;
    if (gridOf(old.x, tiles) !== gridOf(user.x, tiles) || gridOf(old.y, tiles) !== gridOf(user.y, tiles)) {
      this.placeSingle(id, old, -1);
      this.placeSingle(id, user, 1);
    }
    this.changedAt(old);
    this.changedAt(user);
  }

  private placeSingle(id: number, user: Held, sign: 1 | -1): void {
    const tiles = 2 ** SINGLE_ZOOM;
    const key = gridOf(user.y, tiles) * tiles + gridOf(user.x, tiles);
    let single = this.singles.get(key);
    if (sign > 0) {
      if (!single) this.singles.set(key, (single = new Set()));
      single.add(id);
    } else if (single) {
      single.delete(id);
      if (single.size === 0) this.singles.delete(key);
    }
  }

  /**
   * Notes the watched tiles where `user` is as changed. At the cluster zooms a cell's groups reach two
   * cells about it (CellGroups), so the tiles of those cells are changed too.
   */
  private changedAt(user: Held): void {
    if (this.changedAll) return;
    for (const range of this.watched) {
      const n = 2 ** range.z;
      const reach = range.z <= CLUSTER_MAX_ZOOM ? 2 / CLUSTER_CELLS_PER_TILE / n : 0;
      const x0 = Math.max(range.x0, gridOf(user.x - reach, n));
      const x1 = Math.min(range.x1, gridOf(user.x + reach, n));
      const y0 = Math.max(range.y0, gridOf(user.y - reach, n));
      const y1 = Math.min(range.y1, gridOf(user.y + reach, n));
      for (let x = x0; x <= x1; x++) for (let y = y0; y <= y1; y++) this.changed.add(tileKey(range.z, x, y));
    }
  }

  private clusterFeatures(z: number, x: number, y: number): TileFeature[] {
    const tile = this.grid.tile(z, x, y);
    if (!tile) return [];
    const features: TileFeature[] = [];
    const groups = this.grid.groups(z);
    for (const cellKey of tile.cells.keys()) {
      // A group is drawn by the tile of the cell that owns it.
      const members = groups.membersOf(cellKey % CELL_STRIDE, Math.floor(cellKey / CELL_STRIDE));
      if (members.length > 0) features.push(this.groupFeature(members, z * CLUSTER_ID_ZOOM_STRIDE + cellKey, z, x, y));
    }
    for (const id of tile.alone) features.push(this.userFeature(id, z, x, y));
    return features;
  }

  /** A group of cells: the user when there is one, else a cluster at the users' mean place. */
  private groupFeature(members: PlacedCell[], id: number, z: number, x: number, y: number): TileFeature {
    let count = 0;
    let sumX = 0;
    let sumY = 0;
    for (const { cell } of members) {
      count += cell.count;
      sumX += cell.sumX;
      sumY += cell.sumY;
    }
    if (count === 1) return this.userFeature(members[0]!.cell.sumId, z, x, y);
    return {
      type: 1,
      id,
      geometry: [tilePoint(sumX / count, sumY / count, z, x, y)],
      tags: { cluster: true, cluster_id: id, point_count: count, point_count_abbreviated: abbreviated(count) },
    };
  }

  private singleFeatures(z: number, x: number, y: number): TileFeature[] {
    const shift = z - SINGLE_ZOOM;
    const ids = this.singles.get((y >> shift) * 2 ** SINGLE_ZOOM + (x >> shift));
    if (!ids) return [];
    const tiles = 2 ** z;
    const features: TileFeature[] = [];
    for (const id of ids) {
      const user = this.users.get(id)!;
      if (gridOf(user.x, tiles) === x && gridOf(user.y, tiles) === y) features.push(this.userFeature(id, z, x, y));
    }
    return features;
  }

  private userFeature(id: number, z: number, x: number, y: number): TileFeature {
    const user = this.users.get(id)!;
    return {
      type: 1,
      id,
      geometry: [tilePoint(user.x, user.y, z, x, y)],
      tags: { name: user.name, state: stateOf(user.state) },
    };
  }
}

function held(batch: UserBatch, i: number, name: string): Held {
  const lon = batch.lon[i]!;
  const lat = batch.lat[i]!;
  const state = batch.states[i]!;
  return { lon, lat, x: mercatorX(lon), y: mercatorY(lat), sos: stateOf(state) === 'sos', state, name };
}

function tilePoint(x: number, y: number, z: number, tx: number, ty: number): [number, number] {
  const n = 2 ** z;
  return [Math.round((x * n - tx) * TILE_EXTENT), Math.round((y * n - ty) * TILE_EXTENT)];
}

function tileKey(z: number, x: number, y: number): number {
  return (z * TILE_STRIDE + y) * TILE_STRIDE + x;
}

function tileOfKey(key: number): TileId {
  const x = key % TILE_STRIDE;
  const rest = Math.floor(key / TILE_STRIDE);
  return { z: Math.floor(rest / TILE_STRIDE), y: rest % TILE_STRIDE, x };
}

/** The count on a cluster, as supercluster writes it: 1.2k from 1,000, 12k from 10,000. */
function abbreviated(count: number): string | number {
  if (count >= 10_000) return `${Math.round(count / 1000)}k`;
  if (count >= 1000) return `${Math.round(count / 100) / 10}k`;
  return count;
}

function stateOf(code: number): UserMapState {
  return USER_MAP_STATES[code] ?? 'offline';
}
