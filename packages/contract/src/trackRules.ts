/**
 * The track rules (SPEC.md section 4, DESIGN.md section 8), used by the server to answer
 * `GET /api/GISLocation/Track` and by the console to replay it: one implementation, so the stats
 * the server reports and what the map shows never disagree.
 */

import { distanceMeters } from './geodesy.js';

/** A silence longer than this is "no data": neither a stop nor movement. */
export const TRACK_GAP_MS = 60 * 60_000;
/** A stop is a stay within this radius (metres)... */
export const DEFAULT_STOP_RADIUS_M = 30;
/** ...for at least this long. */
export const DEFAULT_STOP_MIN_MS = 5 * 60_000;

/** Fixes as parallel arrays, oldest first (the compact shape of the Track call). */
export interface TrackPoints {
  /** Epoch ms. */
  t: number[];
  lat: number[];
  lon: number[];
  /** km/h; where the terminal sent none, the speed from the previous fix. */
  speed: number[];
  /** Degrees; null where the terminal sent none. */
  course: (number | null)[];
  /** H_Type (fix type). */
  type: number[];
}

export interface TrackStop {
  begin: number;
  end: number;
  lat: number;
  lon: number;
}

export interface TrackGap {
  begin: number;
  end: number;
}

export interface TrackStats {
  /** Metres, cumulative haversine distance. */
  distance: number;
  movingMs: number;
  stoppedMs: number;
  /** km/h. */
  maxSpeed: number;
  /** km/h over the moving time. */
  avgSpeed: number;
}

export interface Track extends TrackPoints, TrackStats {
  stops: TrackStop[];
  gaps: TrackGap[];
}

export interface StopRule {
  /** Metres; 0 is SPEC.md's rule: only consecutive identical points make a stop. */
  radius: number;
  minMs: number;
}

export interface RawFix {
  t: number;
  lat: number;
  lon: number;
  speed: number | null;
  course: number | null;
  type: number;
}

const round = (value: number, digits: number) => {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
};

/**
 * Consecutive identical positions merge (SPEC.md section 4): a run of fixes at the same place
 * keeps its first and last fix only, so a parked terminal reporting every second costs two
 * points, and the run's begin and end times survive for the stop rule.
 */
export function mergeIdentical(fixes: readonly RawFix[]): TrackPoints {
  const out: TrackPoints = { t: [], lat: [], lon: [], speed: [], course: [], type: [] };
  const n = fixes.length;
  for (let i = 0; i < n; i++) {
    const fix = fixes[i] as RawFix;
    const prev = fixes[i - 1];
    const next = fixes[i + 1];
    const samePrev = prev !== undefined && prev.lat === fix.lat && prev.lon === fix.lon;
    const sameNext = next !== undefined && next.lat === fix.lat && next.lon === fix.lon;
    if (samePrev && sameNext) continue;
    const last = out.t.length - 1;
    let speed = fix.speed;
    if (speed === null) {
      const dt = last >= 0 ? fix.t - (out.t[last] as number) : 0;
      const d = last >= 0 ? distanceMeters(out.lat[last] as number, out.lon[last] as number, fix.lat, fix.lon) : 0;
      speed = dt > 0 && dt <= TRACK_GAP_MS ? (d / dt) * 3600 : 0;
    }
    out.t.push(fix.t);
    out.lat.push(round(fix.lat, 6));
    out.lon.push(round(fix.lon, 6));
    out.speed.push(round(speed, 1));
    out.course.push(fix.course === null ? null : round(fix.course, 1));
    out.type.push(fix.type);
  }
  return out;
}

/** Silences over an hour: drawn as "no data", counted as neither moving nor stopped. */
export function findGaps(t: readonly number[], gapMs = TRACK_GAP_MS): TrackGap[] {
  const gaps: TrackGap[] = [];
  for (let i = 1; i < t.length; i++) {
    const a = t[i - 1] as number;
    const b = t[i] as number;
    if (b - a > gapMs) gaps.push({ begin: a, end: b });
  }
  return gaps;
}

/**
 * Stops: a stay within `radius` of where it began for at least `minMs` (what tracking products
 * call a stop; radius 0 keeps SPEC.md's identical-points rule). One pass: the candidate is
 * anchored at its first fix and ends at the first fix outside the radius or before a gap; a
 * gap never belongs to a stop. The stop's place is the mean of its fixes.
 */
