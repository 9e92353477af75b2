// Basemap server costs (issue 10): building the Natural Earth tile indexes (first tile), cutting
// tiles at z 4 and z 10 once built, tile sizes, and generating one glyph range of Noto Sans.
//   npx tsx --conditions=development bench/basemap.ts
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { GlyphRanges } from '../apps/server/src/modules/map/glyphRanges.js';
import { OfflineTiles } from '../apps/server/src/modules/map/offlineTiles.js';

const ms = (since: number) => Math.round((performance.now() - since) * 10) / 10;

const tiles = new OfflineTiles();
let started = performance.now();
const world = tiles.tile(0, 0, 0);
const firstTileMs = ms(started);

function average(z: number, coords: [number, number][]) {
  const start = performance.now();
  let bytes = 0;
  for (const [x, y] of coords) bytes += tiles.tile(z, x, y)?.body.length ?? 0;
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

process.stdout.write(
  `${JSON.stringify({
    firstTileMsIncludingIndexBuild: firstTileMs,
    z0Bytes: world?.body.length,
    z4: z4,
    z10: z10,
    firstGlyphRangeMsIncludingFontLoad: firstGlyphRangeMs,
    glyphRange0Bytes: latin.length,
    glyphRange1024Ms: cyrillicRangeMs,
    glyphLongestEventLoopBlockMs: Math.round(loopDelay.max / 1e6),
    rssMiB: Math.round(process.memoryUsage().rss / 2 ** 20),
  })}\n`,
);
