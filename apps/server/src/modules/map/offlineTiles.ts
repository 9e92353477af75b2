import { createHash } from 'node:crypto';
import type { Worker } from 'node:worker_threads';
import { Code, MessageKeys, OFFLINE_TILE_MAXZOOM } from '@intercom/contract';
import { LruCache } from '../../core/lruCache.js';
import { startModuleWorker } from '../../core/moduleWorker.js';
import { AppError } from '../../http/AppError.js';
import type { TileAnswer, TileJob } from './tileWorker.js';

/** One cut tile: the Mapbox Vector Tile bytes and their strong ETag. */
export interface VectorTile {
  body: Buffer;
  etag: string;
}

/** True for a tile address the offline basemap has (z 0..10, x and y inside the z grid). */
export function validTile(z: number, x: number, y: number): boolean {
  if (![z, x, y].every(Number.isSafeInteger) || z < 0 || z > OFFLINE_TILE_MAXZOOM) return false;
  const size = 2 ** z;
  return x >= 0 && y >= 0 && x < size && y < size;
}

/**
 * The tile worker's heap. Its indexes hold about 40 MB; cutting makes garbage that V8 tenures (the
 * allocation sites learnt it while building the indexes), and a heap left to grow took 130 MB more
 * over 16,000 distinct tiles even with the indexes bounded (in the server's own heap too). Capped,
 * the worker collects instead: its heap stays near 60 MB.
 */
const WORKER_LIMITS = { maxOldGenerationSizeMb: 96, maxYoungGenerationSizeMb: 16 };

/** Tiles being cut at once; past it a request is refused (429) rather than queued without bound. */
const MAX_CUTTING = 512;

interface Job extends TileJob {
  resolve(body: Buffer): void;
  reject(error: Error): void;
  /** Set when the job was sent again to a new worker after its first one ended. */
  retried?: true;
}

function startWorker(): Worker {
  return startModuleWorker(import.meta.url, 'tileWorker', { resourceLimits: WORKER_LIMITS });
}

/**
 * The OFFLINE basemap: world outlines cut into vector tiles on demand, by a worker thread (the index
 * build takes about a second; tileCutter.ts). Memory stays bounded whatever tiles are asked for (the
 * addresses are public): the worker's heap is capped, its indexes forget what they cut, and the
 * encoded tiles are kept here in an LRU of `cacheSize` (the 2,048 largest tiles of the pyramid are
 * 2.5 MB; a z 10 tile is about 0.1 KB).
 */
export class OfflineTiles {
  private readonly cache: LruCache<string, VectorTile>;
  private readonly cutting = new Map<string, Promise<VectorTile>>();
  private readonly jobs = new Map<number, Job>();
  private worker: Worker | undefined;
  private nextId = 1;
  private closed = false;

  constructor(
    cacheSize = 2048,
    private readonly maxCutting = MAX_CUTTING,
  ) {
    this.cache = new LruCache(cacheSize);
  }

  /** The tile at z/x/y, or undefined for an address outside the pyramid. */
  async tile(z: number, x: number, y: number): Promise<VectorTile | undefined> {
    if (!validTile(z, x, y)) return undefined;
    const key = `${z}/${x}/${y}`;
    const cached = this.cache.get(key);
    if (cached) return cached;
    let cutting = this.cutting.get(key);
    if (!cutting) {
      if (this.cutting.size >= this.maxCutting) throw new AppError(Code.TooMany, MessageKeys.tooMany);
      cutting = this.cut(z, x, y)
        .then((body) => {
          const tile = { body, etag: `"${createHash('sha1').update(body).digest('base64url')}"` };
          this.cache.set(key, tile);
          return tile;
        })
        .finally(() => this.cutting.delete(key));
      this.cutting.set(key, cutting);
    }
    return cutting;
  }

  /** Ends the worker; tiles still being cut fail. */
  async close(): Promise<void> {
    this.closed = true;
    await this.worker?.terminate();
  }

  private cut(z: number, x: number, y: number): Promise<Buffer> {
    if (this.closed) return Promise.reject(new Error('the basemap is closed'));
    return new Promise((resolve, reject) => {
      const job: Job = { id: this.nextId++, z, x, y, resolve, reject };
      this.jobs.set(job.id, job);
      this.send(job);
    });
  }

  private send({ id, z, x, y }: Job) {
    this.workerOrStart().postMessage({ id, z, x, y } satisfies TileJob);
  }

  private workerOrStart(): Worker {
    if (this.worker) return this.worker;
    const worker = startWorker();
    // Idle, it must not keep the process alive; its jobs are promises the server awaits.
    worker.unref();
    let failure: Error | undefined;
    worker.on('message', (answer: TileAnswer) => {
      const job = this.jobs.get(answer.id);
      if (!job) return;
      this.jobs.delete(answer.id);
      if ('body' in answer)
        job.resolve(Buffer.from(answer.body.buffer, answer.body.byteOffset, answer.body.byteLength));
      else job.reject(new Error(`tile ${job.z}/${job.x}/${job.y}: ${answer.error}`));
    });
    worker.on('error', (error) => {
      failure = error;
    });
    worker.on('exit', () => {
      if (this.worker === worker) this.worker = undefined;
      // A worker that ended (out of memory, say) gives its jobs to the next one, once.
      for (const job of this.jobs.values()) {
        if (job.retried || this.closed) {
          this.jobs.delete(job.id);
          job.reject(failure ?? new Error('the tile worker ended'));
        } else {
          job.retried = true;
          this.send(job);
        }
      }
    });
    this.worker = worker;
    return worker;
  }
}
