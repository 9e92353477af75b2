import { GeofenceKinds } from './geofence.js';
import { unwrapLongitudes, type LatLon } from './geofenceGeometry.js';
import { METRES_PER_DEGREE, boxOf, circleBox, distanceMeters, wrappedBoxes, type GeoBox } from './geodesy.js';

const RAD = Math.PI / 180;

/**
 * A geofence's or an incident's zone as the checks use it: its boxes for a spatial index, and how
 * deep a point lies in it. One implementation for the server's per-fix checks and anyone else.
 */
export interface ZoneShape {
  /** One box, or two for a shape across the antimeridian (the second shifted by 360 degrees). */
  boxes: GeoBox[];
  /** Metres from the point to the edge: positive inside, negative outside. */
  depth(lat: number, lon: number): number;
  /** `depth > 0`, for a polygon without measuring the distance to its edge. */
  inside(lat: number, lon: number): boolean;
  /**
   * `depth < -metres`: more than `metres` outside. A polygon answers a point that far from its
   * bounding box, or inside it, without measuring the distance to its edge.
   */
  beyond(lat: number, lon: number, metres: number): boolean;
}

/** A zone as its columns hold it: a circle (centre and radius) or a polygon (its points). */
export interface ZoneSource {
  Kind: string;
  CenterLat: number | null;
  CenterLon: number | null;
  Radius: number | null;
  /** `[[lat, lon], ...]` of a polygon. */
  Points: readonly LatLon[] | null;
}

export function zoneShape(source: ZoneSource): ZoneShape {
  if (source.Kind === GeofenceKinds.circle) {
    return circle(source.CenterLat ?? 0, source.CenterLon ?? 0, source.Radius ?? 0);
  }
  return polygon(source.Points ?? []);
}

function circle(lat: number, lon: number, radius: number): ZoneShape {
  const depth = (pLat: number, pLon: number) => radius - distanceMeters(lat, lon, pLat, pLon);
  return {
    boxes: wrappedBoxes(circleBox(lat, lon, radius)),
    depth,
    inside: (pLat, pLon) => depth(pLat, pLon) > 0,
    beyond: (pLat, pLon, metres) => depth(pLat, pLon) < -metres,
  };
}

/**
 * A polygon with continuous longitudes (so one across the antimeridian runs past 180). A point is
 * moved by 360 degrees into the polygon's longitudes, then the polygon is projected onto a plane
 * centred on the point (equirectangular: exact near the point, where the edge that matters lies).
 * Inside or not is a ray cast over the edges that straddle the point's latitude; the distance to the
 * nearest edge, dearer, is measured only when the answer needs it, as squared distances with one
 * square root at the end. The ring is kept as two `Float64Array`s read by index: the per-fix check
 * of a user inside many large polygons rests on these loops (docs/decisions.md, "Geodesy stays ours").
 */
function polygon(points: readonly LatLon[]): ZoneShape {
  const ring = unwrapLongitudes(points);
  const box = boxOf(ring);
  const n = ring.length;
  const lats = Float64Array.from(ring, (point) => point[0]);
  const lons = Float64Array.from(ring, (point) => point[1]);
  const middle = (box.minX + box.maxX) / 2;
  const near = (pLon: number) => {
    let lon = pLon;
    while (lon - middle > 180) lon -= 360;
    while (middle - lon > 180) lon += 360;
    return lon;
  };
  const kxOf = (pLat: number) => Math.cos(pLat * RAD) * METRES_PER_DEGREE;
  function contains(pLat: number, lon: number, kx: number): boolean {
    let inside = false;
    for (let i = 0, j = n - 1; i < n; j = i, i += 1) {
      // Degrees of latitude suffice here: where the edge crosses the point's latitude does not
      // depend on the vertical scale.
      const ay = (lats[i] as number) - pLat;
      const by = (lats[j] as number) - pLat;
      if (ay > 0 === by > 0) continue;
      const ax = ((lons[i] as number) - lon) * kx;
      const bx = ((lons[j] as number) - lon) * kx;
      if (0 < ((bx - ax) * -ay) / (by - ay) + ax) inside = !inside;
    }
    return inside;
  }
  function nearestEdge(pLat: number, lon: number, kx: number): number {
    let nearest2 = Infinity;
    for (let i = 0, j = n - 1; i < n; j = i, i += 1) {
      const ax = ((lons[i] as number) - lon) * kx;
      const ay = ((lats[i] as number) - pLat) * METRES_PER_DEGREE;
      const distance2 = originToSegment2(
        ax,
        ay,
        ((lons[j] as number) - lon) * kx,
        ((lats[j] as number) - pLat) * METRES_PER_DEGREE,
      );
      if (distance2 < nearest2) nearest2 = distance2;
    }
    return Math.sqrt(nearest2);
  }
  return {
    boxes: wrappedBoxes(box),
    depth(pLat, pLon) {
      const lon = near(pLon);
      const kx = kxOf(pLat);
      const nearest = nearestEdge(pLat, lon, kx);
      return contains(pLat, lon, kx) ? nearest : -nearest;
    },
    inside: (pLat, pLon) => contains(pLat, near(pLon), kxOf(pLat)),
    beyond(pLat, pLon, metres) {
      const lon = near(pLon);
      const kx = kxOf(pLat);
      // On the same plane the ring lies within its box: no edge is nearer than the box.
      const dx = Math.max(box.minX - lon, lon - box.maxX, 0) * kx;
      const dy = Math.max(box.minY - pLat, pLat - box.maxY, 0) * METRES_PER_DEGREE;
      if (Math.hypot(dx, dy) > metres) return true;
      return !contains(pLat, lon, kx) && nearestEdge(pLat, lon, kx) > metres;
    },
  };
}

/** Squared distance from (0, 0) to the segment a-b. */
function originToSegment2(ax: number, ay: number, bx: number, by: number): number {
  const dx = bx - ax;
  const dy = by - ay;
  const length2 = dx * dx + dy * dy;
  const t = length2 === 0 ? 0 : Math.max(0, Math.min(1, -(ax * dx + ay * dy) / length2));
  const x = ax + t * dx;
  const y = ay + t * dy;
  return x * x + y * y;
}
