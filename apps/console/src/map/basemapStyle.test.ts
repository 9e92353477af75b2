import { describe, expect, test, vi } from 'vitest';
import {
  basemapStyle,
  COUNTRY_NAMES_LAYER,
  countryNameField,
  FONT_STACK,
  OFFLINE_BASEMAP,
  preloadFirstGlyphRange,
} from './basemapStyle';

const origin = 'https://dispatch.example';

describe('basemapStyle', () => {
  test('OFFLINE reads only the server: its vector tiles to z10 and its glyphs', () => {
    const style = basemapStyle(OFFLINE_BASEMAP, origin);
    const urls = [
      style.glyphs,
      ...Object.values(style.sources).flatMap((source) => ('tiles' in source ? source.tiles : [])),
    ];
    expect(urls.length).toBeGreaterThan(1);
    for (const url of urls) expect(url?.startsWith(`${origin}/basemap/`)).toBe(true);
    expect(style.sources.basemap).toMatchObject({ type: 'vector', maxzoom: 10, attribution: 'Natural Earth' });
    expect(style.layers.map((layer) => layer.id)).toEqual(['background', 'land', 'boundaries', 'country-names']);
  });

  test("country names are drawn in the console's language, Natural Earth's English where a shape has none", () => {
    const layout = (language?: string) => {
      const layer = basemapStyle(OFFLINE_BASEMAP, origin, language).layers.find((l) => l.id === COUNTRY_NAMES_LAYER);
      return layer && 'layout' in layer ? layer.layout?.['text-field' as never] : undefined;
    };
    expect(layout('zh')).toEqual(['coalesce', ['get', 'name_zh'], ['get', 'name']]);
    expect(layout('ja')).toEqual(countryNameField('ja'));
    expect(layout()).toEqual(['coalesce', ['get', 'name_en'], ['get', 'name']]);
  });

  test('a raster basemap draws its tiles with its attribution', () => {
    const style = basemapStyle(
      {
        kind: 'OSM',
        tiles: ['https://tile.openstreetmap.org/{z}/{x}/{y}.png'],
        tileSize: 256,
        maxzoom: 19,
        attribution: '© OpenStreetMap contributors',
        glyphs: '/basemap/fonts/{fontstack}/{range}.pbf',
        gcj02: false,
      },
      origin,
    );
    expect(style.sources.basemap).toEqual({
      type: 'raster',
      tiles: ['https://tile.openstreetmap.org/{z}/{x}/{y}.png'],
      tileSize: 256,
      maxzoom: 19,
      attribution: '© OpenStreetMap contributors',
    });
    expect(style.glyphs).toBe(`${origin}/basemap/fonts/{fontstack}/{range}.pbf`);
  });

  test('a raster kind without tiles falls back to the offline outlines', () => {
    const style = basemapStyle({ ...OFFLINE_BASEMAP, kind: 'XYZ', tiles: [] }, origin);
    expect(style.sources.basemap).toMatchObject({ type: 'vector' });
  });
});

describe('preloadFirstGlyphRange', () => {
  test("asks for range 0-255 of the users' font at the URL MapLibre will ask for", () => {
    const fetch = vi.fn(() => Promise.resolve(new Response(new ArrayBuffer(8))));
    vi.stubGlobal('fetch', fetch);
    try {
      preloadFirstGlyphRange(basemapStyle(OFFLINE_BASEMAP, origin));
      expect(fetch).toHaveBeenCalledWith(`${origin}/basemap/fonts/${FONT_STACK}/0-255.pbf`);
    } finally {
      vi.unstubAllGlobals();
    }
  });
});
