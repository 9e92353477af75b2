/**
 * Plane geometry of geofence polygons, shared by the server's check and the console's form.
 * Points are `[lat, lon]` in degrees, as the API takes them.
 */

/** `[lat, lon]`. */
export type LatLon = readonly [number, number];

/**
 * The polygon's longitudes made continuous: each point is moved by 360 degrees where that brings it
 * nearer its predecessor, so a polygon across the antimeridian (179 to -179) becomes one that runs
 * past 180 (179 to 181) instead of one that wraps round the globe. The first point stays put.
 */
export function unwrapLongitudes(points: readonly LatLon[]): [number, number][] {
  const out: [number, number][] = [];
  let previous: number | undefined;
  for (const [lat, lon] of points) {
    let x = lon;
    if (previous !== undefined) {
      while (x - previous > 180) x -= 360;
      while (previous - x > 180) x += 360;
    }
    out.push([lat, x]);
    previous = x;
  }
  return out;
}

const cross = (ax: number, ay: number, bx: number, by: number, cx: number, cy: number) =>
  (bx - ax) * (cy - ay) - (by - ay) * (cx - ax);

function onSegment(ax: number, ay: number, bx: number, by: number, px: number, py: number): boolean {
  return Math.min(ax, bx) <= px && px <= Math.max(ax, bx) && Math.min(ay, by) <= py && py <= Math.max(ay, by);
}

/** Whether segments a-b and c-d share a point (touching counts). */
export function segmentsIntersect(a: LatLon, b: LatLon, c: LatLon, d: LatLon): boolean {
  const d1 = cross(c[1], c[0], d[1], d[0], a[1], a[0]);
  const d2 = cross(c[1], c[0], d[1], d[0], b[1], b[0]);
  const d3 = cross(a[1], a[0], b[1], b[0], c[1], c[0]);
  const d4 = cross(a[1], a[0], b[1], b[0], d[1], d[0]);
  if (((d1 > 0 && d2 < 0) || (d1 < 0 && d2 > 0)) && ((d3 > 0 && d4 < 0) || (d3 < 0 && d4 > 0))) return true;
  if (d1 === 0 && onSegment(c[1], c[0], d[1], d[0], a[1], a[0])) return true;
  if (d2 === 0 && onSegment(c[1], c[0], d[1], d[0], b[1], b[0])) return true;
  if (d3 === 0 && onSegment(a[1], a[0], b[1], b[0], c[1], c[0])) return true;
  return d4 === 0 && onSegment(a[1], a[0], b[1], b[0], d[1], d[0]);
}

/**
 * Whether the closed ring crosses or touches itself: two edges that are not neighbours share a
 * point, neighbours fold back onto each other, or a point repeats. O(n²), at most 125,000 pairs
 * for the 500 points a fence may have.
 */
export function ringSelfIntersects(points: readonly LatLon[]): boolean {
  const ring = unwrapLongitudes(points);
  const n = ring.length;
  if (n < 3) return false;
  const at = (i: number) => ring[i % n] as LatLon;
  for (let i = 0; i < n; i += 1) {
    const a = at(i);
    const b = at(i + 1);
    if (a[0] === b[0] && a[1] === b[1]) return true;
    // Neighbours share one point; they intersect wrongly only when they are collinear and overlap.
    const c = at(i + 2);
    if (
      cross(a[1], a[0], b[1], b[0], c[1], c[0]) === 0 &&
      (b[1] - a[1]) * (c[1] - b[1]) + (b[0] - a[0]) * (c[0] - b[0]) < 0
    )
      return true;
    for (let j = i + 2; j < n; j += 1) {
      if (i === 0 && j === n - 1) continue;
      if (segmentsIntersect(a, b, at(j), at(j + 1))) return true;
    }
  }
  // A ring that unwraps to a different start and end longitude circles the pole: refused as well.
  return Math.abs((ring[n - 1] as LatLon)[1] - (ring[0] as LatLon)[1]) > 180;
}
