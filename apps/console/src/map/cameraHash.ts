/** Zoom range of the console's maps (MapLibre's defaults). */
const MIN_ZOOM = 0;
const MAX_ZOOM = 22;

/**
 * Whether `hash` (the page's location hash) holds a camera that MapLibre's `hash` option restores:
 * `#zoom/lat/lon[/bearing[/pitch]]` as its first parameter, every part a number in range (the
 * checks of MapLibre's Hash._isValidHash). The map then opens there instead of framing its users.
 */
export function cameraInHash(hash: string, maxPitch: number): boolean {
  const first = [...new URLSearchParams(hash.replace(/^#/, '')).keys()][0] ?? '';
  const parts = first.split('/');
  if (parts.length < 3 || parts.some((part) => part.trim() === '' || Number.isNaN(Number(part)))) return false;
  const [zoom, lat, lon, bearing = 0, pitch = 0] = parts.map(Number) as [number, number, number, number?, number?];
  return (
    zoom >= MIN_ZOOM &&
    zoom <= MAX_ZOOM &&
    Math.abs(lat) <= 90 &&
    Number.isFinite(lon) &&
    bearing >= -180 &&
    bearing <= 180 &&
    pitch >= 0 &&
    pitch <= maxPitch
  );
}
