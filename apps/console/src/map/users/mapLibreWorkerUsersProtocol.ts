// Loaded into MapLibre's own workers (importScriptInWorkers, UsersTileWorker): there it answers
// `users://` tile requests by asking the users' tile worker on a BroadcastChannel, so the tiles go
// from worker to worker without a turn of the page's main thread, which at 50,000 users is busy
// with the hub's JSON. Imports nothing that pulls MapLibre in.
import {
  USERS_TILE_PROTOCOL,
  parseUsersTileUrl,
  usersTileChannel,
  type TileAnswer,
  type TileAsk,
} from './usersTileUrl';

/** How long a tile may take before it is drawn empty (the tile worker is gone: its map was removed). */
const TILE_TIMEOUT_MS = 10_000;
/** Channels kept open: one per map made in this page, the latest few. */
const MAX_LINKS = 4;

interface MapLibreWorkerScope {
  addProtocol(
    name: string,
    load: (params: { url: string }, abortController: AbortController) => Promise<{ data: ArrayBuffer }>,
  ): void;
}

interface Link {
  channel: BroadcastChannel;
  pending: Map<string, (bytes: ArrayBuffer) => void>;
}

const me = Math.random().toString(36).slice(2);
let asked = 0;
const links = new Map<string, Link>();

function linkTo(key: string): Link {
  const known = links.get(key);
  if (known) return known;
  const link: Link = { channel: new BroadcastChannel(usersTileChannel(key)), pending: new Map() };
  link.channel.onmessage = (event: MessageEvent<TileAnswer>) => {
    const answer = event.data;
    const resolve = link.pending.get(answer?.id);
    if (!resolve || !(answer.bytes instanceof ArrayBuffer)) return;
    link.pending.delete(answer.id);
    resolve(answer.bytes);
  };
  links.set(key, link);
  for (const [oldKey, old] of links) {
    if (links.size <= MAX_LINKS) break;
    old.channel.close();
    for (const resolve of old.pending.values()) resolve(new ArrayBuffer(0));
    links.delete(oldKey);
  }
  return link;
}

(self as unknown as MapLibreWorkerScope).addProtocol(USERS_TILE_PROTOCOL, async (params, abortController) => {
  const tile = parseUsersTileUrl(params.url);
  if (!tile) return { data: new ArrayBuffer(0) };
  const link = linkTo(tile.key);
  const id = `${me}:${++asked}`;
  const data = await new Promise<ArrayBuffer>((resolve) => {
    const finish = (bytes: ArrayBuffer) => {
      clearTimeout(timer);
      link.pending.delete(id);
      resolve(bytes);
    };
    const timer = setTimeout(() => finish(new ArrayBuffer(0)), TILE_TIMEOUT_MS);
    link.pending.set(id, finish);
    abortController.signal.addEventListener('abort', () => finish(new ArrayBuffer(0)));
    const ask: TileAsk = { id, z: tile.z, x: tile.x, y: tile.y };
    link.channel.postMessage(ask);
  });
  return { data };
});
