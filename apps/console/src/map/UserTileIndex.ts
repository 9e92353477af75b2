import type { Feature, Point } from 'geojson';
import Supercluster from 'supercluster';
import { fromGeojsonVt } from 'vt-pbf';
import { batchNames, type UserBatch } from '../shared/hub/userBatch';
import { USER_MAP_STATES, type UserMapState } from '../shared/hub/userMapState';

/** The one layer of the users' tiles (the map's layers name it as their `source-layer`). */
export const USERS_TILE_LAYER = 'users';
/** Highest zoom with clusters: from the next one every user is drawn on its own. */
export const CLUSTER_MAX_ZOOM = 11;
/** Users closer than this on screen form a cluster. */
export const CLUSTER_RADIUS_PX = 45;
/** Coordinates across a tile; MapLibre draws a tile 512 px wide, so 8 to a pixel. */
export const TILE_EXTENT = 4096;
const TILE_PIXELS = 512;
/** Highest zoom the tiles are cut at; beyond it MapLibre scales up the tiles of this zoom. */
export const USERS_TILE_MAX_ZOOM = 16;

/** What the tiles say of one user (browser tests ask the worker for it). */
export interface TileUser {
  lon: number;
  lat: number;
  name: string;
  state: UserMapState;
}

interface Held {
  lon: number;
  lat: number;
  state: number;
  name: string;
}

type UserProperties = { name: string; state: UserMapState };

/**
 * The users' vector tiles, cut in the tile worker (usersTiles.worker.ts): every user as the last
 * batch left it, clustered (supercluster) at zooms up to CLUSTER_MAX_ZOOM with counts, each user on
 * its own above, with its name and state. Users in SOS are never clustered: each is drawn on its own
 * at every zoom, beside the clusters. Clustering again takes the whole set (its index cannot
 * be changed), so it is done once per batch (`prepare`, or the first tile asked for after it).
 */
export class UserTileIndex {
  private users = new Map<number, Held>();
  private clusters: Supercluster<UserProperties> | undefined;
  /** The users in SOS, never clustered: a distress call must not hide in a count. */
  private alone: Supercluster<UserProperties> | undefined;

  get size(): number {
    return this.users.size;
  }

  user(id: number): TileUser | undefined {
    const held = this.users.get(id);
    return held && { lon: held.lon, lat: held.lat, name: held.name, state: stateOf(held.state) };
  }

  apply(batch: UserBatch): void {
    const names = batchNames(batch);
    const before = this.users;
    const users = batch.replace ? new Map<number, Held>() : before;
    if (!batch.replace) for (const id of batch.removed) users.delete(id);
    for (let i = 0; i < batch.ids.length; i++) {
      const id = batch.ids[i]!;
      const name = names.get(id) ?? before.get(id)?.name ?? '';
      users.set(id, { lon: batch.lon[i]!, lat: batch.lat[i]!, state: batch.states[i]!, name });
    }
    this.users = users;
    this.clusters = undefined;
    this.alone = undefined;
  }

  /** Clusters the users now, so the tiles asked for next are only cut. */
  prepare(): void {
    this.index();
  }

  /** The tile at z/x/y as Mapbox Vector Tile bytes; empty where no user is. */
  tile(z: number, x: number, y: number): Uint8Array {
    const clustered = this.index().getTile(z, x, y);
    const alone = this.alone?.getTile(z, x, y);
    const tile =
      alone && clustered
        ? { ...clustered, features: [...clustered.features, ...alone.features] }
        : (clustered ?? alone);
    if (!tile || tile.features.length === 0) return new Uint8Array(0);
    const bytes = fromGeojsonVt({ [USERS_TILE_LAYER]: tile as never }, { version: 2, extent: TILE_EXTENT });
    // The encoder's buffer is larger than the tile: hand over exactly the tile's bytes.
    return bytes.byteLength === bytes.buffer.byteLength ? bytes : bytes.slice();
  }

  /** The zoom at which a cluster falls apart (a click zooms there); throws for a cluster gone. */
  expansionZoom(clusterId: number): number {
    const clusters = this.index();
    // Throws for an id that is no cluster (the zoom alone would be made up).
    clusters.getChildren(clusterId);
    return clusters.getClusterExpansionZoom(clusterId);
  }

  private index(): Supercluster<UserProperties> {
    if (this.clusters) return this.clusters;
    const features: Feature<Point, UserProperties>[] = [];
    const sos: Feature<Point, UserProperties>[] = [];
    for (const [id, user] of this.users) {
      const state = stateOf(user.state);
      (state === 'sos' ? sos : features).push({
        type: 'Feature',
        id,
        geometry: { type: 'Point', coordinates: [user.lon, user.lat] },
        properties: { name: user.name, state },
      });
    }
    const options = {
      maxZoom: CLUSTER_MAX_ZOOM,
      radius: (CLUSTER_RADIUS_PX * TILE_EXTENT) / TILE_PIXELS,
      extent: TILE_EXTENT,
    };
    // No number of SOS users is enough to form a cluster.
    this.alone =
      sos.length > 0 ? new Supercluster<UserProperties>({ ...options, minPoints: Infinity }).load(sos) : undefined;
    this.clusters = new Supercluster<UserProperties>(options).load(features);
    return this.clusters;
  }
}

function stateOf(code: number): UserMapState {
  return USER_MAP_STATES[code] ?? 'offline';
}
