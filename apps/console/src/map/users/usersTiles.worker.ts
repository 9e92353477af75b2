// The users' tile worker: holds every user the map shows, clusters them and cuts their vector
// tiles (UserTileIndex, changed in place by each batch), so the page's main thread never handles the users as GeoJSON (UsersTileWorker talks to it).
import type { FeedBatch } from '../../shared/hub/hubWorkerMessages';
import { UserTileIndex } from './UserTileIndex';
import type { UsersTileReply, UsersTileRequest } from './usersTileMessages';
import { isTile, usersTileChannel, type TileAnswer, type TileAsk } from './usersTileUrl';

const index = new UserTileIndex();
/** The parts of a dedicated worker's global scope used here (the console compiles against the DOM's types). */
interface WorkerScope {
  name: string;
  postMessage(message: unknown, transfer: Transferable[]): void;
  onmessage: ((event: MessageEvent<UsersTileRequest>) => void) | null;
}
const scope = self as unknown as WorkerScope;

function reply(message: UsersTileReply, transfer: Transferable[] = []): void {
  scope.postMessage(message, transfer);
}

/**
 * A batch of the map's feed, straight from the hub worker; the page hears when its tiles can be cut.
 * A batch that cannot be taken (a fault of ours) is reported here and the feed goes on, so one bad
 * batch does not stop the map for good.
 */
function take({ batch, users, bounds, sentAt }: FeedBatch): void {
  try {
    index.apply(users);
  } catch (error) {
    console.error('users tile worker: a batch could not be taken', error);
  }
  reply({ id: 0, type: 'fed', batch, size: index.size, bounds, sentAt, changed: index.takeChanged() });
}

scope.onmessage = (event: MessageEvent<UsersTileRequest>) => {
  const request = event.data;
  try {
    switch (request.type) {
      case 'feed':
        request.port.onmessage = (event: MessageEvent<FeedBatch>) => take(event.data);
        return;
      case 'tile': {
        const bytes = index.tile(request.z, request.x, request.y);
        reply({ id: request.id, type: 'tile', bytes }, [bytes.buffer]);
        return;
      }
      case 'watch':
        index.watch(request.zoom, request.bounds);
        return;
      case 'expansionZoom':
        reply({ id: request.id, type: 'expansionZoom', zoom: index.expansionZoom(request.clusterId) });
        return;
      case 'user':
        reply({ id: request.id, type: 'user', user: index.user(request.userId) });
        return;
    }
  } catch (error) {
    reply({ id: request.id, type: 'error', message: error instanceof Error ? error.message : String(error) });
  }
};

// MapLibre's workers ask for tiles on the channel of this worker's key (its name).
const channel = new BroadcastChannel(usersTileChannel(scope.name));
channel.onmessage = (event: MessageEvent<TileAsk>) => {
  const ask = event.data;
  if (typeof ask?.id !== 'string' || !isTile(ask.z, ask.x, ask.y)) return;
  const bytes = index.tile(ask.z, ask.x, ask.y);
  const answer: TileAnswer = { id: ask.id, bytes: bytes.buffer as ArrayBuffer };
  channel.postMessage(answer);
};

reply({ id: 0, type: 'ready' });
