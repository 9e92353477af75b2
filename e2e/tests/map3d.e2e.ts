import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { adminCredentials } from '../support/accounts.js';
import { signInByApi, tokenOf } from '../support/apiLogin.js';
import { shot, useBrowserPerFile } from '../support/browser.js';
import { logIn, openSignedIn } from '../support/console.js';
import { expectMapUser, waitForMap, waitForMapIdle, webglRenderer } from '../support/mapPage.js';
import { createTerminalUser, deleteUsers, Terminal } from '../support/terminal.js';
import { en, text, type Language } from '../support/texts.js';

const browser = useBrowserPerFile({ webgl: true });

const stamp = String(Date.now()).slice(-6);
const created: number[] = [];
const terminals: Terminal[] = [];
/** Where the test's users stand (Shenzhen): online, online, SOS. */
const PLACES = [
  { lat: 22.5431, lon: 114.0579 },
  { lat: 22.5461, lon: 114.0629 },
  { lat: 22.5401, lon: 114.0649 },
];
let online: number[] = [];
let sos = 0;
let keepAlive: ReturnType<typeof setInterval> | undefined;

interface Camera {
  zoom: number;
  lat: number;
  lon: number;
  bearing: number;
  pitch: number;
  projection: string;
}

/** The camera of the page's map, read from the MapLibre map its element keeps (as the other map tests do). */
function camera(page: Page): Promise<Camera> {
  return page.evaluate(() => {
    const element = document.querySelector('[data-testid="map-canvas"]') as HTMLElement & {
      maplibre: {
        getZoom(): number;
        getCenter(): { lat: number; lng: number };
        getBearing(): number;
        getPitch(): number;
        getProjection(): { type: string } | undefined;
      };
    };
    const map = element.maplibre;
    const center = map.getCenter();
    return {
      zoom: map.getZoom(),
      lat: center.lat,
      lon: center.lng,
      bearing: map.getBearing(),
      pitch: map.getPitch(),
      projection: map.getProjection()?.type ?? 'mercator',
    };
  });
}

/** Moves the camera to the test's users at street level, keeping the tilt and the turn. */
async function lookAtUsers(page: Page, zoom = 14.5): Promise<void> {
  await page.evaluate((zoom) => {
    const element = document.querySelector('[data-testid="map-canvas"]') as HTMLElement & {
      maplibre: { jumpTo(options: { center: [number, number]; zoom: number }): void };
    };
    element.maplibre.jumpTo({ center: [114.0615, 22.5431], zoom });
  }, zoom);
  await waitForMapIdle(page);
}

/** The users drawn as columns now: id and state of each column feature. */
function columnsDrawn(page: Page): Promise<{ id: number; state: string }[]> {
  return page.evaluate(() => {
    const element = document.querySelector('[data-testid="map-canvas"]') as HTMLElement & {
      maplibre: {
        queryRenderedFeatures(options: { layers: string[] }): { id?: number; properties: Record<string, unknown> }[];
      };
    };
    return element.maplibre
      .queryRenderedFeatures({ layers: ['users-columns'] })
      .map((feature) => ({ id: Number(feature.id), state: String(feature.properties.state) }));
  });
}

beforeAll(async () => {
  const page = await browser.newPage();
  await signInByApi(page, adminCredentials());
  const adminToken = await tokenOf(page);
  for (const [index, place] of PLACES.entries()) {
    const phone = `137${stamp}${String(index + 1).padStart(2, '0')}`;
    const id = await createTerminalUser(adminToken, `Column ${index + 1} ${stamp}`, phone);
    created.push(id);
    const terminal = await Terminal.login(phone, 'map3d.e2e');
    terminals.push(terminal);
    await terminal.send({ type: 'position', lat: place.lat, lon: place.lon, time: Date.now(), speed: 12, course: 90 });
  }
  await terminals[2]!.send({ type: 'sos', text: 'map3d.e2e' });
  // A test terminal sends no heartbeats and the server drops it after 90 s of silence: the file
  // runs longer, so each reports its place again every 20 s and stays online.
  keepAlive = setInterval(() => {
    for (const [index, terminal] of terminals.entries()) {
      const place = PLACES[index]!;
      void terminal
        .send({ type: 'position', lat: place.lat, lon: place.lon, time: Date.now(), speed: 12, course: 90 })
        .catch(() => undefined);
    }
  }, 20_000);
  online = created.slice(0, 2);
  sos = created[2]!;
});

afterAll(async () => {
  clearInterval(keepAlive);
  for (const terminal of terminals) await terminal.logout().catch(() => undefined);
  // Each test signed the administrator in anew, which ended the session of the first token.
  const page = await browser.newPage();
  await signInByApi(page, adminCredentials());
  await deleteUsers(await tokenOf(page), created);
});

