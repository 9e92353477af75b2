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

/**
 * `hash` with its camera's bearing and pitch dropped (`#zoom/lat/lon`), the rest kept: the 2D map
 * opens a view shared from the 3D one at its place, flat (MapLibre ignores a camera whose pitch is
 * beyond the map's maximum, 0 on the 2D map).
 */
export function flatCameraHash(hash: string): string {
  const text = hash.replace(/^#/, '');
  const cut = text.indexOf('&');
  const camera = cut < 0 ? text : text.slice(0, cut);
  const parts = camera.split('/');
  if (parts.length <= 3) return hash;
  return `#${parts.slice(0, 3).join('/')}${cut < 0 ? '' : text.slice(cut)}`;
}
