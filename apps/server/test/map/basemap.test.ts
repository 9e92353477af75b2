import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { VectorTile } from '@mapbox/vector-tile';
import { basemapSchema } from '@intercom/contract';
import { PbfReader } from 'pbf';
import { describe, expect, it } from 'vitest';
import { authed, buildTestApp, call, enterpriseWithAccount, expectFailure, expectSuccess } from '../helper.js';
import { useTestApp } from '../useTestApp.js';

const t = useTestApp();

const get = (url: string, headers: Record<string, string> = {}) => call(t.app, { method: 'GET', url, headers });

function decode(body: Buffer): VectorTile {
  return new VectorTile(new PbfReader(body));
}

describe('GET /basemap/{z}/{x}/{y}.pbf', () => {
  it('serves a valid vector tile with land, countries (named) and boundaries, without a token', async () => {
    // z 4, x 13, y 6: East Asia (112.5-135 E, 21.9-41 N: eastern China, Korea, Japan).
    const res = await get('/basemap/4/13/6.pbf');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/x-protobuf');
    expect(res.headers['cache-control']).toMatch(/max-age=\d+/);
    expect(res.headers.etag).toMatch(/^".+"$/);
    const tile = decode(res.rawPayload);
    expect(Object.keys(tile.layers).sort()).toEqual(['boundaries', 'countries', 'country_labels', 'land']);
    expect(tile.layers.land?.length).toBeGreaterThan(0);
    expect(tile.layers.land?.feature(0).type).toBe(3);
    expect(tile.layers.boundaries?.feature(0).type).toBe(2);
    const names = Array.from({ length: tile.layers.countries?.length ?? 0 }, (_, i) =>
      String(tile.layers.countries?.feature(i).properties.name),
    );
    expect(names).toEqual(expect.arrayContaining(['China', 'South Korea', 'Japan']));
    // Each country is also named in the console's languages (CLDR), for labels in the dispatcher's.
    const named = (name: string) => {
      const index = names.indexOf(name);
      return tile.layers.countries!.feature(index).properties;
    };
    expect(named('Japan')).toMatchObject({ name_en: 'Japan', name_zh: '日本', name_ja: '日本', name_es: 'Japón' });
    expect(named('South Korea')).toMatchObject({ name_zh: '韩国', name_ja: '韓国', name_es: 'Corea del Sur' });
    expect(named('China')).toMatchObject({ name_zh: '中国', name_ja: '中国' });
  });

  it('covers the whole world at z 0 and the deepest zoom, 10', async () => {
    const world = decode((await get('/basemap/0/0/0.pbf')).rawPayload);
    expect(world.layers.countries?.length).toBeGreaterThan(150);
    // One label point per country, however many islands it has: Japan, Indonesia, Philippines once.
    const labels = world.layers.country_labels!;
    const labelled = Array.from({ length: labels.length }, (_, i) => labels.feature(i));
    for (const name of ['Japan', 'Indonesia', 'Philippines', 'China']) {
      expect(labelled.filter((label) => label.properties.name === name)).toHaveLength(1);
    }
    expect(labelled.every((label) => label.type === 1)).toBe(true);
    expect(labelled.find((label) => label.properties.name === 'China')?.properties.name_zh).toBe('中国');
    // China's label lies inside China (70-135 E, 18-54 N), not at the centre of its outline's box at sea.
    const china = labelled.find((label) => label.properties.name === 'China')!.toGeoJSON(0, 0, 0);
    if (china.geometry.type !== 'Point') throw new Error(`China's label is a ${china.geometry.type}`);
    const [lon, lat] = china.geometry.coordinates as [number, number];
    expect(lon).toBeGreaterThan(75);
    expect(lon).toBeLessThan(125);
    expect(lat).toBeGreaterThan(25);
    expect(lat).toBeLessThan(50);
    // z 10 over Shenzhen/Hong Kong: land and the country it lies in.
    const deep = await get('/basemap/10/836/445.pbf');
    expect(deep.statusCode).toBe(200);
    expect(decode(deep.rawPayload).layers.land?.length).toBeGreaterThan(0);
  });

  it('gzips for clients that accept it and answers 304 to a matching ETag', async () => {
    const plain = await get('/basemap/2/3/1.pbf');
    const zipped = await get('/basemap/2/3/1.pbf', { 'accept-encoding': 'gzip, deflate, br' });
    expect(zipped.headers['content-encoding']).toBe('gzip');
    expect(zipped.rawPayload.length).toBeLessThan(plain.rawPayload.length);
    expect(gunzipSync(zipped.rawPayload).equals(plain.rawPayload)).toBe(true);
    const again = await get('/basemap/2/3/1.pbf', { 'if-none-match': String(plain.headers.etag) });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
  });

  it.each([
    '/basemap/11/0/0.pbf',
    '/basemap/2/4/0.pbf',
    '/basemap/2/0/4.pbf',
    '/basemap/-1/0/0.pbf',
    '/basemap/1/-1/0.pbf',
    '/basemap/a/0/0.pbf',
    '/basemap/1/0/0.png',
    '/basemap/1/0/0',
    '/basemap/1.5/0/0.pbf',
    '/basemap/99999999999/0/0.pbf',
    '/basemap/1/0/1e1.pbf',
  ])('answers 404, never 500, for %s', async (url) => {
    const res = await get(url);
    expect(res.statusCode).toBe(404);
  });
});

