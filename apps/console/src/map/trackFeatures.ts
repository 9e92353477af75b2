import type { Track } from '@intercom/contract';
import type { Feature, FeatureCollection, LineString, Point } from 'geojson';
import { simplifyLine } from './simplifyLine';

/** Upper bounds (km/h) of the speed classes the path is coloured by, and their colours. */
export const SPEED_CLASSES: readonly { below: number; colour: string }[] = [
  { below: 10, colour: '#1677ff' },
  { below: 30, colour: '#13c2c2' },
  { below: 60, colour: '#52c41a' },
  { below: 90, colour: '#fa8c16' },
  { below: Number.POSITIVE_INFINITY, colour: '#f5222d' },
];

/** Fixes each side averaged before classing: a second-by-second jitter should not stripe the path. */
const SMOOTH = 5;

/**
 * Metres the drawn path may deviate from the fixes: under GPS accuracy and under a pixel up to
 * zoom 17. A day at 1 Hz shrinks several times over, and handing the map worker tens of thousands
 * of coordinates was most of the main thread's time from Query to the path drawn (bench/track.ts).
 * The track's arrays stay whole for the replay, the timeline and the stats.
 */
export const PATH_TOLERANCE_METRES = 1;

function speedClass(speed: number): number {
  return SPEED_CLASSES.findIndex((c) => speed < c.below);
}

type Project = (lon: number, lat: number) => [number, number];

/**
 * The path as few lines as its speed allows: one LineString per run of fixes in the same speed
 * class (after a moving average), each starting where the previous ended, and a dashed line over
 * each "no data" gap. Tens of features for a day, not one per fix, each simplified to
 * PATH_TOLERANCE_METRES.
 */
export function trackPathFeatures(track: Track, project: Project): FeatureCollection<LineString> {
  const { t, lat, lon, speed } = track;
  const n = t.length;
  const features: Feature<LineString>[] = [];
  // Prefix sums make each moving average O(1).
  const sums = new Float64Array(n + 1);
  for (let i = 0; i < n; i++) sums[i + 1] = (sums[i] as number) + (speed[i] as number);
  const smoothed = (i: number) => {
    const a = Math.max(0, i - SMOOTH);
    const b = Math.min(n - 1, i + SMOOTH);
    return ((sums[b + 1] as number) - (sums[a] as number)) / (b - a + 1);
  };
  const gapStarts = new Set(track.gaps.map((g) => g.begin));
  let line: [number, number][] = [];
  let cls = -1;
  const flush = () => {
    if (line.length > 1)
      features.push({
        type: 'Feature',
        geometry: { type: 'LineString', coordinates: simplifyLine(line, PATH_TOLERANCE_METRES) },
        properties: { cls },
      });
  };
  for (let i = 0; i < n; i++) {
    const point = project(lon[i] as number, lat[i] as number);
    const next = speedClass(smoothed(i));
    if (next !== cls && line.length > 0) {
      flush();
      line = [line[line.length - 1] as [number, number]];
    }
    cls = next;
    line.push(point);
    if (gapStarts.has(t[i] as number) && i + 1 < n) {
      flush();
      const after = project(lon[i + 1] as number, lat[i + 1] as number);
      features.push({
        type: 'Feature',
        geometry: { type: 'LineString', coordinates: [point, after] },
        properties: { cls: -1, gap: true },
      });
      line = [];
    }
  }
  flush();
  return { type: 'FeatureCollection', features };
}

/** Start and end of the track, and its stops numbered in order. */
export function trackPointFeatures(track: Track, project: Project): FeatureCollection<Point> {
  const n = track.t.length;
  const features: Feature<Point>[] = track.stops.map((stop, index) => ({
    type: 'Feature',
    id: index,
    geometry: { type: 'Point', coordinates: project(stop.lon, stop.lat) },
    properties: { kind: 'stop', index, label: String(index + 1) },
  }));
  if (n > 0) {
    const at = (i: number) => project(track.lon[i] as number, track.lat[i] as number);
    features.push({ type: 'Feature', geometry: { type: 'Point', coordinates: at(0) }, properties: { kind: 'start' } });
    features.push({
      type: 'Feature',
      geometry: { type: 'Point', coordinates: at(n - 1) },
      properties: { kind: 'end' },
    });
  }
  return { type: 'FeatureCollection', features };
}
