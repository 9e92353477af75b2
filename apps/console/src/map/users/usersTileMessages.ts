import type { Bounds } from '../../shared/hub/hubWorkerMessages';
import type { TileId, TileUser } from './UserTileIndex';

/**
 * What the page asks the users' tile worker (usersTiles.worker.ts); `id` pairs a reply with its
 * request. `feed` hands it the port on which the hub worker posts the map's batches (FeedBatch).
 */
export type UsersTileRequest =
  | { id: number; type: 'feed'; port: MessagePort }
  | { id: number; type: 'tile'; z: number; x: number; y: number }
  | { id: number; type: 'expansionZoom'; clusterId: number }
  | { id: number; type: 'user'; userId: number }
  | { id: number; type: 'watch'; zoom: number | undefined; bounds: [number, number, number, number] | undefined };

/**
 * The worker's replies, and unasked (id 0): `ready` once it listens for tile requests; `fed` once a
 * batch of the feed is clustered (its tiles can be asked for), with the users it then holds and the
 * batch's number, bounds and time sent, and the tiles it changed at the zoom the page last said it
 * shows (`watch`; 'all' when that is not known or too many changed).
 */
export type UsersTileReply =
  | { id: 0; type: 'ready' }
  | {
      id: 0;
      type: 'fed';
      batch: number;
      size: number;
      bounds: Bounds | undefined;
      sentAt: number;
      changed: TileId[] | 'all';
    }
  | { id: number; type: 'tile'; bytes: Uint8Array }
  | { id: number; type: 'expansionZoom'; zoom: number }
  | { id: number; type: 'user'; user: TileUser | undefined }
  | { id: number; type: 'error'; message: string };
