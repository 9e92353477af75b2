// The users' tile worker's work per batch at 50,000 users (issue 52, goal 3: a batch of k changes costs
// O(k), not a structure over every user rebuilt). In process, no browser: the console's UserTileIndex
// (apps/console/src/map/users/UserTileIndex.ts) takes a snapshot of TILE_BENCH_USERS (50,000) users spread
// over 40 × 40 km of a city, then TILE_BENCH_BATCHES (20) batches of k moves each, for k of 50
// (a quiet fleet), 1,250 and 12,500 (every user once a second, batched every 250 ms as the hub worker
// does). After each batch it cuts again the tiles a 1920 × 1080 map shows at two views, the
// clustered city (zoom 10) and a street (zoom 15), as the page asks MapLibre to: the tiles the batch
// changed, or every one when it says "all". Figures per view and k: CPU milliseconds a batch (apply +
// cut) and per 1,000 changes, tiles cut a batch. Prints one JSON object.
//   npx tsx bench/userTileIndex.ts
// TILE_BENCH_INDEX: another UserTileIndex module to measure beside it in the same run (the design
// before issue 52's incremental grid, from a copy of the tree: docs/benchmarks.md "The users' tile
// index"); an index without `watch`/`takeChanged` has every tile in view cut again after each batch.
import { cpus, loadavg } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const USERS = Number(process.env.TILE_BENCH_USERS ?? 50_000);
const BATCHES = Number(process.env.TILE_BENCH_BATCHES ?? 20);
const SIZES = [50, 1_250, 12_500];
const CENTER = { lon: 114.05, lat: 22.55 };
/** 40 km across at this latitude, in degrees. */
const SPAN = { lon: 0.39, lat: 0.36 };
const VIEWS = [
  { name: 'city', zoom: 10 },
  { name: 'street', zoom: 15 },
] as const;
const log = (line: string) => process.stderr.write(`[userTileIndex] ${line}\n`);
const round = (value: number, digits = 2) => Math.round(value * 10 ** digits) / 10 ** digits;

/** A user as the console's feed holds it (apps/console/src/shared/hub/userFeed/UserPointIndex.ts). */
interface UserPoint {
  lon: number;
  lat: number;
  name: string;
  state: 'sos' | 'chatting' | 'online' | 'stale' | 'offline';
}
/** The batch the hub worker posts (apps/console/src/shared/hub/userFeed/userBatch.ts), opaque here. */
type UserBatch = { readonly __batch: unique symbol };
/**
 * The console's modules are loaded by path: they resolve imports as Vite does (no file extensions),
 * which this folder's Node-style type check does not follow.
 */
const { userBatch } = (await import(
  pathToFileURL(path.resolve('apps/console/src/shared/hub/userFeed/userBatch.ts')).href
)) as {
  userBatch: (
    point: (id: number) => UserPoint | undefined,
    ids: Iterable<number>,
    removed: number[],
    replace: boolean,
    names: Map<number, string>,
  ) => UserBatch;
};

interface TileIndex {
  readonly size: number;
  apply(batch: UserBatch): void;
  prepare?(): void;
  watch?(zoom: number, bounds: [number, number, number, number]): void;
  takeChanged?(): { z: number; x: number; y: number }[] | 'all';
  tile(z: number, x: number, y: number): Uint8Array;
}
type IndexModule = { UserTileIndex: new () => TileIndex };

let seed = 1;
const random = () => ((seed = (seed * 16807) % 2147483647) - 1) / 2147483646;
const somewhere = (): UserPoint => ({
  lon: CENTER.lon + (random() - 0.5) * SPAN.lon,
  lat: CENTER.lat + (random() - 0.5) * SPAN.lat,
  name: '',
  state: random() < 0.1 ? 'chatting' : 'online',
});

/** The centre of the view in world pixels at `zoom` (tiles drawn 512 px wide). */
function centrePx(zoom: number): [number, number] {
  const worldPx = 2 ** zoom * 512;
  const sin = Math.sin((CENTER.lat * Math.PI) / 180);
  return [((CENTER.lon + 180) / 360) * worldPx, (0.5 - Math.log((1 + sin) / (1 - sin)) / (4 * Math.PI)) * worldPx];
}