describe('GET /basemap/fonts/{fontstack}/{range}.pbf', () => {
  it('serves SDF glyphs of Noto Sans Regular for Latin letters', async () => {
    const res = await get('/basemap/fonts/Noto%20Sans%20Regular/0-255.pbf');
    expect(res.statusCode).toBe(200);
    const glyphs = readGlyphs(res.rawPayload);
    expect(glyphs.range).toBe('0-255');
    expect(glyphs.name).toBe('Noto Sans Regular');
    const a = glyphs.glyphs.get(65);
    expect(a).toBeDefined();
    if (!a) return;
    // The bitmap is (width + 6) x (height + 6) and has both inside (>= 192) and outside (< 192) pixels.
    expect(a.bitmap.length).toBe((a.width + 6) * (a.height + 6));
    expect(a.width).toBeGreaterThan(10);
    expect(a.advance).toBeGreaterThan(10);
    expect(Math.max(...a.bitmap)).toBeGreaterThanOrEqual(192);
    expect(Math.min(...a.bitmap)).toBeLessThan(64);
    // A space has an advance and no bitmap.
    expect(glyphs.glyphs.get(32)).toMatchObject({ width: 0, height: 0 });
    expect(glyphs.glyphs.get(32)?.advance).toBeGreaterThan(0);
  });

  it('accepts a comma-joined stack that names the font, and serves Cyrillic', async () => {
    const res = await get('/basemap/fonts/Noto%20Sans%20Regular,Arial%20Unicode%20MS%20Regular/1024-1279.pbf');
    expect(res.statusCode).toBe(200);
    expect(readGlyphs(res.rawPayload).glyphs.has(0x416)).toBe(true); // Ж
  });

  it.each([
    '/basemap/fonts/Comic%20Sans/0-255.pbf',
    '/basemap/fonts/Noto%20Sans%20Regular/0-254.pbf',
    '/basemap/fonts/Noto%20Sans%20Regular/1-256.pbf',
    '/basemap/fonts/Noto%20Sans%20Regular/65536-65791.pbf',
    '/basemap/fonts/Noto%20Sans%20Regular/abc.pbf',
  ])('answers 404 for %s', async (url) => {
    expect((await get(url)).statusCode).toBe(404);
  });
});

interface GlyphRead {
  width: number;
  height: number;
  advance: number;
  bitmap: Uint8Array;
}

/** Reads a glyph PBF (fontstack name, range, glyphs by id) with the protobuf reader. */
function readGlyphs(body: Buffer) {
  const pbf = new PbfReader(body);
  const out = { name: '', range: '', glyphs: new Map<number, GlyphRead>() };
  pbf.readFields((tag) => {
    if (tag !== 1) return;
    pbf.readMessage((field) => {
      if (field === 1) out.name = pbf.readString();
      else if (field === 2) out.range = pbf.readString();
      else if (field === 3) {
        const g = { id: 0, width: 0, height: 0, advance: 0, bitmap: new Uint8Array(0) as Uint8Array };
        pbf.readMessage((f) => {
          if (f === 1) g.id = pbf.readVarint();
          else if (f === 2) g.bitmap = pbf.readBytes();
          else if (f === 3) g.width = pbf.readVarint();
          else if (f === 4) g.height = pbf.readVarint();
          else if (f === 5 || f === 6) pbf.readSVarint();
          else if (f === 7) g.advance = pbf.readVarint();
        }, undefined);
        out.glyphs.set(g.id, g);
      }
    }, undefined);
  }, undefined);
  return out;
}

