import type { Feature, FeatureCollection } from 'geojson';
import type { MapHandle } from './mapContext';
import { positions } from './shapeDrawFeatures';
import { circleRing, type LatLonPair } from './shapeGeometry';

/** A fence or zone as the map layer draws it (a geofence row fits). */
export interface MapFence {
  GF_ID: number;
  Name: string;
  Kind: string;
  Center: LatLonPair | null;
  Radius: number | null;
  Points: LatLonPair[] | null;
}

/** The outline of a fence, `[lat, lon]`, longitudes continuous; empty for a fence without its shape. */
function outline(fence: MapFence): LatLonPair[] {
  if (fence.Kind === 'circle') return fence.Center && fence.Radius ? circleRing(fence.Center, fence.Radius) : [];
  return fence.Points && fence.Points.length >= 3 ? fence.Points : [];
}

/**
 * Where a fence's name goes: its northernmost point, the name drawn above it, so it stays clear of
 * the users inside the fence.
 */
function labelAt(ring: [number, number][]): [number, number] {
  return ring.reduce((top, point) => (point[1] > top[1] ? point : top));
}

/** The fences as areas (outlined, translucent) and as name labels, in the basemap's datum. */
export function fenceFeatures(
  fences: readonly MapFence[],
  project: MapHandle['project'],
): { areas: FeatureCollection; labels: FeatureCollection } {
  const areas: Feature[] = [];
  const labels: Feature[] = [];
  for (const fence of fences) {
    const points = outline(fence);
    if (points.length < 3) continue;
    const ring = positions(points, project);
    const properties = { id: fence.GF_ID, name: fence.Name };
    areas.push({ type: 'Feature', properties, geometry: { type: 'Polygon', coordinates: [[...ring, ring[0]!]] } });
    labels.push({
      type: 'Feature',
      properties,
      geometry: { type: 'Point', coordinates: labelAt(ring) },
    });
  }
  return {
    areas: { type: 'FeatureCollection', features: areas },
    labels: { type: 'FeatureCollection', features: labels },
  };
}
