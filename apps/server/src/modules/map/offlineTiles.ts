import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import { OFFLINE_TILE_LAYERS, OFFLINE_TILE_MAXZOOM } from '@intercom/contract';
import GeoJSONVT from 'geojson-vt';
import { feature, mesh } from 'topojson-client';
import type { GeometryCollection, Topology } from 'topojson-specification';
import { fromGeojsonVt } from 'vt-pbf';
import { LruCache } from '../../core/lruCache.js';

const require = createRequire(import.meta.url);

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

type Layers = Record<(typeof OFFLINE_TILE_LAYERS)[keyof typeof OFFLINE_TILE_LAYERS], GeoJSONVT>;

/** Natural Earth 1:50m land and countries (world-atlas), as three geojson-vt indexes. */
function buildLayers(): Layers {
  const countries = require('world-atlas/countries-50m.json') as Topology<{
    countries: GeometryCollection<{ name: string }>;
    land: GeometryCollection;
  }>;
  const land = require('world-atlas/land-50m.json') as Topology<{ land: GeometryCollection }>;
  const options = { maxZoom: OFFLINE_TILE_MAXZOOM, indexMaxZoom: 3, tolerance: 3, buffer: 64 };
  const countryShapes = feature(countries, countries.objects.countries);
  for (const shape of countryShapes.features) shape.properties = { name: shape.properties?.name ?? '' };
  return {
    land: new GeoJSONVT(feature(land, land.objects.land), options),
    countries: new GeoJSONVT(countryShapes, options),
    // Borders between two countries only: coastlines come from `land`.
    boundaries: new GeoJSONVT(
      mesh(countries, countries.objects.countries, (a, b) => a !== b),
      options,
    ),
  };
}

/**
 * The OFFLINE basemap: world outlines cut into vector tiles on demand. The indexes are built on the
 * first request (about a second); tiles are kept in a bounded LRU.
 */
export class OfflineTiles {
  private layers: Layers | undefined;
  private readonly cache: LruCache<string, VectorTile>;

  constructor(cacheSize = 2048) {
    this.cache = new LruCache(cacheSize);
  }

  /** The tile at z/x/y, or undefined for an address outside the pyramid. */
  tile(z: number, x: number, y: number): VectorTile | undefined {
    if (!validTile(z, x, y)) return undefined;
    const key = `${z}/${x}/${y}`;
    const cached = this.cache.get(key);
    if (cached) return cached;
    this.layers ??= buildLayers();
    const empty = { features: [] };
    const layers = Object.fromEntries(
      Object.entries(this.layers).map(([name, index]) => [name, index.getTile(z, x, y) ?? empty]),
    );
    const body = Buffer.from(fromGeojsonVt(layers as never, { version: 2 }));
    const etag = `"${createHash('sha1').update(body).digest('base64url')}"`;
    const tile = { body, etag };
    this.cache.set(key, tile);
    return tile;
  }
}