export function findStops(points: Pick<TrackPoints, 't' | 'lat' | 'lon'>, rule: StopRule): TrackStop[] {
  const { t, lat, lon } = points;
  const stops: TrackStop[] = [];
  const n = t.length;
  let anchor = 0;
  const close = (last: number) => {
    const begin = t[anchor] as number;
    const end = t[last] as number;
    if (last > anchor && end - begin >= rule.minMs && end > begin) {
      let sumLat = 0;
      let sumLon = 0;
      for (let k = anchor; k <= last; k++) {
        sumLat += lat[k] as number;
        sumLon += lon[k] as number;
      }
      const count = last - anchor + 1;
      stops.push({ begin, end, lat: round(sumLat / count, 6), lon: round(sumLon / count, 6) });
    }
  };
  for (let i = 1; i < n; i++) {
    const gap = (t[i] as number) - (t[i - 1] as number) > TRACK_GAP_MS;
    const away =
      gap ||
      distanceMeters(lat[anchor] as number, lon[anchor] as number, lat[i] as number, lon[i] as number) > rule.radius;
    if (away) {
      close(i - 1);
      anchor = i;
    }
  }
  if (n > 0) close(n - 1);
  return stops;
}

/** Distance, moving and stopped time, maximum and average speed of merged points. */
export function trackStats(points: TrackPoints, stops: readonly TrackStop[], gaps: readonly TrackGap[]): TrackStats {
  const { t, lat, lon, speed } = points;
  let distance = 0;
  let maxSpeed = 0;
  for (let i = 0; i < t.length; i++) {
    if (i > 0)
      distance += distanceMeters(lat[i - 1] as number, lon[i - 1] as number, lat[i] as number, lon[i] as number);
    maxSpeed = Math.max(maxSpeed, speed[i] as number);
  }
  const span = t.length > 1 ? (t[t.length - 1] as number) - (t[0] as number) : 0;
  const stoppedMs = stops.reduce((sum, s) => sum + (s.end - s.begin), 0);
  const gapMs = gaps.reduce((sum, g) => sum + (g.end - g.begin), 0);
  const movingMs = Math.max(0, span - stoppedMs - gapMs);
  const avgSpeed = movingMs > 0 ? (distance / movingMs) * 3600 : 0;
  return {
    distance: Math.round(distance),
    movingMs,
    stoppedMs,
    maxSpeed: round(maxSpeed, 1),
    avgSpeed: round(avgSpeed, 1),
  };
}

/** The whole track of fixes ordered by time: merged points, stops, gaps and stats. */
export function buildTrack(
  fixes: readonly RawFix[],
  rule: StopRule = { radius: DEFAULT_STOP_RADIUS_M, minMs: DEFAULT_STOP_MIN_MS },
): Track {
  const points = mergeIdentical(fixes);
  const gaps = findGaps(points.t);
  const stops = findStops(points, rule);
  return { ...points, stops, gaps, ...trackStats(points, stops, gaps) };
}

/** Index of the last fix at or before `time` (-1 before the first): binary search. */
export function fixIndexAt(t: readonly number[], time: number): number {
  let lo = 0;
  let hi = t.length - 1;
  let found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if ((t[mid] as number) <= time) {
      found = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return found;
}

/**
 * Where the terminal was at `time`: linear between the two fixes around it (the replay's moving
 * marker), the fix itself at the ends, and held still across a gap (no data, no guessed path).
 * Longitudes interpolate the short way round the antimeridian.
 */
export function positionAt(
  points: Pick<TrackPoints, 't' | 'lat' | 'lon'>,
  time: number,
): { lat: number; lon: number; index: number } | undefined {
  const { t, lat, lon } = points;
  if (t.length === 0) return undefined;
  const i = Math.max(0, fixIndexAt(t, time));
  const j = Math.min(i + 1, t.length - 1);
  const t0 = t[i] as number;
  const t1 = t[j] as number;
  if (j === i || time <= t0 || t1 - t0 > TRACK_GAP_MS)
    return { lat: lat[i] as number, lon: lon[i] as number, index: i };
  const f = Math.min(1, (time - t0) / (t1 - t0));
  let dLon = (lon[j] as number) - (lon[i] as number);
  if (dLon > 180) dLon -= 360;
  else if (dLon < -180) dLon += 360;
  let x = (lon[i] as number) + dLon * f;
  if (x > 180) x -= 360;
  else if (x < -180) x += 360;
  return { lat: (lat[i] as number) + ((lat[j] as number) - (lat[i] as number)) * f, lon: x, index: i };
}
