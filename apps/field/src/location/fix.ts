/** One position as the `/terminal` protocol takes it (docs/terminal-protocol.md, "A fix"). */
export interface Fix {
  lat: number;
  lon: number;
  /** Epoch ms of the fix. */
  time: number;
  /** km/h. */
  speed?: number;
  /** Degrees, 0-360. */
  course?: number;
  /** Metres. */
  accuracy?: number;
  altitude?: number;
}

function finite(value: number | null | undefined): value is number {
  return typeof value === 'number' && Number.isFinite(value);
}

/** A browser position as a fix: speed m/s → km/h, heading → course; absent or NaN fields left out. */
export function fixOf(position: GeolocationPosition): Fix {
  const { coords } = position;
  const fix: Fix = { lat: coords.latitude, lon: coords.longitude, time: Math.round(position.timestamp) };
  if (finite(coords.speed)) fix.speed = Math.min(2000, Math.max(0, coords.speed * 3.6));
  if (finite(coords.heading)) fix.course = Math.min(360, Math.max(0, coords.heading));
  if (finite(coords.accuracy)) fix.accuracy = coords.accuracy;
  if (finite(coords.altitude)) fix.altitude = coords.altitude;
  return fix;
}

const EARTH_RADIUS_M = 6_371_000;

/** Great-circle distance in metres (haversine). */
export function distanceMetres(a: Pick<Fix, 'lat' | 'lon'>, b: Pick<Fix, 'lat' | 'lon'>): number {
  const rad = Math.PI / 180;
  const dLat = (b.lat - a.lat) * rad;
  const dLon = (b.lon - a.lon) * rad;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(a.lat * rad) * Math.cos(b.lat * rad) * Math.sin(dLon / 2) ** 2;
  return 2 * EARTH_RADIUS_M * Math.asin(Math.min(1, Math.sqrt(h)));
}
