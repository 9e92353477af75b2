import { BASEMAP_FONT, OFFLINE_TILE_LAYERS, OFFLINE_TILE_MAXZOOM, type Basemap } from '@intercom/contract';
import type { ExpressionSpecification, StyleSpecification } from 'maplibre-gl';

export const FONT_STACK = BASEMAP_FONT;

/** What the map shows when the server cannot say (the DefaultMap default). */
export const OFFLINE_BASEMAP: Basemap = {
  kind: 'OFFLINE',
  attribution: 'Natural Earth',
  glyphs: '/basemap/fonts/{fontstack}/{range}.pbf',
  gcj02: false,
};

/** The server's own vector tiles (fixed path). */
const OFFLINE_TILES = '/basemap/{z}/{x}/{y}.pbf';

export const SEA = '#d4e6f1';
export const LAND = '#f4f1ea';
export const BORDER = '#a39e93';

/** MapLibre wants absolute URLs; the server hands out paths of its own origin. */
export function absoluteUrl(template: string, origin: string): string {
  return template.startsWith('/') ? `${origin}${template}` : template;
}

/** The offline basemap's layer of country names. */
export const COUNTRY_NAMES_LAYER = 'country-names';

/**
 * The country names' text in the console's language: the tiles carry `name_<language>` (CLDR's
 * name, `INTERFACE_LANGUAGES`) beside Natural Earth's English `name`, which stands in where a
 * shape has no such name.
 */
export function countryNameField(language: string): ExpressionSpecification {
  return ['coalesce', ['get', `name_${language}`], ['get', 'name']];
}

function offlineLayers(language: string): StyleSpecification['layers'] {
  return [
    {
      id: 'land',
      type: 'fill',
      source: 'basemap',
      'source-layer': OFFLINE_TILE_LAYERS.land,
      paint: { 'fill-color': LAND },
    },
    {
      id: 'boundaries',
      type: 'line',
      source: 'basemap',
      'source-layer': OFFLINE_TILE_LAYERS.boundaries,
      paint: { 'line-color': BORDER, 'line-width': ['interpolate', ['linear'], ['zoom'], 1, 0.5, 8, 1.5] },
    },
    {
      id: COUNTRY_NAMES_LAYER,
      type: 'symbol',
      source: 'basemap',
      'source-layer': OFFLINE_TILE_LAYERS.countryLabels,
      minzoom: 2,
      layout: {
        'text-field': countryNameField(language),
        'text-font': [FONT_STACK],
        'text-size': 12,
        'text-max-width': 8,
      },
      paint: { 'text-color': '#6b6b6b', 'text-halo-color': LAND, 'text-halo-width': 1.2 },
    },
  ];
}

/**
 * The MapLibre style of a basemap: OFFLINE draws the server's own vector tiles (land, borders,
 * country names in `language`), the raster kinds draw their tiles, NONE (and PMTILES, whose style needs the
 * archive's header: see pmtilesStyle) draw the offline outlines so the users still have a map under them.
 */
export function basemapStyle(basemap: Basemap, origin: string, language = 'en'): StyleSpecification {
  const background = { id: 'background', type: 'background' as const, paint: { 'background-color': SEA } };
  const style: StyleSpecification = {
    version: 8,
    glyphs: absoluteUrl(basemap.glyphs || OFFLINE_BASEMAP.glyphs, origin),
    sources: {},
    layers: [background],
  };
  const raster = (basemap.kind === 'OSM' || basemap.kind === 'AMAP' || basemap.kind === 'XYZ') && basemap.tiles?.length;
  if (raster) {
    style.sources.basemap = {
      type: 'raster',
      tiles: basemap.tiles!.map((tile) => absoluteUrl(tile, origin)),
      tileSize: basemap.tileSize ?? 256,
      maxzoom: basemap.maxzoom ?? 19,
      attribution: basemap.attribution,
    };
    style.layers.push({ id: 'raster', type: 'raster', source: 'basemap' });
    return style;
  }
  style.sources.basemap = {
    type: 'vector',
    tiles: (basemap.kind === 'OFFLINE' && basemap.tiles?.length ? basemap.tiles : [OFFLINE_TILES]).map((tile) =>
      absoluteUrl(tile, origin),
    ),
    minzoom: 0,
    // The server cuts tiles to z10; MapLibre overzooms them beyond.
    maxzoom: OFFLINE_TILE_MAXZOOM,
    attribution: basemap.kind === 'OFFLINE' ? basemap.attribution : OFFLINE_BASEMAP.attribution,
  };
  style.layers.push(...offlineLayers(language));
  return style;
}

/**
 * Fetches the first glyph range (digits and Latin) of the font the users' cluster counts and the
 * basemap's names are drawn with, as soon as the map exists. MapLibre asks for it only once the
 * first users' tile is laid out, and no cluster is drawn until it has come; the server lets the
 * browser cache it, so MapLibre's own request is answered from that cache (or joins this one).
 */
export function preloadFirstGlyphRange(style: StyleSpecification): void {
  if (!style.glyphs) return;
  // The URL exactly as MapLibre's GlyphManager builds it, so that both are one cache entry.
  const url = style.glyphs.replace('{fontstack}', FONT_STACK).replace('{range}', '0-255');
  // A failure here changes nothing: MapLibre asks again and reports its own.
  void fetch(url)
    .then((response) => response.arrayBuffer())
    .catch(() => undefined);
}