// A software renderer draws a pitched globe slowly: each test has three minutes, not one.
describe('3D map', { timeout: 180_000 }, () => {
  test('opens pitched and turned on a globe, users stand as columns coloured by state, SOS pulses', async () => {
    const page = await browser.newPage();
    await openSignedIn(page, adminCredentials(), '/main/3dmap');
    expect(await webglRenderer(page)).toContain('SwiftShader');
    await waitForMap(page);
    const opened = await camera(page);
    expect(opened.projection).toBe('globe');
    expect(opened.pitch).toBeGreaterThanOrEqual(45);
    expect(opened.bearing).not.toBe(0);
    // Framing the users keeps the tilt and the turn.
    await expectMapUser(page, sos, (user) => user.state === 'sos', 'the SOS user on the 3D map');
    await waitForMapIdle(page);
    const framed = await camera(page);
    expect(framed.pitch).toBeGreaterThanOrEqual(45);
    expect(framed.bearing).toBeCloseTo(opened.bearing, 5);

    await lookAtUsers(page);
    await expect
      .poll(async () => {
        const columns = await columnsDrawn(page);
        return created.map((id) => columns.find((column) => column.id === id)?.state ?? 'missing');
      })
      .toEqual(['online', 'online', 'sos']);
    // The 2D map's flat circles are not drawn in 3D.
    expect(
      await page.evaluate(() => {
        const element = document.querySelector('[data-testid="map-canvas"]') as HTMLElement & {
          maplibre: { getLayoutProperty(layer: string, name: string): unknown };
        };
        return element.maplibre.getLayoutProperty('users-circles', 'visibility');
      }),
    ).toBe('none');

    // The SOS ring under the SOS user's column pulses: its radius changes while it is drawn.
    const radii = new Set<number>();
    for (let i = 0; i < 12 && radii.size < 3; i++) {
      radii.add(
        await page.evaluate(() => {
          const element = document.querySelector('[data-testid="map-canvas"]') as HTMLElement & {
            maplibre: { getPaintProperty(layer: string, name: string): unknown };
          };
          return Number(element.maplibre.getPaintProperty('users-sos-pulse', 'circle-radius'));
        }),
      );
      await page.waitForTimeout(150);
    }
    expect(radii.size).toBeGreaterThanOrEqual(3);
    expect(online).toHaveLength(2);
  });

  test('turns and tilts by keyboard with the map focused; the buttons and the hint say how', async () => {
    const page = await browser.newPage();
    await openSignedIn(page, adminCredentials(), '/main/3dmap');
    await waitForMap(page);
    await expect.poll(() => page.getByTestId('map-3d-keys').innerText()).toBe(en('map.keys_3d'));
    const compass = page.locator('.maplibregl-ctrl-compass');
    expect(await compass.getAttribute('title')).toBe(en('map.compass_3d'));
    expect(await page.locator('.maplibregl-ctrl-zoom-in').getAttribute('aria-label')).toBe(en('map.zoom_in'));
    const canvas = page.locator('canvas.maplibregl-canvas');
    expect(await canvas.getAttribute('aria-label')).toBe(en('map.canvas_3d'));
    await waitForMapIdle(page);
    const before = await camera(page);

    await canvas.focus();
    await page.keyboard.press('Shift+ArrowRight');
    await expect.poll(async () => (await camera(page)).bearing).toBeCloseTo(before.bearing + 15, 1);
    await waitForMapIdle(page);
    await page.keyboard.press('Shift+ArrowDown');
    await expect.poll(async () => (await camera(page)).pitch).toBeCloseTo(before.pitch - 10, 1);
    await waitForMapIdle(page);
    // The compass turns back north and looks straight down.
    await compass.click();
    await expect.poll(async () => Math.abs((await camera(page)).bearing)).toBeLessThan(0.01);
  });

  test('the camera lives in the URL hash: a shared URL opens there, even through the login', async () => {
    const page = await browser.newPage();
    // Not signed in: the login keeps the hash.
    await logIn(page, adminCredentials(), '/main/3dmap#14.5/22.5431/114.0615/-40/55');
    await waitForMap(page);
    const expected = { zoom: 14.5, lat: 22.5431, lon: 114.0615, bearing: -40, pitch: 55 };
    const check = async () => {
      const shown = await camera(page);
      expect(shown.zoom).toBeCloseTo(expected.zoom, 2);
      expect(shown.lat).toBeCloseTo(expected.lat, 4);
      expect(shown.lon).toBeCloseTo(expected.lon, 4);
      expect(shown.bearing).toBeCloseTo(expected.bearing, 1);
      expect(shown.pitch).toBeCloseTo(expected.pitch, 1);
    };
    await check();
    // The users arriving do not move a camera the URL gave.
    await expectMapUser(page, sos, () => true, 'the users arrived');
    await waitForMapIdle(page);
    await check();

    // A turn by keyboard is written back as MapLibre writes it: #zoom/lat/lon/bearing/pitch.
    await page.locator('canvas.maplibregl-canvas').focus();
    await page.keyboard.press('Shift+ArrowLeft');
    await expect.poll(() => new URL(page.url()).hash).toMatch(/^#14\.5\/22\.54\d*\/114\.06\d*\/-55\/55$/);
    expect(new URL(page.url()).pathname).toBe('/main/3dmap');

    // The 2D map keeps its camera in the hash too; a 3D hash opens it flat, in the same place.
    await page.goto(new URL('/main/map#13/22.5431/114.0615/-40/55', page.url()).href);
    await waitForMap(page);
    const flat = await camera(page);
    expect(flat.zoom).toBeCloseTo(13, 2);
    expect(flat.lat).toBeCloseTo(22.5431, 4);
    expect(flat.pitch).toBe(0);
    expect(flat.bearing).toBe(0);
    await expect.poll(() => new URL(page.url()).hash).toBe('#13/22.5431/114.0615');
  });

  for (const language of ['en', 'zh'] as Language[]) {
    for (const width of [1440, 390]) {
      test(`looks 3D (${language}, ${width} px)`, async () => {
        const page = await browser.newPage({ locale: language, width, height: width > 400 ? 900 : 844 });
        await openSignedIn(page, adminCredentials(), '/main/3dmap', language);
        await waitForMap(page);
        await expectMapUser(page, sos, () => true, 'the users arrived');
        await expect
          .poll(() => page.getByTestId('map-3d-keys').innerText())
          .toBe(text(language, width > 400 ? 'map.keys_3d' : 'map.touch_3d'));
        await lookAtUsers(page, 15);
        await shot(page, `map3d-${language}-${width}`);
        // Zoomed out, the world is a globe.
        await lookAtUsers(page, 1.6);
        await shot(page, `map3d-globe-${language}-${width}`);
      });
    }
  }
});
