/**
 * Geodesy on the mean Earth sphere, once for the server, the console and the simulator: distance,
 * destination point and bounding boxes. Points are WGS-84 degrees. Haversine, not SPEC.md's flat
 * 111,240 / 100,000 m per degree (wrong away from about 26 degrees of latitude); it also crosses the
 * antimeridian correctly, since only the sine of the longitude difference enters.
 */

/** Mean Earth radius (IUGG), metres. */
export const EARTH_RADIUS_M = 6_371_008.8;
const RAD = Math.PI / 180;
/** Metres of one degree of latitude on that sphere. */
export const METRES_PER_DEGREE = EARTH_RADIUS_M * RAD;

/** A box in degrees: x is the longitude, y the latitude. */
export interface GeoBox {
  minX: number;
  minY: number;
  maxX: number;
  maxY: number;
}

/** Great-circle distance in metres (haversine). */
export function distanceMeters(lat1: number, lon1: number, lat2: number, lon2: number): number {
  const dLat = (lat2 - lat1) * RAD;
  const dLon = (lon2 - lon1) * RAD;
  const a = Math.sin(dLat / 2) ** 2 + Math.cos(lat1 * RAD) * Math.cos(lat2 * RAD) * Math.sin(dLon / 2) ** 2;
  return 2 * EARTH_RADIUS_M * Math.asin(Math.min(1, Math.sqrt(a)));
}

/** A longitude brought into [-180, 180). */
export function normalizeLon(lon: number): number {
  const x = (((lon + 180) % 360) + 360) % 360;
  return x - 180;
}

/** The point `meters` away from `[lat, lon]` on the bearing (degrees clockwise from north). */
export function destinationPoint(from: readonly [number, number], bearing: number, meters: number): [number, number] {
  const delta = meters / EARTH_RADIUS_M;
  const theta = bearing * RAD;
  const lat1 = from[0] * RAD;
  const lon1 = from[1] * RAD;
  const lat2 = Math.asin(Math.sin(lat1) * Math.cos(delta) + Math.cos(lat1) * Math.sin(delta) * Math.cos(theta));
  const lon2 =
    lon1 +
    Math.atan2(Math.sin(theta) * Math.sin(delta) * Math.cos(lat1), Math.cos(delta) - Math.sin(lat1) * Math.sin(lat2));
  return [lat2 / RAD, normalizeLon(lon2 / RAD)];
}

/** The box of `[lat, lon]` points (continuous longitudes: see unwrapLongitudes). */
export function boxOf(points: Iterable<readonly [number, number]>): GeoBox {
  const box = { minX: Infinity, minY: Infinity, maxX: -Infinity, maxY: -Infinity };
  for (const [lat, lon] of points) {
    box.minX = Math.min(box.minX, lon);
    box.maxX = Math.max(box.maxX, lon);
    box.minY = Math.min(box.minY, lat);
    box.maxY = Math.max(box.maxY, lat);
  }
  return box;
}

/** The box of a circle; near a pole a small circle spans every longitude. */
export function circleBox(lat: number, lon: number, radius: number): GeoBox {
  const dLat = radius / METRES_PER_DEGREE;
  const cos = Math.cos(Math.min(90, Math.abs(lat) + dLat) * RAD);
  const dLon = cos < 1e-6 ? 180 : Math.min(180, dLat / cos);
  if (dLon >= 180) return { minX: -180, minY: lat - dLat, maxX: 180, maxY: lat + dLat };
  return { minX: lon - dLon, minY: lat - dLat, maxX: lon + dLon, maxY: lat + dLat };
}

/** The box, plus its copy moved by 360 degrees where it runs past +-180, so a point in [-180, 180] finds it. */
export function wrappedBoxes(box: GeoBox): GeoBox[] {
  const boxes = [box];
  if (box.maxX > 180) boxes.push({ ...box, minX: box.minX - 360, maxX: box.maxX - 360 });
  if (box.minX < -180) boxes.push({ ...box, minX: box.minX + 360, maxX: box.maxX + 360 });
  return boxes;
}
