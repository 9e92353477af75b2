import type { Page } from 'playwright-core';
import { afterAll, describe, expect, inject, test } from 'vitest';
import { adminCredentials } from '../support/accounts.js';
import { callApi, signInByApi, tokenOf } from '../support/apiLogin.js';
import { shot, useBrowserPerFile } from '../support/browser.js';
import { nameEndingWith, open, toast, waitForAnimations } from '../support/console.js';
import {
  expectMapUser,
  mapUser,
  openMapSignedIn,
  pickUserOnMap,
  waitForMap,
  waitForMapIdle,
} from '../support/mapPage.js';
import { RawTerminal } from '../support/rawTerminal.js';
import { createTerminalUser, deleteUsers } from '../support/terminal.js';
import { en, text, type Language } from '../support/texts.js';
import { fingerOn, type Point } from '../support/touch.js';

// Incident zones from the live map (issue 32): a circle around the selected user opens an incident,
// its members show in the panel as terminals walk in, the terminals are regrouped, Close ends it.
const browser = useBrowserPerFile({ webgl: true });

const stamp = String(Date.now()).slice(-6);
/** Far from what other files of the run place on the map. */
const SITE: [number, number] = [22.6012, 113.9021];
const north = (metres: number) => SITE[0] + metres / 111_195;
/** Where the drawing tests place their workers: out of the zone around Alpha that counts its members. */
const ASIDE = 20_000;
const users: number[] = [];
const incidents: number[] = [];
let adminToken = '';