/** The tiles a 1920 × 1080 map centred on CENTER shows at `zoom`. */
function tilesInView(zoom: number): { z: number; x: number; y: number }[] {
  const [cx, cy] = centrePx(zoom);
  const tiles = [];
  for (let x = Math.floor((cx - 960) / 512); x <= Math.floor((cx + 960) / 512); x++) {
    for (let y = Math.floor((cy - 540) / 512); y <= Math.floor((cy + 540) / 512); y++) tiles.push({ z: zoom, x, y });
  }
  return tiles;
}

/** West, south, east and north of that view, as the page tells the tile worker. */
function viewBounds(zoom: number): [number, number, number, number] {
  const [cx, cy] = centrePx(zoom);
  const worldPx = 2 ** zoom * 512;
  const lon = (px: number) => (px / worldPx) * 360 - 180;
  const lat = (px: number) => (Math.atan(Math.sinh(Math.PI * (1 - (2 * px) / worldPx))) * 180) / Math.PI;
  return [lon(cx - 960), lat(cy + 540), lon(cx + 960), lat(cy - 540)];
}

function cpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

async function measure(modulePath: string) {
  const { UserTileIndex } = (await import(pathToFileURL(path.resolve(modulePath)).href)) as IndexModule;
  const figures: Record<string, { cpuMsPerBatch: number; cpuMsPer1000Changes: number; tilesCutPerBatch: number }> = {};
  for (const view of VIEWS) {
    const inView = tilesInView(view.zoom);
    for (const k of SIZES) {
      seed = 1;
      const points = new Map(Array.from({ length: USERS }, (_, i) => [i + 1, somewhere()] as const));
      const names = new Map<number, string>();
      for (const id of points.keys()) points.get(id)!.name = `User ${id}`;
      const index = new UserTileIndex();
      index.watch?.(view.zoom, viewBounds(view.zoom));
      index.apply(userBatch((id) => points.get(id), points.keys(), [], true, names));
      index.prepare?.();
      index.takeChanged?.();
      for (const tile of inView) index.tile(tile.z, tile.x, tile.y);
      let cpu = 0;
      let cut = 0;
      for (let b = 0; b < BATCHES; b++) {
        const moved = new Set<number>();
        while (moved.size < k) moved.add(1 + Math.floor(random() * USERS));
        for (const id of moved) {
          const point = points.get(id)!;
          point.lon += (random() - 0.5) * 0.0005; // about 25 m: a second of driving
          point.lat += (random() - 0.5) * 0.0005;
        }
        const batch = userBatch((id) => points.get(id), moved, [], false, names);
        const start = cpuMs();
        index.apply(batch);
        index.prepare?.();
        const changed = index.takeChanged?.() ?? 'all';
        const key = (t: { z: number; x: number; y: number }) => `${t.z}/${t.x}/${t.y}`;
        const listed = changed === 'all' ? undefined : new Set(changed.map(key));
        for (const tile of inView) {
          if (listed && !listed.has(key(tile))) continue;
          index.tile(tile.z, tile.x, tile.y);
          cut += 1;
        }
        cpu += cpuMs() - start;
      }
      figures[`${view.name} k=${k}`] = {
        cpuMsPerBatch: round(cpu / BATCHES),
        cpuMsPer1000Changes: round((cpu / BATCHES / k) * 1000),
        tilesCutPerBatch: round(cut / BATCHES, 1),
      };
      log(
        `${modulePath} ${view.name} (${inView.length} tiles) k=${k}: ${JSON.stringify(figures[`${view.name} k=${k}`])}`,
      );
    }
  }
  return { index: modulePath, figures };
}

const modules = [
  'apps/console/src/map/users/UserTileIndex.ts',
  ...(process.env.TILE_BENCH_INDEX ? [process.env.TILE_BENCH_INDEX] : []),
];
const results = [];
for (const modulePath of modules) results.push(await measure(modulePath));
console.log(
  JSON.stringify(
    {
      bench: 'userTileIndex',
      users: USERS,
      batches: BATCHES,
      cpu: cpus()[0]?.model,
      loadAverage: loadavg().map((value) => round(value)),
      results,
    },
    null,
    2,
  ),
);