describe('GET /api/Map/Basemap', () => {
  async function basemapWith(defaultMap: string | undefined, env?: Record<string, string>) {
    const app = env ? await buildTestApp({ env }) : t;
    try {
      const tenant = await enterpriseWithAccount(app, { role: 'admin' });
      const api = authed(app.app, tenant.token);
      if (defaultMap !== undefined) {
        expectSuccess(await api.post('/api/Account/ModifyConfig', { scCode: 'DefaultMap', scValue: defaultMap }));
      }
      return basemapSchema.parse(expectSuccess(await api.get('/api/Map/Basemap')).BaseData);
    } finally {
      if (app !== t) await app.close();
    }
  }

  it('needs a token', async () => {
    expectFailure(await get('/api/Map/Basemap'), 401, 50008);
  });

  it('describes the offline outlines by default, with local glyphs and Natural Earth credited', async () => {
    expect(await basemapWith(undefined)).toEqual({
      kind: 'OFFLINE',
      tiles: ['/basemap/{z}/{x}/{y}.pbf'],
      tileSize: 512,
      maxzoom: 10,
      attribution: 'Made with Natural Earth',
      glyphs: '/basemap/fonts/{fontstack}/{range}.pbf',
      gcj02: false,
    });
  });

  it('describes OSM, AMap (GCJ-02), a custom XYZ template and NONE', async () => {
    expect(await basemapWith('OSM')).toMatchObject({
      kind: 'OSM',
      attribution: '© OpenStreetMap contributors',
      gcj02: false,
    });
    const amap = await basemapWith('AMAP');
    expect(amap).toMatchObject({ kind: 'AMAP', gcj02: true });
    expect(amap.tiles?.[0]).toMatch(/\{x\}.*\{y\}.*\{z\}/);
    expect(await basemapWith('https://tiles.example.org/{z}/{x}/{y}.png')).toMatchObject({
      kind: 'XYZ',
      tiles: ['https://tiles.example.org/{z}/{x}/{y}.png'],
      attribution: 'tiles.example.org',
    });
    expect(await basemapWith('NONE')).toMatchObject({ kind: 'NONE', gcj02: false });
  });

  it('refuses a DefaultMap that is no basemap and no http(s) template with {z}, {x}, {y}', async () => {
    const tenant = await enterpriseWithAccount(t, { role: 'admin' });
    const api = authed(t.app, tenant.token);
    for (const bad of ['MAPBOX', 'ftp://x/{z}/{x}/{y}', 'https://x/{z}/{x}.png', 'javascript:alert(1)']) {
      const res = await api.post('/api/Account/ModifyConfig', { scCode: 'DefaultMap', scValue: bad });
      expect(res.statusCode, bad).toBe(400);
    }
    expect(basemapSchema.parse(expectSuccess(await api.get('/api/Map/Basemap')).BaseData).kind).toBe('OFFLINE');
  });

  it('PMTILES without BASEMAP_PMTILES falls back to the offline outlines', async () => {
    expect((await basemapWith('PMTILES')).kind).toBe('OFFLINE');
  });

  it('PMTILES serves the operator archive with Range requests', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pmtiles-'));
    const file = path.join(dir, 'world.pmtiles');
    const bytes = Buffer.from(Array.from({ length: 1000 }, (_, i) => i % 256));
    fs.writeFileSync(file, bytes);
    const app = await buildTestApp({ env: { BASEMAP_PMTILES: file } });
    try {
      const tenant = await enterpriseWithAccount(app, { role: 'admin' });
      const api = authed(app.app, tenant.token);
      expectSuccess(await api.post('/api/Account/ModifyConfig', { scCode: 'DefaultMap', scValue: 'PMTILES' }));
      expect(expectSuccess(await api.get('/api/Map/Basemap')).BaseData).toMatchObject({
        kind: 'PMTILES',
        pmtilesUrl: '/basemap/tiles.pmtiles',
      });
      const fetchRange = (range?: string) =>
        call(app.app, { method: 'GET', url: '/basemap/tiles.pmtiles', headers: range ? { range } : {} });
      const part = await fetchRange('bytes=10-19');
      expect(part.statusCode).toBe(206);
      expect(part.headers['content-range']).toBe('bytes 10-19/1000');
      expect(part.rawPayload.equals(bytes.subarray(10, 20))).toBe(true);
      const tail = await fetchRange('bytes=-5');
      expect(tail.rawPayload.equals(bytes.subarray(995))).toBe(true);
      const whole = await fetchRange();
      expect(whole.statusCode).toBe(200);
      expect(whole.headers['accept-ranges']).toBe('bytes');
      expect(whole.rawPayload.equals(bytes)).toBe(true);
      expect((await fetchRange('bytes=2000-2100')).statusCode).toBe(416);
    } finally {
      await app.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