afterAll(async () => {
  for (const IN_ID of incidents) {
    await fetch(new URL('/api/Incident/Close', inject('baseUrl')), {
      method: 'POST',
      headers: { Authorization: `Bearer ${adminToken}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ IN_ID }),
    });
  }
  await deleteUsers(adminToken, users);
});

async function walker(name: string, phone: string, metres: number): Promise<RawTerminal> {
  users.push(await createTerminalUser(adminToken, name, phone));
  const terminal = await RawTerminal.login(phone, 'incident.e2e');
  const reply = await terminal.send({
    type: 'position',
    lat: north(metres),
    lon: SITE[1],
    time: Date.now(),
    accuracy: 5,
  });
  expect(reply.type).toBe('ack');
  return terminal;
}

const panel = (page: Page) => page.getByTestId('incident-panel');

type MapElement = HTMLElement & {
  maplibre: {
    project(lngLat: [number, number]): Point;
    getStyle(): { layers: { id: string }[] };
    queryRenderedFeatures(options: { layers: string[] }): {
      properties: Record<string, unknown>;
      geometry: { type: string; coordinates: [number, number] };
    }[];
  };
};

/** Where the map draws a position (map coordinates), in page pixels. */
function onPage(page: Page, lngLat: [number, number]): Promise<Point> {
  return page.evaluate((at) => {
    const element = document.querySelector('[data-testid="map-canvas"]') as MapElement;
    const point = element.maplibre.project(at);
    const box = element.getBoundingClientRect();
    return { x: box.x + point.x, y: box.y + point.y };
  }, lngLat);
}

/** The handles of the zone being drawn, where they are on the page. */
function drawnHandles(page: Page): Promise<{ kind: string; x: number; y: number }[]> {
  return page.evaluate(() => {
    const element = document.querySelector('[data-testid="map-canvas"]') as MapElement;
    const map = element.maplibre;
    const layers = map
      .getStyle()
      .layers.map((layer) => layer.id)
      .filter((id) => id.startsWith('shape-draw-') && id.endsWith('-handles'));
    const box = element.getBoundingClientRect();
    return map.queryRenderedFeatures({ layers }).map((feature) => {
      const point = map.project(feature.geometry.coordinates);
      return { kind: String(feature.properties.kind), x: box.x + point.x, y: box.y + point.y };
    });
  });
}

async function radiusHandle(page: Page): Promise<Point> {
  await expect.poll(async () => (await drawnHandles(page)).some((h) => h.kind === 'radius')).toBe(true);
  return (await drawnHandles(page)).find((h) => h.kind === 'radius')!;
}

/** The part of the map the incident panel leaves uncovered, in page pixels. */
async function mapBesidePanel(page: Page): Promise<{ left: number; top: number; right: number; bottom: number }> {
  // Where the panel stands once it has slid in.
  await waitForAnimations(panel(page));
  const map = (await page.getByTestId('map-canvas').boundingBox())!;
  const cover = (await panel(page).boundingBox())!;
  const wide = cover.height > cover.width;
  return {
    left: map.x,
    top: map.y,
    right: wide ? Math.min(map.x + map.width, cover.x) : map.x + map.width,
    bottom: wide ? map.y + map.height : Math.min(map.y + map.height, cover.y),
  };
}

/** The incident named `name` as the server stored it; queued for closing after the file. */
async function storedIncident(name: string) {
  const { body } = await callApi(adminToken, 'GET', '/api/Incident/QueryData', {
    jsonCondition: JSON.stringify({ Name: name }),
  });
  const row = (
    body.Data as {
      IN_ID: number;
      CID: number;
      Kind: string;
      Radius: number | null;
      Center: [number, number] | null;
      Points: unknown[] | null;
    }[]
  )[0]!;
  incidents.push(row.IN_ID);
  return row;
}

/** Names the zone drawn in the panel `name`, creates the incident, and reads it back as stored. */
async function createIncident(page: Page, name: string) {
  await panel(page)
    .getByRole('textbox', { name: en('incident.name') })
    .fill(name);
  await page.getByTestId('incident-create').click();
  await toast(page, en('incident.created', { name })).waitFor();
  return storedIncident(name);
}

describe('incident zones', () => {
  for (const language of ['zh', 'en'] as Language[]) {
    test(`on a phone in ${language} the panel is a sheet and a circle is drawn and sized by touch above it`, async () => {
      const page = await browser.newPage({ locale: language, width: 390, height: 844 });
      await openMapSignedIn(page, adminCredentials(), '/main/map', language);
      adminToken = await tokenOf(page);
      const worker = await walker(`Delta ${language} ${stamp}`, `137${stamp}${language === 'zh' ? 44 : 45}`, ASIDE);
      await expectMapUser(page, users.at(-1)!, () => true, 'the worker on the map');
      const finger = await fingerOn(page);
      await page.getByTestId('incident-open-panel').click();
      // With a finger the hint says tap.
      await panel(page).getByText(text(language, 'incident.draw_circle_touch')).waitFor();
      await page.getByRole('button', { name: nameEndingWith(text(language, 'incident.create')) }).waitFor();
      const free = await mapBesidePanel(page);
      // A third of the phone's height stays map.
      expect(free.bottom - free.top).toBeGreaterThan(844 / 4);

      // Left of the worker, whom the map frames in its middle (a tap on a user selects the user too).
      await finger.tap({ x: free.left + (free.right - free.left) * 0.3, y: (free.top + free.bottom) / 2 });
      const first = await radiusHandle(page);
      // The radius handle is drawn on the map above the sheet, and a finger drags it outwards.
      expect(first.y).toBeGreaterThan(free.top);
      expect(first.y).toBeLessThan(free.bottom);
      expect(first.x).toBeLessThan(free.right);
      const to = { x: Math.min(free.right - 8, first.x + 40), y: first.y };
      await finger.drag(first, to);
      await expect.poll(async () => (await radiusHandle(page)).x).toBeGreaterThan(first.x + 20);
      await waitForMapIdle(page);
      await shot(page, `incident-panel-${language}-390`);
      await worker.logout();
    });
  }

  test('a circle around the selected user: members follow the terminals, which are regrouped; Close ends it', async () => {
    const page = await browser.newPage();
    // Signed in and straight to the map: the page is ready when its map is.
    await signInByApi(page, adminCredentials());
    await open(page, '/main/map');
    await waitForMap(page);
    adminToken = await tokenOf(page);
    const [alphaName, bravoName] = [`Alpha ${stamp}`, `Bravo ${stamp}`];
    const alpha = await walker(alphaName, `137${stamp}41`, 0);
    const bravo = await walker(bravoName, `137${stamp}42`, 2_000);
    await waitForMap(page);
    await pickUserOnMap(page, `137${stamp}41`, alphaName);

    await page.getByTestId('incident-open-panel').click();
    const name = `Fire ${stamp}`;
    await panel(page)
      .getByRole('textbox', { name: en('incident.name') })
      .fill(name);
    await panel(page).getByText(en('incident.zone_user'), { exact: true }).click();
    await panel(page)
      .getByText(en('incident.around', { name: alphaName }))
      .waitFor();
    await panel(page)
      .getByRole('spinbutton', { name: en('incident.radius') })
      .fill('300');
    await page.getByTestId('incident-create').click();
    await toast(page, en('incident.created', { name })).waitFor();

    const row = await storedIncident(name);
    expect(row.Radius).toBe(300);
    expect(Math.abs(row.Center![0] - SITE[0])).toBeLessThan(1e-6);
    const regrouped = await alpha.push((m) => m.type === 'regrouped' && m.cid === row.CID);
    expect(regrouped).toMatchObject({ name, incident: row.IN_ID });

    // Alpha is listed; Bravo walks in and shows up without a reload.
    const card = page.getByTestId(`incident-${row.IN_ID}`);
    await card.getByText(alphaName).waitFor();
    expect(await card.getByText(bravoName).count()).toBe(0);
    await bravo.send({ type: 'position', lat: north(100), lon: SITE[1], time: Date.now(), accuracy: 5 });
    await bravo.push((m) => m.type === 'regrouped' && m.cid === row.CID);
    await card.getByText(bravoName).waitFor();
    await card.getByText(en('incident.members_other', { count: 2 })).waitFor();
    await waitForMapIdle(page);
    await shot(page, 'incident-panel-en');

    // Close, confirmed: both terminals leave with incident_closed; the list is empty.
    await page.getByTestId(`incident-close-${row.IN_ID}`).click();
    await page.locator('.ant-popconfirm .ant-btn-primary').click();
    await toast(page, en('incident.closed', { name })).waitFor();
    incidents.pop();
    for (const terminal of [alpha, bravo]) {
      await terminal.push((m) => m.type === 'channelLeft' && m.cid === row.CID && m.reason === 'incident_closed');
    }
    await card.waitFor({ state: 'detached' });
    for (const terminal of [alpha, bravo]) await terminal.logout();
  });

  test('at 1,440 px the map keeps the users and the circle drawn beside the panel', async () => {
    const page = await browser.newPage({ width: 1440, height: 900 });
    await signInByApi(page, adminCredentials());
    await open(page, '/main/map');
    await waitForMap(page);
    adminToken = await tokenOf(page);
    const terminal = await walker(`Charlie ${stamp}`, `137${stamp}43`, ASIDE);
    await expectMapUser(page, users.at(-1)!, () => true, 'Charlie on the map');

    // The panel opens framed on the users: Charlie is drawn on the map beside it.
    await page.getByTestId('incident-open-panel').click();
    await panel(page).getByText(en('incident.draw_circle')).waitFor();
    const free = await mapBesidePanel(page);
    const charlieOnPage = async () => onPage(page, (await mapUser(page, users.at(-1)!))!.coordinates);
    await expect
      .poll(async () => {
        const at = await charlieOnPage();
        return at.x > free.left && at.x < free.right && at.y > free.top && at.y < free.bottom;
      })
      .toBe(true);

    // A circle placed where Charlie is (just below his dot: a click on it selects him): its radius
    // handle is beside the panel, not under it.
    const charlie = await charlieOnPage();
    await page.mouse.click(charlie.x, charlie.y + 24);
    const handle = await radiusHandle(page);
    expect(handle.x).toBeLessThan(free.right);
    expect(handle.x).toBeGreaterThan(free.left);
    await waitForMapIdle(page);
    await shot(page, 'incident-panel-circle-1440');

    expect((await createIncident(page, `Flood ${stamp}`)).Kind).toBe('circle');
    await terminal.logout();
  });

  test('on a phone a polygon zone is drawn by taps and opens an incident', async () => {
    const page = await browser.newPage({ width: 390, height: 844 });
    await openMapSignedIn(page, adminCredentials(), '/main/map');
    adminToken = await tokenOf(page);
    const finger = await fingerOn(page);
    await page.getByTestId('incident-open-panel').click();
    await panel(page).getByText(en('incident.zone_polygon'), { exact: true }).click();
    await panel(page).getByText(en('incident.draw_polygon_touch')).waitFor();
    const free = await mapBesidePanel(page);
    const [midX, midY] = [(free.left + free.right) / 2, (free.top + free.bottom) / 2];
    const side = Math.min(free.right - free.left, free.bottom - free.top) / 4;
    for (const at of [
      { x: midX - side, y: midY + side },
      { x: midX, y: midY - side },
      { x: midX + side, y: midY + side },
    ])
      await finger.tap(at);
    await expect.poll(async () => (await drawnHandles(page)).filter((h) => h.kind === 'vertex').length).toBe(3);
    await waitForMapIdle(page);
    await shot(page, 'incident-polygon-touch-en-390');

    const row = await createIncident(page, `Spill ${stamp}`);
    expect(row.Kind).toBe('polygon');
    expect(row.Points).toHaveLength(3);
  });
});
