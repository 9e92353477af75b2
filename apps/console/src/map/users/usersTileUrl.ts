/** The scheme of the users' tiles: `users://<key>/<z>/<x>/<y>`, cut by the tile worker of that key. */
export const USERS_TILE_PROTOCOL = 'users';

/** Highest zoom a users tile URL may name. */
const MAX_ZOOM = 24;

/** A tile worker's key: random, so two tabs (one BroadcastChannel namespace per origin) never share one. */
export function newTileWorkerKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(8));
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/** The BroadcastChannel on which MapLibre's workers ask the tile worker of `key` for tiles. */
export function usersTileChannel(key: string): string {
  return `users-tiles-${key}`;
}

/** A tile of the world at zoom z: x and y whole numbers from 0 to 2^z - 1. */
export function isTile(z: unknown, x: unknown, y: unknown): boolean {
  if (!Number.isInteger(z) || !Number.isInteger(x) || !Number.isInteger(y)) return false;
  const zoom = z as number;
  const size = 2 ** zoom;
  return (
    zoom >= 0 &&
    zoom <= MAX_ZOOM &&
    (x as number) >= 0 &&
    (x as number) < size &&
    (y as number) >= 0 &&
    (y as number) < size
  );
}

/** The worker key and tile of `users://<key>/<z>/<x>/<y>`, or undefined for any other URL or a tile outside the world. */
export function parseUsersTileUrl(url: string): { key: string; z: number; x: number; y: number } | undefined {
  const match = /^users:\/\/([0-9a-f]{1,32})\/(\d{1,2})\/(\d{1,10})\/(\d{1,10})$/.exec(url);
  if (!match) return undefined;
  const [z, x, y] = [Number(match[2]), Number(match[3]), Number(match[4])];
  return isTile(z, x, y) ? { key: match[1]!, z, x, y } : undefined;
}

/** A tile request on the channel: `id` is unique per asking worker. */
export interface TileAsk {
  id: string;
  z: number;
  x: number;
  y: number;
}

/** The answer: the tile's bytes (empty where no user is). */
export interface TileAnswer {
  id: string;
  bytes: ArrayBuffer;
}
