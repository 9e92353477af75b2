import { OFFLINE_TILE_MAXZOOM, mapHidden, type Basemap } from '@intercom/contract';

export const GLYPHS_URL = '/basemap/fonts/{fontstack}/{range}.pbf';
export const OFFLINE_TILES_URL = '/basemap/{z}/{x}/{y}.pbf';
export const PMTILES_URL = '/basemap/tiles.pmtiles';

export const Attributions = {
  naturalEarth: 'Made with Natural Earth',
  osm: '© OpenStreetMap contributors',
  amap: '© AutoNavi (AMap)',
} as const;

const AMAP_TILES = [1, 2, 3, 4].map(
  (n) => `https://webrd0${n}.is.autonavi.com/appmaptile?lang=zh_cn&size=1&scale=1&style=8&x={x}&y={y}&z={z}`,
);

/**
 * What the console draws for an enterprise's DefaultMap setting. `pmtiles` is whether the operator
 * configured an archive (BASEMAP_PMTILES): without one, PMTILES falls back to the offline outlines.
 */
export function basemapFor(defaultMap: string, pmtiles: boolean): Basemap {
  const glyphs = GLYPHS_URL;
  const offline: Basemap = {
    kind: 'OFFLINE',
    tiles: [OFFLINE_TILES_URL],
    tileSize: 512,
    maxzoom: OFFLINE_TILE_MAXZOOM,
    attribution: Attributions.naturalEarth,
    glyphs,
    gcj02: false,
  };
  if (mapHidden(defaultMap)) return { kind: 'NONE', attribution: '', glyphs, gcj02: false };
  switch (defaultMap) {
    case 'OSM':
      return {
        kind: 'OSM',
        tiles: ['https://tile.openstreetmap.org/{z}/{x}/{y}.png'],
        tileSize: 256,
        maxzoom: 19,
        attribution: Attributions.osm,
        glyphs,
        gcj02: false,
      };
    case 'AMAP':
      return {
        kind: 'AMAP',
        tiles: AMAP_TILES,
        tileSize: 256,
        maxzoom: 18,
        attribution: Attributions.amap,
        glyphs,
        gcj02: true,
      };
    case 'PMTILES':
      return pmtiles ? { kind: 'PMTILES', pmtilesUrl: PMTILES_URL, attribution: '', glyphs, gcj02: false } : offline;
    default:
      break;
  }
  if (/^https?:\/\//.test(defaultMap)) {
    // A custom XYZ template (validated when saved): credit its host, the only thing known of it.
    return {
      kind: 'XYZ',
      tiles: [defaultMap],
      tileSize: 256,
      maxzoom: 19,
      attribution: new URL(defaultMap.replace(/[{}]/g, '')).host,
      glyphs,
      gcj02: false,
    };
  }
  return offline;
}
