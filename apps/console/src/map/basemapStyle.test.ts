import { describe, expect, test } from 'vitest';
import { basemapStyle, OFFLINE_BASEMAP } from './basemapStyle';

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
