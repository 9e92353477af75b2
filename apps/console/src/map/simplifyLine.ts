/** Points per window: bounds the worst case at WINDOW times the points, a few milliseconds a day. */
export const WINDOW = 512;

/** Metres per degree of latitude (and of longitude at the equator). */
const METRES_PER_DEGREE = 111_320;

/**
 * Douglas-Peucker over [lon, lat] points with a tolerance in metres: the points whose removal
 * moves the line by less than `tolerance` go. The first and last point always stay. Distances
 * are measured in a local flat frame (longitude scaled by the cosine of the first point's
 * latitude), exact enough at the metre tolerances the path is drawn with. Iterative, and run over
 * windows of WINDOW points sharing their ends: a zigzag of jitter (every point out of tolerance)
 * makes plain Douglas-Peucker quadratic, and a day of fixes is one line.
 */
export function simplifyLine(
  points: [number, number][],
  tolerance: number,
  /** Counts the points measured against a segment, the work that grows with the line (tests). */
  work?: { measured: number },
): [number, number][] {
  const n = points.length;
  if (n < 3) return points;
  const kx = METRES_PER_DEGREE * Math.cos(((points[0] as [number, number])[1] * Math.PI) / 180);
  const ky = METRES_PER_DEGREE;
  const keep = new Uint8Array(n);
  keep[0] = 1;
  keep[n - 1] = 1;
  const limit = tolerance * tolerance;
  const stack: number[] = [];
  for (let first = 0; first < n - 1; first += WINDOW) {
    const last = Math.min(first + WINDOW, n - 1);
    keep[last] = 1;
    stack.push(first, last);
  }
  while (stack.length > 0) {
    const last = stack.pop() as number;
    const first = stack.pop() as number;
    const [ax, ay] = points[first] as [number, number];
    const [bx, by] = points[last] as [number, number];
    const dx = (bx - ax) * kx;
    const dy = (by - ay) * ky;
    const length2 = dx * dx + dy * dy;
    let worst = -1;
    let worstAt = -1;
    if (work) work.measured += last - first - 1;
    for (let i = first + 1; i < last; i++) {
      const [px, py] = points[i] as [number, number];
      const ex = (px - ax) * kx;
      const ey = (py - ay) * ky;
      // Squared distance to the segment (to its nearer end where the foot falls outside it).
      const along = length2 === 0 ? 0 : Math.max(0, Math.min(1, (ex * dx + ey * dy) / length2));
      const fx = ex - along * dx;
      const fy = ey - along * dy;
      const distance2 = fx * fx + fy * fy;
      if (distance2 > worst) {
        worst = distance2;
        worstAt = i;
      }
    }
    if (worst > limit) {
      keep[worstAt] = 1;
      stack.push(first, worstAt, worstAt, last);
    }
  }
  const kept: [number, number][] = [];
  for (let i = 0; i < n; i++) if (keep[i]) kept.push(points[i] as [number, number]);
  return kept;
}
