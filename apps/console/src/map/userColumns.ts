import type { Feature, FeatureCollection, Polygon } from 'geojson';

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

/**
 * The columns of `users` sized for `zoom`: footprints and heights in metres that span a fixed
 * number of pixels at that zoom (the map is redrawn with new ones when the zoom settles). Each
 * feature carries `id`, `cluster`, `state` and `height` (metres) for the paint and for clicks.
 */
export function columnFeatures(users: readonly ColumnUser[], zoom: number): FeatureCollection<Polygon> {
  const features: Feature<Polygon>[] = users.slice(0, MAX_COLUMNS).map((user) => {
    const metresPerPixel = (METRES_PER_PIXEL_Z0 * Math.cos((user.lat * Math.PI) / 180)) / 2 ** zoom;
    const radius = (user.cluster ? CLUSTER_RADIUS_PX : USER_RADIUS_PX) * metresPerPixel;
    return {
      type: 'Feature',
      geometry: { type: 'Polygon', coordinates: [footprint(user.lon, user.lat, radius)] },
      properties: {
        id: user.id,
        cluster: user.cluster,
        state: user.state,
        height: heightPx(user) * metresPerPixel,
      },
    };
  });
  return { type: 'FeatureCollection', features };
}

/**
 * A key that changes when what `columnFeatures` draws would: the users (in the order given: sort
 * them first), their states and the zoom.
 */
export function columnsKey(users: readonly ColumnUser[], zoom: number): string {
  const parts = users
    .slice(0, MAX_COLUMNS)
    .map((user) => `${user.cluster ? 'c' : 'u'}${user.id}:${user.lon},${user.lat}:${user.state}:${user.count}`);
  return `${zoom}|${parts.join(';')}`;
}
