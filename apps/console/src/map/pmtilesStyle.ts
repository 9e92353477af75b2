import {
  addProtocol,
  type ExpressionSpecification,
  type LayerSpecification,
  type StyleSpecification,
} from 'maplibre-gl';
import { PMTiles, Protocol, TileType } from 'pmtiles';
import type { Basemap } from '@intercom/contract';
import { BORDER, LAND, SEA, absoluteUrl, basemapStyle, FONT_STACK } from './basemapStyle';

let protocol: Protocol | undefined;

/** MapLibre reads `pmtiles://` URLs through the pmtiles package (range requests to the server). */
function pmtilesProtocol(): Protocol {
  if (!protocol) {
    protocol = new Protocol();
    addProtocol('pmtiles', protocol.tile);
  }
  return protocol;
}

interface ArchiveMetadata {
  attribution?: string;
  vector_layers?: { id: string }[];
}

const WATER = /water|ocean|sea|lake|river/i;
const LAND_LAYER = /^(earth|land)$/i;
const geometry = (...types: string[]): ExpressionSpecification => ['match', ['geometry-type'], types, true, false];

/**
 * Layers for a vector archive of any schema (Protomaps, OpenMapTiles, ...): the operator's archive
 * comes with no style, so every source layer its metadata lists is drawn by geometry, water in the
 * sea colour, polygons as light fills, lines as thin grey lines and named points as labels.
 */
export function vectorLayers(layerIds: readonly string[]): LayerSpecification[] {
  const layers: LayerSpecification[] = [];
  for (const id of layerIds) {
    const fill = WATER.test(id) ? SEA : LAND_LAYER.test(id) ? LAND : '#e9e5dc';
    const common = { source: 'basemap', 'source-layer': id } as const;
    layers.push(
      {
        id: `${id}-fill`,
        type: 'fill',
        ...common,
        filter: geometry('Polygon', 'MultiPolygon'),
        paint: { 'fill-color': fill },
      },
      {
        id: `${id}-line`,
        type: 'line',
        ...common,
        filter: geometry('LineString', 'MultiLineString'),
        paint: { 'line-color': WATER.test(id) ? SEA : BORDER, 'line-width': 0.8 },
      },
      {
        id: `${id}-label`,
        type: 'symbol',
        ...common,
        filter: ['all', geometry('Point', 'MultiPoint'), ['has', 'name']],
        layout: { 'text-field': ['get', 'name'], 'text-font': [FONT_STACK], 'text-size': 11 },
        paint: { 'text-color': '#6b6b6b', 'text-halo-color': LAND, 'text-halo-width': 1.2 },
      },
    );
  }
  return layers;
}

/**
 * The style of the operator's PMTiles archive (DefaultMap PMTILES): raster archives draw their
 * tiles, vector ones every layer their metadata lists. The header says which, so it is read first;
 * when the archive cannot be read the offline outlines are drawn, as for any basemap that fails.
 */
export async function pmtilesStyle(basemap: Basemap, origin: string, language = 'en'): Promise<StyleSpecification> {
  const fallback = basemapStyle(basemap, origin, language);
  if (!basemap.pmtilesUrl) return fallback;
  const url = absoluteUrl(basemap.pmtilesUrl, origin);
  const registry = pmtilesProtocol();
  const archive = registry.get(url) ?? new PMTiles(url);
  registry.add(archive);
  try {
    const header = await archive.getHeader();
    const metadata = ((await archive.getMetadata()) ?? {}) as ArchiveMetadata;
    const attribution = basemap.attribution || metadata.attribution || '';
    const style: StyleSpecification = { ...fallback, sources: {}, layers: [fallback.layers[0]!] };
    if (header.tileType === TileType.Mvt) {
      style.sources.basemap = { type: 'vector', url: `pmtiles://${url}`, attribution };
      style.layers.push(...vectorLayers((metadata.vector_layers ?? []).map((layer) => layer.id)));
    } else {
      style.sources.basemap = { type: 'raster', url: `pmtiles://${url}`, tileSize: 256, attribution };
      style.layers.push({ id: 'raster', type: 'raster', source: 'basemap' });
    }
    return style;
  } catch {
    return fallback;
  }
}
