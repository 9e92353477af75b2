import { Code, MessageKeys } from '@intercom/contract';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';
import { OfflineTiles } from '../../src/modules/map/offlineTiles.js';
import { MAX_DRILLED_TILES, TileCutter } from '../../src/modules/map/tileCutter.js';
import { call, expectFailure } from '../helper.js';
import { useTestApp } from '../useTestApp.js';

/** 16,000 distinct z 10 tiles spread over the world, as a crawler of the public addresses asks. */
function* distinctZ10(count: number): Generator<[number, number]> {
  for (let i = 0; i < count; i++) yield [(i * 7919) % 1024, (Math.floor((i * 104729) / 1024) + i) % 1024];
}

const LAYERS = 4;

describe('offline tiles: bounded memory (issue 30)', () => {
  it('keeps at most MAX_DRILLED_TILES cut tiles per layer, whatever tiles are asked for', () => {
    const cutter = new TileCutter();
    cutter.cut(0, 0, 0);
    const built = cutter.retainedTiles;
    const seen = new Set<string>();
    let most = 0;
    for (const [x, y] of distinctZ10(16_000)) {
      seen.add(`${x}/${y}`);
      cutter.cut(10, x, y);
      most = Math.max(most, cutter.retainedTiles);
    }
    expect(seen.size).toBe(16_000);
    // geojson-vt alone kept 160,000 tiles (280 MB) after these 16,000.
    expect(most).toBeLessThanOrEqual(built + LAYERS * MAX_DRILLED_TILES);
  }, 120_000);

  it('cuts a tile the same, byte for byte, after its index forgot it', () => {
    const reference = new TileCutter(Number.MAX_SAFE_INTEGER);
    const forgetful = new TileCutter(8);
    // z 10 over Shenzhen / Hong Kong (coast and a border), z 7 and z 4 around it.
    const tiles: Array<[number, number, number]> = [
      [10, 836, 445],
      [7, 104, 55],
      [4, 13, 6],
    ];
    forgetful.cut(0, 0, 0);
    const built = forgetful.retainedTiles;
    const first = tiles.map(([z, x, y]) => Buffer.from(forgetful.cut(z, x, y)));
    for (const [x, y] of distinctZ10(400)) forgetful.cut(10, x, y);
    expect(forgetful.retainedTiles).toBeLessThanOrEqual(built + LAYERS * 8);
    tiles.forEach(([z, x, y], i) => {
      const again = Buffer.from(forgetful.cut(z, x, y));
      expect(again.length).toBeGreaterThan(100);
      expect(again.equals(first[i]!)).toBe(true);
      expect(again.equals(Buffer.from(reference.cut(z, x, y)))).toBe(true);
    });
  }, 60_000);

  it('refuses (429) a tile past the number being cut at once, instead of queueing without bound', async () => {
    const tiles = new OfflineTiles(16, 1);
    try {
      const first = tiles.tile(10, 836, 445);
      await expect(tiles.tile(10, 836, 446)).rejects.toMatchObject({ code: Code.TooMany, status: 429 });
      // The same tile asked twice while it is cut is one job, not two.
      const same = tiles.tile(10, 836, 445);
      expect((await first)?.etag).toBe((await same)?.etag);
      expect((await tiles.tile(10, 836, 446))?.body.length).toBeGreaterThan(0);
    } finally {
      await tiles.close();
    }
  }, 60_000);
});

describe('GET /basemap: per-IP limit (issue 30)', () => {
  const t = useTestApp({ env: { BASEMAP_IP_LIMIT_PER_MINUTE: '3' } });

  it('answers 429 with the envelope past BASEMAP_IP_LIMIT_PER_MINUTE, per client address', async () => {
    const get = (url: string, remoteAddress = '192.0.2.10') => call(t.app, { method: 'GET', url, remoteAddress });
    for (const url of ['/basemap/0/0/0.pbf', '/basemap/1/0/0.pbf', '/basemap/11/0/0.pbf']) {
      expect((await get(url)).statusCode).not.toBe(429);
    }
    expectFailure(await get('/basemap/1/1/0.pbf'), 429, Code.TooMany, MessageKeys.tooMany);
    // Another client is not held back by the first.
    expect((await get('/basemap/1/1/0.pbf', '192.0.2.11')).statusCode).toBe(200);
  }, 60_000);

  it('defaults to 1,200 a minute and refuses a limit that is not a whole number from 1', () => {
    expect(loadConfig({}).basemapIpLimitPerMinute).toBe(1200);
    expect(loadConfig({ BASEMAP_IP_LIMIT_PER_MINUTE: '50' }).basemapIpLimitPerMinute).toBe(50);
    for (const bad of ['0', '-5', '1.5', 'lots']) {
      expect(() => loadConfig({ BASEMAP_IP_LIMIT_PER_MINUTE: bad })).toThrow(ConfigError);
      expect(() => loadConfig({ BASEMAP_IP_LIMIT_PER_MINUTE: bad })).toThrow(/BASEMAP_IP_LIMIT_PER_MINUTE/);
    }
  });
});
