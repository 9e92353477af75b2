/** Web Mercator x of a longitude, 0-1 across the world (west to east). */
export function mercatorX(lon: number): number {
  return Math.min(1, Math.max(0, (lon + 180) / 360));
}

/** Web Mercator y of a latitude, 0-1 across the world (north to south; clamped at ±85.05113°). */
export function mercatorY(lat: number): number {
  const sin = Math.sin((Math.max(-85.05113, Math.min(85.05113, lat)) * Math.PI) / 180);
  return Math.min(1, Math.max(0, 0.5 - Math.log((1 + sin) / (1 - sin)) / (4 * Math.PI)));
}

/** The row or column of a 0-1 coordinate in a grid of `n` across the world. */
export function gridOf(v: number, n: number): number {
  return Math.min(n - 1, Math.floor(v * n));
}
