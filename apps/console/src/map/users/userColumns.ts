import type { Feature, FeatureCollection, Polygon } from 'geojson';
import type { GeoJSONSourceDiff } from 'maplibre-gl';

/** A user or a cluster of users drawn as a column on the 3D map. */
export interface ColumnUser {
  /** The user's id, or the cluster's (`cluster` set). */
  id: number;
  cluster: boolean;
  lon: number;
  lat: number;
  /** The user's map state (UserMapState); a cluster's is unused. */
  state: string;
  /** Users in a cluster; 1 for a user. */
  count: number;
}

/** Sides of a column: a hexagon reads as round and keeps the extrusion at 6 walls. */
export const COLUMN_SIDES = 6;
/** At most this many columns: beyond them the 3D map costs a PC without a GPU too much. */
export const MAX_COLUMNS = 1500;
/** Metres a pixel spans at zoom 0 on the equator (512 px tiles). */
const METRES_PER_PIXEL_Z0 = 78_271.517;
const METRES_PER_DEGREE = 111_320;
/** On screen a user's column is this many pixels wide and tall whatever the zoom; an SOS one taller. */
const USER_RADIUS_PX = 7;
const CLUSTER_RADIUS_PX = 12;
const HEIGHT_PX = 40;
const SOS_HEIGHT_PX = 64;

function heightPx(user: ColumnUser): number {
  if (user.cluster) return HEIGHT_PX * (1 + 0.6 * Math.log(Math.max(1, user.count)));
  return user.state === 'sos' ? SOS_HEIGHT_PX : HEIGHT_PX;
}

/** A hexagonal footprint of `radius` metres around lon/lat (closed ring, counter-clockwise). */
function footprint(lon: number, lat: number, radius: number): [number, number][] {
  const cos = Math.max(0.01, Math.cos((lat * Math.PI) / 180));
  const ring: [number, number][] = [];
  for (let side = 0; side <= COLUMN_SIDES; side++) {
    const angle = ((side % COLUMN_SIDES) / COLUMN_SIDES) * 2 * Math.PI;
    ring.push([
      lon + (radius * Math.cos(angle)) / (METRES_PER_DEGREE * cos),
      lat + (radius * Math.sin(angle)) / METRES_PER_DEGREE,
    ]);
  }
  return ring;
}

/** A column's feature id: users and clusters have ids of their own kinds. */
export const columnId = (user: ColumnUser): string => `${user.cluster ? 'c' : 'u'}${user.id}`;

function metresPerPixelAt(lat: number, zoom: number): number {
  return (METRES_PER_PIXEL_Z0 * Math.cos((lat * Math.PI) / 180)) / 2 ** zoom;
}

function columnGeometry(user: ColumnUser, zoom: number): Polygon {
  const radius = (user.cluster ? CLUSTER_RADIUS_PX : USER_RADIUS_PX) * metresPerPixelAt(user.lat, zoom);
  return { type: 'Polygon', coordinates: [footprint(user.lon, user.lat, radius)] };
}

const columnHeight = (user: ColumnUser, zoom: number): number => heightPx(user) * metresPerPixelAt(user.lat, zoom);

function columnFeature(user: ColumnUser, zoom: number): Feature<Polygon> {
  return {
    type: 'Feature',
    id: columnId(user),
    geometry: columnGeometry(user, zoom),
    properties: { id: user.id, cluster: user.cluster, state: user.state, height: columnHeight(user, zoom) },
  };
}

/**
 * The columns of `users` sized for `zoom`: footprints and heights in metres that span a fixed
 * number of pixels at that zoom (the map is redrawn with new ones when the zoom settles). Each
 * feature has its `columnId` and carries `id`, `cluster`, `state` and `height` (metres) for the
 * paint and for clicks.
 */
export function columnFeatures(users: readonly ColumnUser[], zoom: number): FeatureCollection<Polygon> {
  return { type: 'FeatureCollection', features: users.slice(0, MAX_COLUMNS).map((user) => columnFeature(user, zoom)) };
}

/** What the columns' source is told next: all of them, only what changed, or nothing. */
export type ColumnsUpdate = { all: FeatureCollection<Polygon> } | { diff: GeoJSONSourceDiff } | null;

const sameColumn = (a: ColumnUser, b: ColumnUser) =>
  a.lon === b.lon && a.lat === b.lat && a.state === b.state && a.count === b.count;

/**
 * The columns drawn, and what changes them: a new zoom resizes every column (all of them again),
 * otherwise only the columns that came, went, moved or changed state or count are sent, so a
 * batch of k moves in view costs O(k) features on the way to the map (issue 52, goal 7).
 */
export class DrawnColumns {
  private drawn = new Map<string, ColumnUser>();
  private zoom: number | null = null;

  /** The update that makes the map show `users` (the first MAX_COLUMNS) at `zoom`. */
  next(users: readonly ColumnUser[], zoom: number): ColumnsUpdate {
    const shown = users.slice(0, MAX_COLUMNS);
    const next = new Map(shown.map((user) => [columnId(user), user]));
    const previous = this.drawn;
    const resized = zoom !== this.zoom;
    this.drawn = next;
    this.zoom = zoom;
    if (resized) return { all: columnFeatures(shown, zoom) };
    const remove = [...previous.keys()].filter((id) => !next.has(id));
    const add: Feature<Polygon>[] = [];
    const update: NonNullable<GeoJSONSourceDiff['update']> = [];
    for (const [id, user] of next) {
      const before = previous.get(id);
      if (!before) add.push(columnFeature(user, zoom));
      else if (!sameColumn(before, user))
        update.push({
          id,
          newGeometry: columnGeometry(user, zoom),
          addOrUpdateProperties: [
            { key: 'state', value: user.state },
            { key: 'height', value: columnHeight(user, zoom) },
          ],
        });
    }
    if (remove.length + add.length + update.length === 0) return null;
    return { diff: { remove, add, update } };
  }
}
