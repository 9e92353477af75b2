import type { Page } from 'playwright-core';
import { afterAll, describe, expect, inject, test } from 'vitest';
import { adminCredentials } from '../support/accounts.js';
import { callApi, tokenOf } from '../support/apiLogin.js';
import { shot, useBrowserPerFile } from '../support/browser.js';
import { nameEndingWith, openSignedIn, toast, waitForPath } from '../support/console.js';
import { expectMapUser, waitForMap, waitForMapIdle } from '../support/mapPage.js';
import { createTerminalUser, deleteUsers, Terminal } from '../support/terminal.js';
import { en, text, type Language } from '../support/texts.js';
import { fingerOn } from '../support/touch.js';

const browser = useBrowserPerFile({ webgl: true });

/** Phones and names carry a stamp so they cannot meet what other files of the run create. */
const stamp = String(Date.now()).slice(-6);
const phone = `135${stamp}31`;
const fenceName = `Yard ${stamp}`;
/** The yard: a square of about 330 m round this point ([lat, lon]). */
const YARD: [number, number] = [22.5431, 114.0579];
const HALF = 0.0015;
const users: number[] = [];
const fences: number[] = [];
let adminToken = '';

afterAll(async () => {
  if (fences.length > 0) {
    await fetch(new URL('/api/Geofence/Delete', inject('baseUrl')), {
      method: 'POST',
      headers: { Authorization: `Bearer ${adminToken}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ ids: fences }),
    });
  }
  await deleteUsers(adminToken, users);
});

type Canvas = HTMLElement & {
  maplibre: {
    jumpTo(options: { center: [number, number]; zoom: number }): void;
    project(lngLat: [number, number]): { x: number; y: number };
    queryRenderedFeatures(options: { layers: string[] }): { properties: Record<string, unknown> }[];
    getLayoutProperty(layer: string, name: string): unknown;
    getBounds(): { getWest(): number; getSouth(): number; getEast(): number; getNorth(): number };
    getZoom(): number;
  };
};

/** The map's view: west, south, east and north. */
function mapView(page: Page): Promise<[number, number, number, number]> {
  return page.evaluate(() => {
    const view = (document.querySelector('[data-testid="map-canvas"]') as Canvas).maplibre.getBounds();
    return [view.getWest(), view.getSouth(), view.getEast(), view.getNorth()];
  });
}

/** `[lat, lon]` is inside the view. */
const shows = ([west, south, east, north]: number[], [lat, lon]: [number, number]) =>
  lon > west! && lon < east! && lat > south! && lat < north!;

/** Two workers 9 km apart north-east of the yard, where the framing test places its crew. */
const CREW: [number, number][] = [
  [22.585, 114.12],
  [22.52, 114.19],
];

/** Degrees of longitude one pixel spans at `zoom` (512-pixel tiles); latitude's are fewer here. */
const degreesPerPixel = (zoom: number) => 360 / (512 * 2 ** zoom);

/** Moves the page's map to `[lat, lon]` at `zoom` and waits until it is drawn. */
async function lookAt(page: Page, [lat, lon]: [number, number], zoom: number): Promise<void> {
  await page.evaluate(
    ({ center, zoom }) =>
      (document.querySelector('[data-testid="map-canvas"]') as Canvas).maplibre.jumpTo({ center, zoom }),
    { center: [lon, lat] as [number, number], zoom },
  );
  await waitForMapIdle(page);
}

/** Clicks the map canvas where `[lat, lon]` is drawn, as a person drawing a fence does. */
async function clickMapAt(page: Page, [lat, lon]: [number, number]): Promise<void> {
  const at = await page.evaluate(
    (lngLat) => (document.querySelector('[data-testid="map-canvas"]') as Canvas).maplibre.project(lngLat),
    [lon, lat] as [number, number],
  );
  await page.locator('[data-testid="map-canvas"] canvas').click({ position: at });
}

/** Where `[lat, lon]` is drawn, in page pixels. */
async function pagePointOf(page: Page, [lat, lon]: [number, number]): Promise<{ x: number; y: number }> {
  const at = await page.evaluate(
    (lngLat) => (document.querySelector('[data-testid="map-canvas"]') as Canvas).maplibre.project(lngLat),
    [lon, lat] as [number, number],
  );
  const box = (await page.locator('[data-testid="map-canvas"] canvas').boundingBox())!;
  return { x: box.x + at.x, y: box.y + at.y };
}

/** Drags the handle drawn at `from` to `to` with the mouse. */
async function dragOnMap(page: Page, from: [number, number], to: [number, number]): Promise<void> {
  const start = await pagePointOf(page, from);
  const end = await pagePointOf(page, to);
  await page.mouse.move(start.x, start.y);
  await page.mouse.down();
  await page.mouse.move((start.x + end.x) / 2, (start.y + end.y) / 2, { steps: 4 });
  await page.mouse.move(end.x, end.y, { steps: 4 });
  await page.mouse.up();
}

/** Names of the fences the live map draws now. */
function fencesDrawn(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    (document.querySelector('[data-testid="map-canvas"]') as Canvas).maplibre
      .queryRenderedFeatures({ layers: ['fences-fill'] })
      .map((feature) => String(feature.properties.name)),
  );
}

const corners = {
  nw: [YARD[0] + HALF, YARD[1] - HALF] as [number, number],
  ne: [YARD[0] + HALF, YARD[1] + HALF] as [number, number],
  se: [YARD[0] - HALF, YARD[1] + HALF] as [number, number],
  sw: [YARD[0] - HALF, YARD[1] - HALF] as [number, number],
};

/** Where the south-east corner is dragged to. */
const southEast: [number, number] = [YARD[0] - 2 * HALF, YARD[1] + 2 * HALF];

describe('geofences', () => {
  test('an admin draws a fence on the map; a terminal that walks into it raises GeofenceEnter', async () => {
    const page = await browser.newPage();
    await openSignedIn(page, adminCredentials(), '/main/geofence');
    adminToken = await tokenOf(page);
    users.push(await createTerminalUser(adminToken, `Fence walker ${stamp}`, phone));

    // The list, then a new fence.
    await page.getByTestId('geofence-list').waitFor();
    await page.getByRole('button', { name: nameEndingWith(en('geofence.create')) }).click();
    await waitForPath(page, '/main/geofence/edit');
    await waitForMap(page);
    await page.locator('input#Name').fill(fenceName);
    await lookAt(page, YARD, 15);

    // A bow tie is refused in words, before anything is sent.
    for (const corner of [corners.nw, corners.se, corners.ne, corners.sw]) await clickMapAt(page, corner);
    await expect
      .poll(() => page.getByTestId('fence-point-count').innerText())
      .toBe(en('geofence.points_count', { count: 4 }));
    await page.getByRole('button', { name: nameEndingWith(en('common.save')) }).click();
    await page.getByText(en('geofence.self_intersecting'), { exact: true }).waitFor();

    // Cleared and drawn again as a square.
    await page.getByRole('button', { name: nameEndingWith(en('geofence.clear_shape')) }).click();
    await expect
      .poll(() => page.getByTestId('fence-point-count').innerText())
      .toBe(en('geofence.points_count', { count: 0 }));
    for (const corner of [corners.nw, corners.ne, corners.se, corners.sw]) await clickMapAt(page, corner);
    await expect
      .poll(() => page.getByTestId('fence-point-count').innerText())
      .toBe(en('geofence.points_count', { count: 4 }));
    await page.getByText(en('geofence.self_intersecting'), { exact: true }).waitFor({ state: 'hidden' });
    // The south-east corner dragged by its handle further out: still four corners.
    await dragOnMap(page, corners.se, southEast);
    await expect
      .poll(() => page.getByTestId('fence-point-count').innerText())
      .toBe(en('geofence.points_count', { count: 4 }));

    // Where the corners were drawn: the editor may have framed the enterprise after lookAt (its users
    // arrive when they arrive), so a pixel is as wide as the zoom the shape was drawn at makes it.
    const drawnZoom = await page.evaluate(() =>
      (document.querySelector('[data-testid="map-canvas"]') as Canvas).maplibre.getZoom(),
    );

    // The fence applies to the walker alone (other files' terminals cross no fence of this test).
    const usersField = page.locator('input#UserIds');
    await usersField.fill(phone);
    await page.locator('.ant-select-item-option').filter({ hasText: phone }).click();
    await page.keyboard.press('Escape');
    await waitForMapIdle(page);
    await shot(page, 'geofence-edit-polygon-en');

    await page.getByRole('button', { name: nameEndingWith(en('common.save')) }).click();
    await toast(page, en('common.oper_success')).waitFor();
    await waitForPath(page, '/main/geofence');
    const row = page.getByTestId('geofence-list').locator('tr.ant-table-row').filter({ hasText: fenceName });
    await row.getByText(en('geofence.polygon_of', { count: 4 })).waitFor();
    await row.getByText(en('geofence.targets_of', { users: 1, departments: 0 })).waitFor();
    await shot(page, 'geofence-list-en');

    // What the server stored is what was drawn.
    const { body } = await callApi(adminToken, 'GET', '/api/Geofence/QueryData', {
      jsonCondition: JSON.stringify({ Name: fenceName }),
    });
    const stored = (body.Data as { GF_ID: number; Points: [number, number][]; UserIds: number[] }[])[0]!;
    fences.push(stored.GF_ID);
    expect(stored.UserIds).toEqual(users);
    expect(stored.Points).toHaveLength(4);
    stored.Points.forEach((point, i) => {
      const corner = [corners.nw, corners.ne, southEast, corners.sw][i]!;
      // A click lands on a pixel: within 4 pixels of the corner (a few metres at zoom 15).
      expect(Math.abs(point[0] - corner[0])).toBeLessThan(4 * degreesPerPixel(drawnZoom));
      expect(Math.abs(point[1] - corner[1])).toBeLessThan(4 * degreesPerPixel(drawnZoom));
    });

    // The walker reports a fix outside, then one inside.
    const terminal = await Terminal.login(phone, 'geofence.e2e');
    const time = Date.now();
    const outside = { type: 'position', lat: YARD[0] + 3 * HALF, lon: YARD[1], accuracy: 5 };
    expect((await terminal.send({ ...outside, time: time - 2000 })).type).toBe('ack');
    expect((await terminal.send({ type: 'position', lat: YARD[0], lon: YARD[1], accuracy: 5, time })).type).toBe('ack');

    // The alarm records name the crossing and the fence.
    await page.goto(new URL('/System/notify', page.url()).href);
    const alarm = page
      .getByTestId('alarm-list')
      .locator('tbody tr.ant-table-row')
      .filter({ hasText: fenceName })
      .filter({ hasText: en('geofence.alarm_enter') });
    await alarm.waitFor();
    await shot(page, 'geofence-alarm-en');
    await terminal.logout();

    // The live map draws the fence; its map button hides it.
    await page.goto(new URL('/main/map', page.url()).href);
    await waitForMap(page);
    await lookAt(page, YARD, 15);
    await expect.poll(() => fencesDrawn(page)).toContain(fenceName);
    await shot(page, 'geofence-live-map-en');
    const toggle = page.getByTestId('fence-layer-toggle');
    expect(await toggle.getAttribute('aria-label')).toBe(en('geofence.layer_hide'));
    await toggle.click();
    await expect
      .poll(() =>
        page.evaluate(() =>
          (document.querySelector('[data-testid="map-canvas"]') as Canvas).maplibre.getLayoutProperty(
            'fences-fill',
            'visibility',
          ),
        ),
      )
      .toBe('none');
    expect(await toggle.getAttribute('aria-label')).toBe(en('geofence.layer_show'));
    // Drawing, saving, a terminal, the alarm list and the live map: more than one page's minute here.
  }, 150_000);

  test('the editor opens on the users the fence applies to (the enterprise when none is chosen), drawn on its map', async () => {
    const page = await browser.newPage({ width: 1440, height: 900 });
    await openSignedIn(page, adminCredentials(), '/main/geofence');
    adminToken = await tokenOf(page);
    const crew: { id: number; phone: string; terminal: Terminal }[] = [];
    for (const [index, [lat, lon]] of CREW.entries()) {
      const crewPhone = `135${stamp}${35 + index}`;
      const id = await createTerminalUser(adminToken, `Crew ${index + 1} ${stamp}`, crewPhone);
      users.push(id);
      const terminal = await Terminal.login(crewPhone, 'geofence.e2e');
      expect((await terminal.send({ type: 'position', lat, lon, accuracy: 5, time: Date.now() })).type).toBe('ack');
      crew.push({ id, phone: crewPhone, terminal });
    }

    // A new fence: no one chosen yet, the enterprise's users are framed (not the world) and drawn.
    await page.goto(new URL('/main/geofence/edit', page.url()).href);
    await waitForMap(page);
    for (const { id } of crew) await expectMapUser(page, id, () => true, 'a crew member on the editor map');
    await expect
      .poll(async () => {
        const view = await mapView(page);
        return CREW.every((at) => shows(view, at)) && view[2] - view[0] < 5;
      })
      .toBe(true);
    await waitForMapIdle(page);
    await shot(page, 'geofence-edit-framed-1440');

    // The fence applied to the first worker: the view goes to where that worker is.
    const usersField = page.locator('input#UserIds');
    await usersField.fill(crew[0]!.phone);
    await page.locator('.ant-select-item-option').filter({ hasText: crew[0]!.phone }).click();
    await page.keyboard.press('Escape');
    await expect
      .poll(async () => {
        const view = await mapView(page);
        return shows(view, CREW[0]!) && !shows(view, CREW[1]!);
      })
      .toBe(true);
    for (const { terminal } of crew) await terminal.logout();
  }, 90_000);

  for (const language of ['zh', 'en'] as Language[]) {
    test(`the fence pages in ${language} on a phone's width`, async () => {
      const page = await browser.newPage({ locale: language, width: 390, height: 844 });
      await openSignedIn(page, adminCredentials(), '/main/geofence', language);
      await page.getByTestId('geofence-list').waitFor();
      await page.getByText(text(language, 'geofence.title')).first().waitFor();
      await shot(page, `geofence-list-${language}-390`);
      await page.goto(new URL('/main/geofence/edit', page.url()).href);
      await waitForMap(page);
      await waitForMapIdle(page);
      await shot(page, `geofence-edit-framed-${language}-390`);
      await lookAt(page, YARD, 15);
      // Drawn with a finger, as on a phone: taps add the corners, the hints say tap.
      const finger = await fingerOn(page);
      await page.getByText(text(language, 'geofence.hint_polygon_touch', { count: 3 })).waitFor();
      for (const corner of [corners.nw, corners.ne, corners.se]) await finger.tap(await pagePointOf(page, corner));
      await expect
        .poll(() => page.getByTestId('fence-point-count').innerText())
        .toBe(text(language, 'geofence.points_count', { count: 3 }));
      await page.getByText(text(language, 'geofence.hint_polygon_edit_touch')).waitFor();
      await waitForMapIdle(page);
      await shot(page, `geofence-edit-${language}-390`);
      await page.goto(new URL('/main/map', page.url()).href);
      await waitForMap(page);
      await lookAt(page, YARD, 15);
      await shot(page, `geofence-live-map-${language}-390`);
    }, 120_000);
  }
});
