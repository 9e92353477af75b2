// Basemap server costs (issues 10 and 30): building the Natural Earth tile indexes (first tile),
// cutting tiles at z 4 and z 10 once built, tile sizes, generating one glyph range of Noto Sans, and
// the built server's memory over 16,000 distinct z 10 tiles fetched over HTTP (goal: under 64 MB).
//   node scripts/build.mjs && npx tsx --conditions=development bench/basemap.ts
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { GlyphRanges } from '../apps/server/src/modules/map/glyphRanges.js';
import { TileCutter } from '../apps/server/src/modules/map/tileCutter.js';
import { percentile, rssMiB, startServer } from './support/startServer.js';

const ms = (since: number) => Math.round((performance.now() - since) * 10) / 10;

const tiles = new TileCutter();
let started = performance.now();
const world = tiles.cut(0, 0, 0);
const firstTileMs = ms(started);

function average(z: number, coords: [number, number][]) {
  const start = performance.now();
  let bytes = 0;
  for (const [x, y] of coords) bytes += tiles.cut(z, x, y).length;
  return { avgMs: Math.round((ms(start) / coords.length) * 100) / 100, avgBytes: Math.round(bytes / coords.length) };
}
const z4 = average(
  4,
  Array.from({ length: 256 }, (_, i) => [i % 16, Math.floor(i / 16)]),
);
const z10 = average(
  10,
  Array.from({ length: 64 }, (_, i) => [830 + (i % 8), 440 + Math.floor(i / 8)]),
);

const glyphs = new GlyphRanges();
// Glyph ranges are made in slices: the longest the event loop waited meanwhile is what others feel.
const loopDelay = monitorEventLoopDelay({ resolution: 5 });
loopDelay.enable();
started = performance.now();
const latin = await glyphs.range('Noto Sans Regular', 0);
const firstGlyphRangeMs = ms(started);
started = performance.now();
await glyphs.range('Noto Sans Regular', 1024);
const cyrillicRangeMs = ms(started);
loopDelay.disable();

/**
 * A crawler of the public tile addresses: 16,000 distinct z 10 tiles spread over the world, 16 at a
 * time, against the built server. Its RSS is sampled every 50 ms; the growth is the peak over the
 * RSS before the first of them.
 */
async function distinctTilesOverHttp(count = 16_000, concurrency = 16) {
  const server = await startServer({ BASEMAP_IP_LIMIT_PER_MINUTE: '1000000' });
  try {
    // The same (cached) tile first, so that what is measured is the tiles, not the server's warm-up
    // (its first thousands of requests alone grow it by about 50 MB).
    for (let i = 0; i < 8000; i++) {
      const res = await fetch(`${server.url}/basemap/10/836/445.pbf`, { headers: { 'accept-encoding': 'gzip' } });
      await res.arrayBuffer();
    }
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const pid = server.process.pid!;
    const before = rssMiB(pid);
    let peak = before;
    const sampler = setInterval(() => (peak = Math.max(peak, rssMiB(pid))), 50);
    const latencies: number[] = [];
    const statuses = new Map<number, number>();
    let next = 0;
    const start = performance.now();
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        for (let i = next++; i < count; i = next++) {
          const x = (i * 7919) % 1024;
          const y = (Math.floor((i * 104729) / 1024) + i) % 1024;
          const sent = performance.now();
          const res = await fetch(`${server.url}/basemap/10/${x}/${y}.pbf`, { headers: { 'accept-encoding': 'gzip' } });
          await res.arrayBuffer();
          latencies.push(performance.now() - sent);
          statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
        }
      }),
    );
    const seconds = (performance.now() - start) / 1000;
    clearInterval(sampler);
    const after = rssMiB(pid);
    latencies.sort((a, b) => a - b);
    return {
      tiles: count,
      statuses: Object.fromEntries(statuses),
      tilesPerSecond: Math.round(count / seconds),
      p50Ms: percentile(latencies, 50),
      p99Ms: percentile(latencies, 99),
      rssBeforeMb: before,
      rssAfterMb: after,
      rssPeakMb: peak,
      rssGrowthMb: Math.round((peak - before) * 10) / 10,
      goalMb: 64,
    };
  } finally {
    await server.stop();
  }
}

const http = await distinctTilesOverHttp();

process.stdout.write(
  `${JSON.stringify({
    firstTileMsIncludingIndexBuild: firstTileMs,
    z0Bytes: world.length,
    z4: z4,
    z10: z10,
    firstGlyphRangeMsIncludingFontLoad: firstGlyphRangeMs,
    glyphRange0Bytes: latin.length,
    glyphRange1024Ms: cyrillicRangeMs,
    glyphLongestEventLoopBlockMs: Math.round(loopDelay.max / 1e6),
    rssMiB: Math.round(process.memoryUsage().rss / 2 ** 20),
    distinctZ10TilesOverHttp: http,
  })}\n`,
);
