import type { TileUser, UserBatch } from './UserTileIndex';

/** What the page asks the users' tile worker (usersTiles.worker.ts); `id` pairs a reply with its request. */
export type UsersTileRequest =
  | { id: number; type: 'apply'; batch: UserBatch }
  | { id: number; type: 'tile'; z: number; x: number; y: number }
  | { id: number; type: 'expansionZoom'; clusterId: number }
  | { id: number; type: 'user'; userId: number };

/**
 * The worker's replies: `applied` once a batch is clustered (its tiles can be asked for); `ready`
 * (id 0, unasked) once it listens for tile requests.
 */
export type UsersTileReply =
  | { id: 0; type: 'ready' }
  | { id: number; type: 'applied'; size: number }
  | { id: number; type: 'tile'; bytes: Uint8Array }
  | { id: number; type: 'expansionZoom'; zoom: number }
  | { id: number; type: 'user'; user: TileUser | undefined }
  | { id: number; type: 'error'; message: string };
