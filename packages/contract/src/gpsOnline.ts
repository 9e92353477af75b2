/** GPS-online: a fix newer than this many report intervals (DESIGN.md section 6). */
export const GPS_ONLINE_INTERVALS = 1.5;

/**
 * The staleness rule shared by the server (hub records, counts) and the console (how a user is
 * drawn): a user is GPS-online while its latest fix (epoch ms) is at most 1.5 report intervals
 * (seconds) old at `now` (epoch ms). A fix from the future (a terminal clock ahead) counts as fresh.
 */
export function isGpsOnline(fixTime: number, intervalSeconds: number, now: number): boolean {
  if (!Number.isFinite(fixTime) || !Number.isFinite(intervalSeconds) || intervalSeconds <= 0) return false;
  return now - fixTime <= GPS_ONLINE_INTERVALS * intervalSeconds * 1000;
}

/** When a fix at `fixTime` turns stale (the first epoch ms at which `isGpsOnline` is false). */
export function gpsStaleAt(fixTime: number, intervalSeconds: number): number {
  return fixTime + Math.floor(GPS_ONLINE_INTERVALS * intervalSeconds * 1000) + 1;
}
