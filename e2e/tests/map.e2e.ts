import type { Page } from 'playwright-core';
import { describe, expect, inject, test } from 'vitest';
import { adminCredentials } from '../support/accounts.js';
import { callApi, tokenOf } from '../support/apiLogin.js';
import { shot, useBrowserPerFile } from '../support/browser.js';
import { chromiumCpu } from '../support/chromiumCpu.js';
import { cameraInUrl, columnOf, countMapFrames, mapCamera } from '../support/map3d.js';
import { hamburger, waitForPath } from '../support/console.js';
import {
  clickOnMap,
  expectMapUser,
  expectSelectedUserBesideCard,
  pickUserOnMap,
  labelledUsers,
  mapZoom,
  openMapSignedIn,
  waitForMap,
  waitForMapIdle,
  webglRenderer,
} from '../support/mapPage.js';
import { createTerminalUser, Terminal, useTestTerminals } from '../support/terminal.js';
import { en, text, type Language } from '../support/texts.js';

const browser = useBrowserPerFile({ webgl: true });
/** How long the 3D view is watched standing still (its CPU is logged). */
const IDLE_MS = 3_000;

const made = useTestTerminals();
const { stamp, users: created, terminals } = made;

/** Every request the page makes that leaves the console's own server. */
function watchOutsideRequests(page: Page): string[] {
  const origin = new URL(inject('baseUrl')).origin;
  const outside: string[] = [];
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.protocol.startsWith('http') && url.origin !== origin) outside.push(request.url());
  });
  return outside;
}

/** The number a count of the map's header shows. */
async function countShown(page: Page, testId: string): Promise<number> {
  const lines = (await page.getByTestId(testId).innerText()).split('\n');
  return Number(lines.find((line) => /^\d[\d,]*$/.test(line.trim()))?.replace(/\D/g, '') ?? Number.NaN);
}

async function statistics(page: Page): Promise<{ User: number; Online: number }> {
  const { body } = await callApi(await tokenOf(page), 'GET', '/api/Enterprise/Statistics');
  return body.BaseData as { User: number; Online: number };
}

/** The names the basemap's country labels show now, read as its text-field does: in `language`, else English. */
function countryLabels(page: Page, language: Language): Promise<string[]> {
  return page.evaluate((language) => {
    const element = document.querySelector('[data-testid="map-canvas"]') as HTMLElement & {
      maplibre: {
        getLayoutProperty(layer: string, name: string): unknown;
        queryRenderedFeatures(options: { layers: string[] }): { properties: Record<string, string> }[];
      };
    };
    const map = element.maplibre;
    const field = JSON.stringify(map.getLayoutProperty('country-names', 'text-field'));
    if (!field.includes(`name_${language}`)) return [];
    return map
      .queryRenderedFeatures({ layers: ['country-names'] })
      .map((feature) => feature.properties[`name_${language}`] ?? feature.properties.name ?? '');
  }, language);
}

/** Two terminal users logged in over /terminal with a fix, battery and signal. */
async function startTerminals(page: Page) {
  made.token = await tokenOf(page);
  const users = [
    { name: `Map Alpha ${stamp}`, phone: `136${stamp}01`, lat: 22.5431, lon: 114.0579 },
    { name: `Map Bravo ${stamp}`, phone: `136${stamp}02`, lat: 22.5531, lon: 114.0679 },
  ];
  const ids: number[] = [];
  for (const user of users) {
    const id = await createTerminalUser(made.token, user.name, user.phone);
    created.push(id);
    ids.push(id);
    const terminal = await Terminal.login(user.phone, 'map.e2e');
    terminals.push(terminal);
    await terminal.send({ type: 'status', battery: 64, signal: 80 });
    await terminal.send({ type: 'position', lat: user.lat, lon: user.lon, time: Date.now(), speed: 32, course: 270 });
  }
  return { users, ids };
}

