import { distanceMeters, TRACK_GAP_MS, type Track } from '@intercom/contract';

export interface TrackSpeeds {
  /** km/h: distance covered while moving over the moving time. */
  avgSpeed: number;
  /** km/h: the highest reported speed or speed between two fixes while moving; never below avgSpeed. */
  maxSpeed: number;
}

const round1 = (value: number) => Math.round(value * 10) / 10;

/**
 * The track's speeds by one definition, from its fixes (the whole arrays of the Track answer).
 * Moving is every step between two consecutive fixes that lies in no stop and is no "no data" gap.
 * Average: the distance of those steps over their time (the moving time of the stats). Maximum:
 * the highest of the speeds the terminals reported on those steps and the steps' own speeds
 * (distance over time). The average is a time-weighted mean of the steps' speeds, so it can never
 * pass the maximum (the server's answer took the average from the whole distance, jitter inside
 * stops included, and the maximum from reported speeds only: average above maximum was possible).
 */
export function trackSpeeds(track: Pick<Track, 't' | 'lat' | 'lon' | 'speed' | 'stops'>): TrackSpeeds {
  const { t, lat, lon, speed, stops } = track;
  let distance = 0;
  let movingMs = 0;
  let maxSpeed = 0;
  let stop = 0;
  for (let i = 1; i < t.length; i++) {
    const begin = t[i - 1]!;
    const end = t[i]!;
    while (stop < stops.length && stops[stop]!.end <= begin) stop++;
    const inStop = stop < stops.length && stops[stop]!.begin <= begin && end <= stops[stop]!.end;
    const dt = end - begin;
    if (inStop || dt <= 0 || dt > TRACK_GAP_MS) continue;
    const metres = distanceMeters(lat[i - 1]!, lon[i - 1]!, lat[i]!, lon[i]!);
    distance += metres;
    movingMs += dt;
    maxSpeed = Math.max(maxSpeed, (metres / dt) * 3600, speed[i] ?? 0);
  }
  const avgSpeed = movingMs > 0 ? (distance / movingMs) * 3600 : 0;
  // Rounded apart, the two could still cross by a tenth: round the maximum up from the average.
  return { avgSpeed: round1(avgSpeed), maxSpeed: Math.max(round1(maxSpeed), round1(avgSpeed)) };
}
