import { gzipSync } from 'node:zlib';
import { BASEMAP_FONT, basemapSchema, objectEnvelope, SYS_CONFIG_DEFAULTS } from '@intercom/contract';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { authOf } from '../../auth/authPlugin.js';
import { ok } from '../../http/envelope.js';
import { getSysConfigValue } from '../../core/sysConfigRepository.js';
import { basemapFor, PMTILES_URL } from './basemapDescriptor.js';
import { GlyphRanges, parseRange, servesFontstack } from './glyphRanges.js';
import { OfflineTiles } from './offlineTiles.js';
import { sendFileRange } from './rangeFile.js';
import { syncPlugin } from '../../http/syncPlugin.js';

const NOT_FOUND = { BaseResult: { Code: 4004, Message: 'error.not_found' } };
/** Tiles and glyphs change only with a release; a day's cache, revalidated by ETag. */
const CACHE_CONTROL = 'public, max-age=86400, stale-while-revalidate=604800';

interface Cached {
  body: Buffer;
  etag: string;
  gzip?: Buffer;
}

/** Sends protobuf bytes with ETag (304 on a match) and gzip when the client accepts it. */
function sendCached(request: FastifyRequest, reply: FastifyReply, item: Cached) {
  reply
    .header('Content-Type', 'application/x-protobuf')
    .header('Cache-Control', CACHE_CONTROL)
    .header('ETag', item.etag)
    .header('Vary', 'Accept-Encoding');
  if (request.headers['if-none-match'] === item.etag) return reply.code(304).send();
  if (/\bgzip\b/.test(request.headers['accept-encoding'] ?? '')) {
    // A copy: gzipSync's answer is a view of its 16 KB output chunk, which 2,048 cached tiles kept.
    item.gzip ??= Buffer.from(gzipSync(item.body));
    return reply.header('Content-Encoding', 'gzip').send(item.gzip);
  }
  return reply.send(item.body);
}

const wholeNumber = (text: string) => (/^\d{1,7}$/.test(text) ? Number(text) : Number.NaN);

/**
 * Basemaps (DESIGN.md section 8): offline vector tiles and glyphs (public, MapLibre fetches them
 * itself), the operator's PMTiles archive, and `GET /api/Map/Basemap` (signed in).
 */
export const basemapRoutes: FastifyPluginAsyncZod = syncPlugin((app) => {
  const tiles = new OfflineTiles();
  const glyphs = new GlyphRanges();
  const glyphCache = new Map<string, Cached>();
  const hide = { hide: true };
  // What the first map needs is built once the server listens, not when a dispatcher's map asks:
  // the tile indexes (0.5-1.4 s, in the tile worker since issue 30) and the first
  // glyph range (digits, Latin: 0.5-1.1 s), which the users' tiles wait for (their cluster counts;
  // bench/basemap.ts, docs/benchmarks.md). Only where a console is served (not the tests' API-only servers).
  app.addHook('onListen', () => {
    if (!app.deps.config.consoleDir) return;
    setImmediate(() => {
      void tiles.tile(0, 0, 0).catch((error: unknown) => app.log.warn({ err: error }, 'tile warm-up failed'));
      void glyphs
        .range(BASEMAP_FONT, 0)
        .catch((error: unknown) => app.log.warn({ err: error }, 'glyph warm-up failed'));
    });
  });

  app.addHook('onClose', () => tiles.close());
  // Per client IP, for each route: a map view loads 30-60 tiles, the addresses are public, and cutting
  // a new tile or glyph range costs the server CPU.
  const perIp = { rateLimit: { max: app.deps.config.basemapIpLimitPerMinute, timeWindow: '1 minute' } };

  app.get<{ Params: { z: string; x: string; tile: string } }>(
    '/basemap/:z/:x/:tile',
    { schema: hide, config: perIp },
    async (request, reply) => {
      const { z, x, tile } = request.params;
      const y = /^\d{1,7}\.pbf$/.test(tile) ? Number(tile.slice(0, -4)) : Number.NaN;
      const found = await tiles.tile(wholeNumber(z), wholeNumber(x), y);
      return found ? sendCached(request, reply, found) : reply.code(404).send(NOT_FOUND);
    },
  );

  app.get<{ Params: { fontstack: string; range: string } }>(
    '/basemap/fonts/:fontstack/:range',
    { schema: hide, config: perIp },
    async (request, reply) => {
      const { fontstack, range } = request.params;
      const start = parseRange(range);
      if (start === undefined || !servesFontstack(fontstack) || fontstack.length > 256) {
        return reply.code(404).send(NOT_FOUND);
      }
      const key = `${fontstack}\n${start}`;
      let item = glyphCache.get(key);
      if (!item) {
        const body = await glyphs.range(fontstack, start);
        item = { body, etag: `"g${start}-${body.length.toString(16)}"` };
        if (glyphCache.size > 256) glyphCache.clear();
        glyphCache.set(key, item);
      }
      return sendCached(request, reply, item);
    },
  );

  const pmtiles = app.deps.config.basemapPmtiles;
  if (pmtiles) {
    // Fastify answers HEAD from this GET route too (PMTiles readers may probe with HEAD).
    app.get(PMTILES_URL, { schema: hide }, (request, reply) => sendFileRange(request, reply, pmtiles));
  }

  app.get(
    '/api/Map/Basemap',
    {
      schema: {
        tags: ['Map'],
        security: [{ bearerAuth: [] }],
        summary: "The basemap of the caller's enterprise (setting DefaultMap) as the console's map needs it",
        response: { 200: objectEnvelope(basemapSchema) },
      },
    },
    async (request) => {
      const scope = authOf(request).scope;
      const defaultMap = (await getSysConfigValue(app.deps.db, scope, 'DefaultMap')) ?? SYS_CONFIG_DEFAULTS.DefaultMap;
      return ok(basemapFor(defaultMap, Boolean(pmtiles)));
    },
  );
});
