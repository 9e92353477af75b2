import { createRequire } from 'node:module';
import { INTERFACE_LANGUAGES, OFFLINE_TILE_LAYERS, OFFLINE_TILE_MAXZOOM } from '@intercom/contract';
import GeoJSONVT from 'geojson-vt';
import isoCountries from 'i18n-iso-countries';
import polylabel from 'polylabel';
import { feature, mesh } from 'topojson-client';
import type { GeometryCollection, Topology } from 'topojson-specification';
import { fromGeojsonVt } from 'vt-pbf';

const require = createRequire(import.meta.url);

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

/**
 * What geojson-vt 5.0.3 (pinned) keeps: `tiles` and `tileCoords` are its public API; `source` is the
 * geometry a tile holds so that the tiles below it can be cut later.
 */
interface RetainedTiles {
  tiles: Record<number, { source: unknown }>;
  tileCoords: unknown[];
}

/**
 * A geojson-vt index that forgets the tiles it cut on demand. geojson-vt keeps every tile it drills
 * down to, and the clipped geometry of each sibling on the way: 16,000 distinct z 10 tiles took
 * 280 MB. Past `maxDrilled` retained tiles the index goes back to the pyramid it cut when built, each
 * tile given back the geometry it held then. A tile cut again is the same, byte for byte: each zoom
 * is clipped from the one above whenever that happens.
 */
export class BoundedTileIndex {
  private readonly index: GeoJSONVT;
  private readonly retained: RetainedTiles;
  private readonly built: Array<[id: number, tile: { source: unknown }, source: unknown]>;

  constructor(
    data: GeoJSON.GeoJSON,
    options: ConstructorParameters<typeof GeoJSONVT>[1],
    private readonly maxDrilled: number,
  ) {
    this.index = new GeoJSONVT(data, options);
    this.retained = this.index as unknown as RetainedTiles;
    this.built = Object.entries(this.retained.tiles).map(([id, tile]) => [Number(id), tile, tile.source]);
  }

  /** Tiles the index holds now, the built pyramid included. */
  get size(): number {
    return this.retained.tileCoords.length;
  }

  getTile(z: number, x: number, y: number) {
    const tile = this.index.getTile(z, x, y);
    if (this.size > this.built.length + this.maxDrilled) this.forgetDrilled();
    return tile;
  }

  private forgetDrilled() {
    const tiles: RetainedTiles['tiles'] = {};
    for (const [id, tile, source] of this.built) {
      tile.source = source;
      tiles[id] = tile;
    }
    this.retained.tiles = tiles;
    // Tiles are listed in the order they were made: the built pyramid comes first.
    this.retained.tileCoords.length = this.built.length;
  }
}

/** Tiles cut on demand that one layer's index keeps before it forgets them (about 1.3 KB each). */
export const MAX_DRILLED_TILES = 1024;

type Layers = Record<(typeof OFFLINE_TILE_LAYERS)[keyof typeof OFFLINE_TILE_LAYERS], BoundedTileIndex>;

/** Natural Earth 1:50m land and countries (world-atlas), as geojson-vt indexes: one per layer. */
function buildLayers(maxDrilled: number): Layers {
  const countries = require('world-atlas/countries-50m.json') as Topology<{
    countries: GeometryCollection<{ name: string }>;
    land: GeometryCollection;
  }>;
  const land = require('world-atlas/land-50m.json') as Topology<{ land: GeometryCollection }>;
  // Cut when built down to z 6 where a tile holds over 1,000 points, so that a tile cut on demand is
  // clipped from a small part of the world (0.4 ms on average at z 10, against 2 ms from z 0).
  const options = { maxZoom: OFFLINE_TILE_MAXZOOM, indexMaxZoom: 6, indexMaxPoints: 1000, tolerance: 3, buffer: 64 };
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
  const index = (data: GeoJSON.GeoJSON) => new BoundedTileIndex(data, options, maxDrilled);
  return {
    land: index(feature(land, land.objects.land)),
    countries: index(countryShapes),
    country_labels: index(labels),
    // Borders between two countries only: coastlines come from `land`.
    boundaries: index(mesh(countries, countries.objects.countries, (a, b) => a !== b)),
  };
}

/**
 * Cuts the OFFLINE basemap's vector tiles from Natural Earth 1:50m (world-atlas). The indexes are
 * built on the first tile (about a second). It runs in the tile worker (offlineTiles.ts).
 */
export class TileCutter {
  private layers: Layers | undefined;

  constructor(private readonly maxDrilled = MAX_DRILLED_TILES) {}

  /** Tiles the geojson-vt indexes hold now, over all layers (0 before the first tile). */
  get retainedTiles(): number {
    return Object.values(this.layers ?? {}).reduce((sum, index) => sum + index.size, 0);
  }

  /** The Mapbox Vector Tile at z/x/y (a valid address: `validTile`). */
  cut(z: number, x: number, y: number): Uint8Array {
    this.layers ??= buildLayers(this.maxDrilled);
    const empty = { features: [] };
    const layers = Object.fromEntries(
      Object.entries(this.layers).map(([name, index]) => [name, index.getTile(z, x, y) ?? empty]),
    );
    return fromGeojsonVt(layers, { version: 2 });
  }
}
