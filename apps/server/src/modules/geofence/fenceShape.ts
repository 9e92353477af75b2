import { GeofenceKinds, unwrapLongitudes, type LatLon } from '@intercom/contract';
import type { Box } from './spatialIndex.js';

/** Mean Earth radius (IUGG), metres. */
const EARTH_RADIUS = 6_371_008.8;
const RAD = Math.PI / 180;
const METRES_PER_DEGREE = EARTH_RADIUS * RAD;

/** A fence's shape as the check uses it: its boxes for the index, and how deep a point lies in it. */
export interface FenceShape {
  /** One box, or two for a shape across the antimeridian (the second shifted by 360 degrees). */
  boxes: Box[];
  /** Metres from the point to the edge: positive inside, negative outside. */
  depth(lat: number, lon: number): number;
}

export interface ShapeSource {
  Kind: string;
  CenterLat: number | null;
  CenterLon: number | null;
  Radius: number | null;
  /** `[[lat, lon], ...]` of a polygon. */
  Points: readonly LatLon[] | null;
}

/** Great-circle distance in metres (haversine). */
export function distanceMeters(lat1: number, lon1: number, lat2: number, lon2: number): number {
  const dLat = (lat2 - lat1) * RAD;
  const dLon = (lon2 - lon1) * RAD;
  const a = Math.sin(dLat / 2) ** 2 + Math.cos(lat1 * RAD) * Math.cos(lat2 * RAD) * Math.sin(dLon / 2) ** 2;
  return 2 * EARTH_RADIUS * Math.asin(Math.min(1, Math.sqrt(a)));
}

/** The box, plus its copy moved by 360 degrees where it runs past +-180, so a point in [-180, 180] finds it. */
function wrapped(box: Box): Box[] {
  const boxes = [box];
  if (box.maxX > 180) boxes.push({ ...box, minX: box.minX - 360, maxX: box.maxX - 360 });
  if (box.minX < -180) boxes.push({ ...box, minX: box.minX + 360, maxX: box.maxX + 360 });
  return boxes;
}

export function fenceShape(source: ShapeSource): FenceShape {
  if (source.Kind === GeofenceKinds.circle) {
    const lat = source.CenterLat ?? 0;
    const lon = source.CenterLon ?? 0;
    const radius = source.Radius ?? 0;
    return circle(lat, lon, radius);
  }
  return polygon(source.Points ?? []);
}

function circle(lat: number, lon: number, radius: number): FenceShape {
  const dLat = radius / METRES_PER_DEGREE;
  const cos = Math.cos(Math.min(90, Math.abs(lat) + dLat) * RAD);
  // Near a pole a small circle spans every longitude.
  const dLon = cos < 1e-6 ? 180 : Math.min(180, dLat / cos);
  const box = { minX: lon - dLon, minY: lat - dLat, maxX: lon + dLon, maxY: lat + dLat };
  return {
    boxes: dLon >= 180 ? [{ ...box, minX: -180, maxX: 180 }] : wrapped(box),
    depth: (pLat, pLon) => radius - distanceMeters(lat, lon, pLat, pLon),
  };
}

/**
 * A polygon with continuous longitudes (so one across the antimeridian runs past 180). A point is
 * moved by 360 degrees into the polygon's longitudes, then the polygon is projected onto a plane
 * centred on the point (equirectangular: exact near the point, where the edge that matters lies).
 */
function polygon(points: readonly LatLon[]): FenceShape {
  const ring = unwrapLongitudes(points);
  const box = { minX: Infinity, minY: Infinity, maxX: -Infinity, maxY: -Infinity };
  for (const [lat, lon] of ring) {
    box.minX = Math.min(box.minX, lon);
    box.maxX = Math.max(box.maxX, lon);
    box.minY = Math.min(box.minY, lat);
    box.maxY = Math.max(box.maxY, lat);
  }
  const middle = (box.minX + box.maxX) / 2;
  return {
    boxes: wrapped(box),
    depth(pLat, pLon) {
      let lon = pLon;
      while (lon - middle > 180) lon -= 360;
      while (middle - lon > 180) lon += 360;
      const kx = Math.cos(pLat * RAD) * METRES_PER_DEGREE;
      let inside = false;
      let nearest = Infinity;
      const n = ring.length;
      for (let i = 0, j = n - 1; i < n; j = i, i += 1) {
        const [aLat, aLon] = ring[i] as [number, number];
        const [bLat, bLon] = ring[j] as [number, number];
        const ax = (aLon - lon) * kx;
        const ay = (aLat - pLat) * METRES_PER_DEGREE;
        const bx = (bLon - lon) * kx;
        const by = (bLat - pLat) * METRES_PER_DEGREE;
        if (ay > 0 !== by > 0 && 0 < ((bx - ax) * (0 - ay)) / (by - ay) + ax) inside = !inside;
        nearest = Math.min(nearest, originToSegment(ax, ay, bx, by));
      }
      return inside ? nearest : -nearest;
    },
  };
}

/** Distance from (0, 0) to the segment a-b. */
function originToSegment(ax: number, ay: number, bx: number, by: number): number {
  const dx = bx - ax;
  const dy = by - ay;
  const length2 = dx * dx + dy * dy;
  const t = length2 === 0 ? 0 : Math.max(0, Math.min(1, -(ax * dx + ay * dy) / length2));
  return Math.hypot(ax + t * dx, ay + t * dy);
}
