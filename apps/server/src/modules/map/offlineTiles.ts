import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import { INTERFACE_LANGUAGES, OFFLINE_TILE_LAYERS, OFFLINE_TILE_MAXZOOM } from '@intercom/contract';
import GeoJSONVT from 'geojson-vt';
import isoCountries from 'i18n-iso-countries';
import polylabel from 'polylabel';
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

/** Region names in each language of the console (CLDR, through the runtime's ICU). */
const regionNames = INTERFACE_LANGUAGES.map(
  (language) => [language, new Intl.DisplayNames([language], { type: 'region', fallback: 'none' })] as const,
);

/**
 * The properties of a country: Natural Earth's `name`, and `name_<language>` for each console
 * language when the shape has an ISO 3166 numeric id (world-atlas's feature id) that names a region.
 */
export function countryProperties(numericId: unknown, name: string): { name: string } & Record<string, string> {
  const properties: { name: string } & Record<string, string> = { name };
  const alpha2 =
    typeof numericId === 'string' || typeof numericId === 'number'
      ? isoCountries.numericToAlpha2(numericId)
      : undefined;
  if (!alpha2) return properties;
  for (const [language, names] of regionNames) {
    const local = names.of(alpha2);
    if (local) properties[`name_${language}`] = local;
  }
  return properties;
}

type Ring = Array<[number, number]>;

/** Twice the area of a ring (shoelace), in square degrees: enough to tell the largest part. */
function ringArea(ring: Ring): number {
  let sum = 0;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    sum += (ring[j]![0] - ring[i]![0]) * (ring[j]![1] + ring[i]![1]);
  }
  return Math.abs(sum);
}

/**
 * Where a country's name goes: the point of its largest part farthest from that part's edges
 * (polylabel). A label per polygon repeated the name on every island and in every tile.
 */
export function labelPoint(geometry: GeoJSON.Geometry | null): [number, number] | undefined {
  const parts =
    geometry?.type === 'Polygon'
      ? [geometry.coordinates]
      : geometry?.type === 'MultiPolygon'
        ? geometry.coordinates
        : [];
  let largest: Ring[] | undefined;
  for (const part of parts as Ring[][]) {
    if (part[0] && (!largest || ringArea(part[0]) > ringArea(largest[0]!))) largest = part;
  }
  if (!largest) return undefined;
  const [x, y] = polylabel(largest, 0.05);
  return [x, y];
}

type Layers = Record<(typeof OFFLINE_TILE_LAYERS)[keyof typeof OFFLINE_TILE_LAYERS], GeoJSONVT>;

/** Natural Earth 1:50m land and countries (world-atlas), as geojson-vt indexes: one per layer. */
function buildLayers(): Layers {
  const countries = require('world-atlas/countries-50m.json') as Topology<{
    countries: GeometryCollection<{ name: string }>;
    land: GeometryCollection;
  }>;
  const land = require('world-atlas/land-50m.json') as Topology<{ land: GeometryCollection }>;
  const options = { maxZoom: OFFLINE_TILE_MAXZOOM, indexMaxZoom: 3, tolerance: 3, buffer: 64 };
  const countryShapes = feature(countries, countries.objects.countries);
  for (const shape of countryShapes.features)
    shape.properties = countryProperties(shape.id, shape.properties?.name ?? '');
  const labels: GeoJSON.FeatureCollection<GeoJSON.Point> = {
    type: 'FeatureCollection',
    features: countryShapes.features.flatMap((shape) => {
      const at = labelPoint(shape.geometry);
      return at
        ? [
            {
              type: 'Feature' as const,
              geometry: { type: 'Point' as const, coordinates: at },
              properties: shape.properties,
            },
          ]
        : [];
    }),
  };
  return {
    land: new GeoJSONVT(feature(land, land.objects.land), options),
    countries: new GeoJSONVT(countryShapes, options),
    country_labels: new GeoJSONVT(labels, options),
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
