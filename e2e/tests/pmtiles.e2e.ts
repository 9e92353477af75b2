import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, inject, test } from 'vitest';
import { adminCredentials } from '../support/accounts.js';
import { callApi, tokenOf } from '../support/apiLogin.js';
import { shot, useBrowserPerFile } from '../support/browser.js';
import { openSignedIn } from '../support/console.js';
import { PMTILES_FILE } from '../support/globalSetup.js';
import { waitForMap, waitForMapIdle, webglRenderer } from '../support/mapPage.js';
import { pmtilesArchive, TileKinds, type ArchiveTile } from '../support/pmtilesArchive.js';

const browser = useBrowserPerFile({ webgl: true });
const archive = path.join(inject('dataDir'), PMTILES_FILE);
let adminToken = '';

async function setDefaultMap(value: string): Promise<void> {
  const answer = await callApi(adminToken, 'POST', '/api/Account/ModifyConfig', {
    scCode: 'DefaultMap',
    scValue: value,
  });
  expect(answer.body.BaseResult.Code, answer.body.BaseResult.Message).toBe(8888);
}

afterAll(async () => {
  if (adminToken) await setDefaultMap('OFFLINE');
  fs.rmSync(archive, { force: true });
});

/** The server's own world outlines z0-z2, packed into an archive as an operator's would be. */
async function worldArchive(): Promise<Buffer> {
  const tiles: ArchiveTile[] = [];
  for (let z = 0; z <= 2; z++) {
    for (let x = 0; x < 2 ** z; x++) {
      for (let y = 0; y < 2 ** z; y++) {
        const response = await fetch(`${inject('baseUrl')}/basemap/${z}/${x}/${y}.pbf`);
        if (response.ok) tiles.push({ z, x, y, data: new Uint8Array(await response.arrayBuffer()) });
      }
    }
  }
  return pmtilesArchive(tiles, TileKinds.mvt, {
    vector_layers: [{ id: 'land' }, { id: 'boundaries' }, { id: 'countries' }],
    attribution: 'PMTiles e2e archive',
  });
}

describe('PMTiles basemap', () => {
  test('DefaultMap PMTILES draws the operator archive, read with range requests', async () => {
    fs.writeFileSync(archive, await worldArchive());
    const page = await browser.newPage();
    const tileRequests: string[] = [];
    const archiveAnswers: number[] = [];
    page.on('request', (request) => {
      if (/\/basemap\/\d+\/\d+\/\d+\.pbf$/.test(request.url())) tileRequests.push(request.url());
    });
    page.on('response', (response) => {
      if (response.url().endsWith('/basemap/tiles.pmtiles')) archiveAnswers.push(response.status());
    });
    await openSignedIn(page, adminCredentials(), '/');
    adminToken = await tokenOf(page);
    await setDefaultMap('PMTILES');
    await page.goto(`${inject('baseUrl')}/main/map`);
    await waitForMap(page);
    expect(await webglRenderer(page)).toContain('SwiftShader');
    await waitForMapIdle(page);

    const drawn = await page.evaluate(() => {
      const element = document.querySelector('[data-testid="map-canvas"]') as HTMLElement & {
        maplibre: {
          getStyle(): { sources: Record<string, { type: string; url?: string }> };
          querySourceFeatures(source: string, options: { sourceLayer: string }): unknown[];
          queryRenderedFeatures(): { layer: { id: string } }[];
        };
      };
      const map = element.maplibre;
      return {
        source: map.getStyle().sources.basemap,
        land: map.querySourceFeatures('basemap', { sourceLayer: 'land' }).length,
        layers: [...new Set(map.queryRenderedFeatures().map((feature) => feature.layer.id))],
        attribution: document.querySelector('.maplibregl-ctrl-attrib')?.textContent ?? '',
      };
    });
    // The map reads the archive (partial answers), draws its land, and never asks for the offline tiles.
    expect(drawn.source).toMatchObject({ type: 'vector' });
    expect(drawn.source?.url).toMatch(/^pmtiles:\/\/http.*\/basemap\/tiles\.pmtiles$/);
    expect(drawn.land).toBeGreaterThan(0);
    expect(drawn.layers).toContain('land-fill');
    expect(drawn.attribution).toContain('PMTiles e2e archive');
    expect(archiveAnswers.length).toBeGreaterThan(0);
    expect(archiveAnswers.every((status) => status === 206)).toBe(true);
    expect(tileRequests).toEqual([]);
    await shot(page, 'map-pmtiles-en');
  });
});