describe('live map', () => {
  test('terminals appear and move, counts match the server, search, clicks and card work, SOS turns red, no request leaves the server', async () => {
    const page = await browser.newPage();
    const outside = watchOutsideRequests(page);
    await openMapSignedIn(page, adminCredentials(), '/main/map');
    expect(await webglRenderer(page)).toContain('SwiftShader');
    const { users, ids } = await startTerminals(page);
    const [alpha, bravo] = ids as [number, number];
    // The total of users is fetched when the page opens: open it again now that there are more.
    await page.reload();
    await waitForMap(page);

    // Both terminals are drawn where they reported, as online users.
    await expectMapUser(
      page,
      alpha,
      (f) => f.coordinates[0] === 114.0579 && f.state === 'online',
      'alpha drawn online',
    );
    await expectMapUser(page, bravo, (f) => f.coordinates[1] === 22.5531, 'bravo drawn');

    // A new fix moves the user on the map.
    await terminals[0]!.send({ type: 'position', lat: 22.6, lon: 114.1, time: Date.now(), speed: 10, course: 90 });
    await expectMapUser(page, alpha, (f) => f.coordinates[0] === 114.1 && f.coordinates[1] === 22.6, 'alpha moved');

    // The counts are the server's.
    await expect.poll(async () => countShown(page, 'map-count-online')).toBe((await statistics(page)).Online);
    await expect.poll(async () => countShown(page, 'map-count-all')).toBe((await statistics(page)).User);
    expect(await countShown(page, 'map-count-gps')).toBeGreaterThanOrEqual(2);

    // Search by phone finds the user; picking it opens the card with battery and signal.
    const card = await pickUserOnMap(page, users[1]!.phone, users[1]!.name);
    const search = page.getByRole('combobox', { name: en('map.search') });
    expect(await card.getByTestId('map-card-battery').innerText()).toContain('64%');
    expect(await card.getByTestId('map-card-signal').getAttribute('data-bars')).toBe('4');
    expect(await card.innerText()).toContain(en('map.state_online'));
    // The camera brings the user into view beside the card, not under it.
    await expectSelectedUserBesideCard(page);
    // Its name is drawn once, by its own label, not by the users' labels as well.
    await page.evaluate(() => {
      const element = document.querySelector('[data-testid="map-canvas"]') as HTMLElement & {
        maplibre: { setZoom(zoom: number): void };
      };
      element.maplibre.setZoom(15);
    });
    await waitForMapIdle(page);
    await expect.poll(async () => (await labelledUsers(page)).selected).toEqual([ids[1]]);
    expect((await labelledUsers(page)).users).not.toContain(ids[1]);
    await shot(page, 'map-card-en');

    // Nonsense finds nothing, and says so.
    await search.fill(`zzqx-${stamp}`);
    await expect.poll(() => page.getByTestId('map-search-empty').innerText()).toBe(en('map.no_matches'));
    await search.fill('');

    // A click on a user's circle selects it; a click on a cluster (both users at zoom 5) zooms in.
    await card.getByRole('button', { name: en('common.close') }).click();
    await expect.poll(() => card.count()).toBe(0);
    await clickOnMap(page, [114.1, 22.6], 14);
    await expect.poll(() => card.innerText()).toContain(users[0]!.name);
    await card.getByRole('button', { name: en('common.close') }).click();
    await clickOnMap(page, [114.084, 22.5766], 5, true);
    await expect.poll(() => mapZoom(page)).toBeGreaterThan(6);
    expect(await card.count()).toBe(0);

    // SOS: the user turns red on the map, the bell counts it, and the map offers to jump.
    const bell = page.getByTestId('alarm-bell');
    const before = Number((await bell.getAttribute('aria-label'))?.match(/\d+/)?.[0] ?? 0);
    await terminals[0]!.send({ type: 'sos', text: 'map.e2e' });
    await expectMapUser(page, alpha, (f) => f.state === 'sos', 'alpha in SOS');
    await expect
      .poll(async () => Number((await bell.getAttribute('aria-label'))?.match(/\d+/)?.[0] ?? 0))
      .toBe(before + 1);
    const banner = page.getByTestId('map-sos-banner');
    await banner.getByRole('button', { name: en('sos.locate') }).click();
    await expect.poll(() => card.innerText()).toContain(users[0]!.name);
    expect(await card.innerText()).toContain(en('map.state_sos'));
    await waitForMapIdle(page);
    await shot(page, 'map-sos-en');

    // OFFLINE basemap, tiles and glyphs: nothing left the server.
    expect(outside).toEqual([]);

    // Track opens the trace page for that user.
    await card.getByRole('button', { name: en('map.track') }).click();
    await waitForPath(page, '/main/trace');
    expect(new URL(page.url()).searchParams.get('uid')).toBe(String(alpha));
  });

  test('the 3D view draws the live users as columns on a pitched, turned globe that stays still when idle', async () => {
    const page = await browser.newPage();
    await openMapSignedIn(page, adminCredentials(), '/main/3dmap');
    const camera = await mapCamera(page);
    expect(camera.projection).toBe('globe');
    expect(camera.pitch).toBeCloseTo(60, 0);
    expect(Math.abs(camera.bearing)).toBeGreaterThan(5);
    await expectMapUser(page, created[0]!, () => true, 'alpha on the globe');
    // Alpha (in SOS) stands as a red column with a ring around its foot.
    await expect.poll(() => columnOf(page, created[0]!)).toBe('sos');
    await page.locator(`[data-testid="map-sos-ring"][data-user-id="${created[0]}"]`).waitFor();
    await waitForMapIdle(page);
    // The address holds the camera, as MapLibre's hash option writes it.
    const shown = await mapCamera(page);
    const inUrl = cameraInUrl(page.url());
    expect(inUrl?.zoom).toBeCloseTo(shown.zoom, 1);
    expect(inUrl?.bearing).toBeCloseTo(shown.bearing, 0);
    expect(inUrl?.pitch).toBeCloseTo(shown.pitch, 0);
    // Nothing moves: the map draws no frame (the SOS ring is the browser's animation, not the map's).
    const frames = await countMapFrames(page);
    const cpu = await chromiumCpu(() => page.waitForTimeout(IDLE_MS));
    console.log(`3D view idle ${IDLE_MS} ms: Chromium CPU % of a core ${JSON.stringify(cpu)}`);
    expect(await frames()).toBeLessThanOrEqual(2);
    await shot(page, 'map-3d-en');
  });

  test('the map keeps its size while the counts arrive late', async () => {
    const page = await browser.newPage();
    // Every size the map's element has, from the moment it is added to the page.
    await page.addInitScript(() => {
      const sizes: string[] = [];
      (window as unknown as { mapSizes: string[] }).mapSizes = sizes;
      const watch = (element: Element) =>
        new ResizeObserver(([entry]) => {
          if (entry) sizes.push(`${Math.round(entry.contentRect.width)}x${Math.round(entry.contentRect.height)}`);
        }).observe(element);
      new MutationObserver((_, observer) => {
        const element = document.querySelector('[data-testid="map-canvas"]');
        if (!element) return;
        observer.disconnect();
        watch(element);
      }).observe(document, { childList: true, subtree: true });
    });
    // The total of users comes only after the map is made, as from a busy server.
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/api/Enterprise/Statistics', async (route) => {
      await held;
      await route.continue();
    });
    await openMapSignedIn(page, adminCredentials(), '/main/map');
    // Until it comes, a dash holds its place.
    expect(await page.getByTestId('map-count-all').innerText()).toContain('-');
    expect(await countShown(page, 'map-count-all')).toBeNaN();
    await shot(page, 'map-counts-pending-en');
    release();
    await expect.poll(async () => countShown(page, 'map-count-all')).not.toBeNaN();
    await expect.poll(async () => countShown(page, 'map-count-online')).not.toBeNaN();
    await waitForMapIdle(page);
    // One size: a map resized redraws from scratch (slow without a GPU) and the page jumps.
    const sizes = await page.evaluate(() => (window as unknown as { mapSizes: string[] }).mapSizes);
    expect(sizes.length).toBeGreaterThan(0);
    expect(new Set(sizes).size, sizes.join(', ')).toBe(1);
  });

  for (const language of ['zh', 'ja'] as Language[]) {
    test(`the map speaks ${language}`, async () => {
      const page = await browser.newPage({ locale: language });
      await openMapSignedIn(page, adminCredentials(), '/main/map', language);
      await expect.poll(() => page.getByTestId('map-count-all').innerText()).toContain(text(language, 'map.count_all'));
      expect(await page.getByRole('tab', { name: text(language, 'map.tab_org') }).count()).toBe(1);
      await shot(page, `map-${language}`);
      // The basemap names countries in the page's language: China is 中国 in both.
      await page.evaluate(() => {
        const element = document.querySelector('[data-testid="map-canvas"]') as HTMLElement & {
          maplibre: { jumpTo(options: { center: [number, number]; zoom: number }): void };
        };
        element.maplibre.jumpTo({ center: [110, 32], zoom: 3 });
      });
      await waitForMapIdle(page);
      await expect.poll(() => countryLabels(page, language)).toContain('中国');
      await shot(page, `map-countries-${language}`);
    });
  }

  for (const language of ['en', 'zh'] as Language[]) {
    test(`a map whose users' worker cannot start says so (${language}${language === 'zh' ? ', on a phone' : ''})`, async () => {
      // In Chinese at a phone's width: the longest line in the narrowest place.
      const page = await browser.newPage(
        language === 'zh' ? { locale: language, width: 390, height: 844 } : { locale: language },
      );
      // The users' tile worker's script is refused, as a proxy or a broken deployment would.
      await page.route('**/assets/usersTiles.worker-*.mjs', (route) => route.abort());
      await openMapSignedIn(page, adminCredentials(), '/main/map', language);
      const warning = page.getByTestId('map-users-unavailable');
      await warning.waitFor();
      expect(await warning.innerText()).toContain(text(language, 'map.users_unavailable'));
      await shot(page, `map-users-unavailable-${language}`);
    });
  }

  test('on a phone the trees open in a drawer', async () => {
    const page = await browser.newPage({ width: 390, height: 844 });
    await openMapSignedIn(page, adminCredentials(), '/main/map');
    expect(await page.getByTestId('map-side-panel').count()).toBe(0);
    await page.getByRole('button', { name: en('map.users_panel') }).click();
    await page.getByTestId('map-panel-drawer').getByTestId('map-side-panel').waitFor();
    await shot(page, 'map-mobile-en');
    await hamburger(page).waitFor();

    // A user picked in the drawer: the drawer closes and the card spans the map, so the camera puts
    // the user above the card.
    made.token = await tokenOf(page);
    const phone = `136${stamp}05`;
    const name = `Map Phone ${stamp}`;
    const id = await createTerminalUser(made.token, name, phone);
    created.push(id);
    const terminal = await Terminal.login(phone, 'map.e2e');
    terminals.push(terminal);
    // The search looks among the users the map has a position of: none yet, then the first fix
    // comes while the phone stands in the box, and the user is offered without typing again.
    const search = page.getByRole('combobox', { name: en('map.search') });
    await search.fill(phone);
    await expect.poll(() => page.getByTestId('map-search-empty').innerText()).toBe(en('map.no_matches'));
    await terminal.send({ type: 'position', lat: 22.5431, lon: 114.0579, time: Date.now() });
    await expectMapUser(page, id, () => true, 'the new user drawn');
    await page.getByTestId('map-search-result').filter({ hasText: name }).waitFor();
    await pickUserOnMap(page, phone, name);
    await expectSelectedUserBesideCard(page);
    await shot(page, 'map-mobile-card-en');
  });
});
