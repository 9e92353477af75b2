/** The layer of the users' tiles with a square footprint per user and per cluster (the 3D map extrudes it). */
export const USERS_COLUMNS_LAYER = 'columns';

/** Tile coordinates to a pixel: MapLibre draws a tile of 4096 units 512 px wide. */
const UNITS_PER_PIXEL = 8;
/** Half the width of a user's column, in pixels at the tile's own zoom. */
export const USER_COLUMN_HALF_PX = 5;
/** Half the width of a cluster's column. */
export const CLUSTER_COLUMN_HALF_PX = 9;

/** A feature of a geojson-vt tile (what supercluster's getTile gives): type 1 a point, 3 a polygon. */
export interface VtFeature {
  type: 1 | 2 | 3;
  geometry: unknown;
  tags: Record<string, unknown> | null;
  id?: number | string;
}

/**
 * The footprints of the points of a tile: a square around each, wider for a cluster, carrying only
 * what the columns are coloured, sized and clicked by (state; cluster id and count), not the names.
 * Rings run clockwise on the screen (y down), as the vector tile format wants an outer ring.
 */
export function columnFootprints(points: readonly VtFeature[]): VtFeature[] {
  const footprints: VtFeature[] = [];
  for (const point of points) {
    if (point.type !== 1) continue;
    const at = (point.geometry as [number, number][])[0];
    if (!at) continue;
    const tags = point.tags ?? {};
    const cluster = tags.cluster === true;
    const half = (cluster ? CLUSTER_COLUMN_HALF_PX : USER_COLUMN_HALF_PX) * UNITS_PER_PIXEL;
    const [x, y] = at;
    const ring: [number, number][] = [
      [x - half, y - half],
      [x + half, y - half],
      [x + half, y + half],
      [x - half, y + half],
      [x - half, y - half],
    ];
    footprints.push({
      type: 3,
      geometry: [ring],
      tags: cluster
        ? { cluster: true, cluster_id: tags.cluster_id, point_count: tags.point_count }
        : { state: tags.state },
      ...(point.id === undefined ? {} : { id: point.id }),
    });
  }
  return footprints;
}
