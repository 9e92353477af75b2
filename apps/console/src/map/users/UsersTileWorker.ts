import { addProtocol, importScriptInWorkers } from 'maplibre-gl';
import mapLibreWorkerScript from './mapLibreWorkerUsersProtocol.ts?worker&url';
import { startMapLibreWorkers } from '../startMapLibreWorkers';
import type { TileUser } from './UserTileIndex';
import type { UsersTileReply, UsersTileRequest } from './usersTileMessages';
import { newTileWorkerKey, parseUsersTileUrl, USERS_TILE_PROTOCOL } from './usersTileUrl';

/** Live tile workers by the key in their tile URLs (a 2D and a 3D map may overlap while routes change). */
const workers = new Map<string, UsersTileWorker>();
let registered = false;

/** A worker started before its map was made (prewarmUsersTileWorker), for the next map to take. */
let spare: UsersTileWorker | undefined;

/**
 * Starts the next map's tile worker now. While the map opens, the server is busy sending the hub's
 * snapshot and a worker's script started then took up to 2 s to arrive at 50,000 users; started
 * when the map's route is preloaded, it is running before the snapshot is asked for.
 */
export function prewarmUsersTileWorker(): void {
  spare ??= new UsersTileWorker();
}

/** A tile worker for a new map: the prewarmed one if there is one, else a new one. */
export function takeUsersTileWorker(): UsersTileWorker {
  const worker = spare ?? new UsersTileWorker();
  spare = undefined;
  return worker;
}

/** An empty tile: nothing drawn (MapLibre takes zero bytes as a tile without layers). */
const NO_TILE = () => ({ data: new ArrayBuffer(0) });

/**
 * MapLibre's workers answer `users://` requests themselves once the script is loaded into them
 * (tiles then pass from worker to worker on a BroadcastChannel); until then, and should loading it
 * fail, MapLibre asks the page, which asks the tile worker.
 */
function registerProtocol(): void {
  if (registered) return;
  registered = true;
  startMapLibreWorkers();
  void importScriptInWorkers(mapLibreWorkerScript).catch(() => undefined);
  addProtocol(USERS_TILE_PROTOCOL, async (params) => {
    const tile = parseUsersTileUrl(params.url);
    const worker = tile && workers.get(tile.key);
    // Not a tile, or the tile of a map already gone: nothing to draw, and no error to report.
    if (!tile || !worker) return NO_TILE();
    const bytes = await worker.tile(tile.z, tile.x, tile.y);
    return { data: bytes.buffer as ArrayBuffer };
  });
}

/** A batch of the feed the worker has clustered (UsersTileReply `fed`). */
export type FedBatch = Extract<UsersTileReply, { type: 'fed' }>;

type Pending = { resolve: (reply: UsersTileReply) => void; reject: (error: Error) => void };
type Request = UsersTileRequest extends infer R ? (R extends { id: number } ? Omit<R, 'id'> : never) : never;

/**
 * The page's side of the users' tile worker (usersTiles.worker.ts): sends it batches of users,
 * and answers MapLibre's requests for `users://` tiles from it. One per map; `terminate` ends it.
 */
export class UsersTileWorker {
  /** The tile URL template of the map's users source. */
  readonly tiles: string;
  /** Resolves once the worker runs and listens for tile requests (never, should it fail to start). */
  readonly ready: Promise<void>;
  /** Resolves if the worker cannot run (its script blocked or failing): the map then has no users to show. */
  readonly broken: Promise<Error>;
  private started: () => void = () => undefined;
  private broke: (error: Error) => void = () => undefined;
  private readonly key = newTileWorkerKey();
  private readonly worker: Worker;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private failed: Error | undefined;
  private onFed: (fed: FedBatch) => void = () => undefined;

  constructor() {
    registerProtocol();
    this.worker = new Worker(new URL('./usersTiles.worker.ts', import.meta.url), {
      type: 'module',
      // The worker opens the BroadcastChannel of its key (usersTileChannel).
      name: this.key,
    });
    this.ready = new Promise((resolve) => (this.started = resolve));
    this.broken = new Promise((resolve) => (this.broke = resolve));
    this.worker.onmessage = (event: MessageEvent<UsersTileReply>) => {
      const reply = event.data;
      if (reply.type === 'ready') {
        this.started();
        return;
      }
      if (reply.type === 'fed') {
        this.onFed(reply);
        return;
      }
      const pending = this.pending.get(reply.id);
      if (!pending) return;
      this.pending.delete(reply.id);
      if (reply.type === 'error') pending.reject(new Error(reply.message));
      else pending.resolve(reply);
    };
    this.worker.onerror = (event) => {
      const error = new Error(event.message || 'the users tile worker failed');
      this.fail(error);
      this.broke(error);
    };
    workers.set(this.key, this);
    this.tiles = `${USERS_TILE_PROTOCOL}://${this.key}/{z}/{x}/{y}`;
  }

  /**
   * Has the worker take the batches posted on `port` (the hub worker's feed of this map) and call
   * `onFed` as each is clustered.
   */
  feed(port: MessagePort, onFed: (fed: FedBatch) => void): void {
    this.onFed = onFed;
    if (this.failed) return;
    const message: UsersTileRequest = { id: this.nextId++, type: 'feed', port };
    this.worker.postMessage(message, [port]);
  }

  async tile(z: number, x: number, y: number): Promise<Uint8Array> {
    const reply = await this.request({ type: 'tile', z, x, y }).catch(() => undefined);
    return reply?.type === 'tile' ? reply.bytes : new Uint8Array(0);
  }

  /** The zoom at which a cluster falls apart; rejects when the cluster is gone (the users moved). */
  async expansionZoom(clusterId: number): Promise<number> {
    const reply = await this.request({ type: 'expansionZoom', clusterId });
    if (reply.type !== 'expansionZoom') throw new Error('no such cluster');
    return reply.zoom;
  }

  /**
   * The map shows tiles of about this zoom within these bounds: the batches' changed tiles are
   * reported for them (UserTileIndex.watch; no zoom: every batch refreshes every tile).
   */
  watch(zoom: number | undefined, bounds?: [number, number, number, number]): void {
    if (this.failed) return;
    const message: UsersTileRequest = { id: this.nextId++, type: 'watch', zoom, bounds };
    this.worker.postMessage(message);
  }

  /** What the tiles hold of one user (browser tests ask). */
  async user(userId: number): Promise<TileUser | undefined> {
    const reply = await this.request({ type: 'user', userId });
    return reply.type === 'user' ? reply.user : undefined;
  }

  terminate(): void {
    workers.delete(this.key);
    this.worker.terminate();
    this.fail(new Error('the map is gone'));
  }

  private fail(error: Error): void {
    this.failed = error;
    for (const pending of this.pending.values()) pending.reject(error);
    this.pending.clear();
  }

  private request(request: Request, transfer: Transferable[] = []): Promise<UsersTileReply> {
    if (this.failed) return Promise.reject(this.failed);
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      const message: UsersTileRequest = { ...request, id };
      this.worker.postMessage(message, transfer);
    });
  }
}
