import type { Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { adminCredentials } from '../support/accounts.js';
import { tokenOf } from '../support/apiLogin.js';
import { shot, useBrowserPerFile } from '../support/browser.js';
import { logIn } from '../support/console.js';
import { cameraInUrl, columnOf, columnPlace, mapCamera } from '../support/map3d.js';
import { expectMapUser, openMapSignedIn, waitForMap, waitForMapIdle } from '../support/mapPage.js';
import { createTerminalUser, Terminal, useTestTerminals } from '../support/terminal.js';
import { en, text, type Language } from '../support/texts.js';

const browser = useBrowserPerFile({ webgl: true });

const made = useTestTerminals();
const { stamp, users: created, terminals } = made;

/** A user in SOS and one online, in Shenzhen; resolves with the SOS user's id. */
async function startTerminals(page: Page): Promise<number> {
  made.token = await tokenOf(page);
  const users = [
    { name: `3D Alpha ${stamp}`, phone: `137${stamp}01`, lat: 22.5431, lon: 114.0579 },
    { name: `3D Bravo ${stamp}`, phone: `137${stamp}02`, lat: 22.5531, lon: 114.0679 },
  ];
  for (const user of users) {
    created.push(await createTerminalUser(made.token, user.name, user.phone));
    const terminal = await Terminal.login(user.phone, 'map3d.e2e');
    terminals.push(terminal);
    await terminal.send({ type: 'position', lat: user.lat, lon: user.lon, time: Date.now(), speed: 0, course: 0 });
  }
  await terminals[0]!.send({ type: 'sos', text: 'map3d.e2e' });
  return created[0]!;
}

/** Polls until the map's camera satisfies `check`. */
async function expectCamera(
  page: Page,
  check: (camera: Awaited<ReturnType<typeof mapCamera>>) => boolean,
  what: string,
) {
  await expect.poll(async () => check(await mapCamera(page)), { message: what }).toBe(true);
}

const near = (value: number, wanted: number, within = 0.5) => Math.abs(value - wanted) <= within;

describe('3D map', () => {
  test('a shared view opens at its camera; Shift with the arrows and the buttons tilt and turn it; the address follows', async () => {
    const page = await browser.newPage();
    await openMapSignedIn(page, adminCredentials(), '/main/3dmap#13/22.55/114.06/30/50');
    const sos = await startTerminals(page);
    const shared = (camera: Awaited<ReturnType<typeof mapCamera>>) =>
      near(camera.zoom, 13, 0.01) &&
      near(camera.lat, 22.55, 0.001) &&
      near(camera.lon, 114.06, 0.001) &&
      near(camera.bearing, 30) &&
      near(camera.pitch, 50);
    await expectCamera(page, shared, 'the camera of the URL');
    // The users arriving do not move a camera the URL gave.
    await expectMapUser(page, sos, (user) => user.state === 'sos', 'the SOS user drawn');
    await expect.poll(() => columnOf(page, sos)).toBe('sos');
    expect(shared(await mapCamera(page))).toBe(true);
    // A move takes the user's column along (the columns follow the users by difference).
    const bravo = created[1]!;
    await expect.poll(() => columnOf(page, bravo)).toBe('online');
    await terminals[1]!.send({ type: 'position', lat: 22.5561, lon: 114.0649, time: Date.now(), speed: 0, course: 0 });
    await expect
      .poll(
        async () => {
          const place = await columnPlace(page, bravo);
          return place !== undefined && near(place[0], 114.0649, 0.0003) && near(place[1], 22.5561, 0.0003);
        },
        { message: "Bravo's column at its new place" },
      )
      .toBe(true);

    // Shift with an arrow turns (15°) and tilts (10°) once the map has the focus.
    await page.locator('[data-testid="map-canvas"] canvas').focus();
    await page.keyboard.press('Shift+ArrowRight');
    await expectCamera(page, (camera) => near(camera.bearing, 45), 'turned right by the keyboard');
    await page.keyboard.press('Shift+ArrowDown');
    await expectCamera(page, (camera) => near(camera.pitch, 40), 'tilted less by the keyboard');
    // The address follows the camera.
    await expect
      .poll(() => {
        const inUrl = cameraInUrl(page.url());
        return inUrl !== undefined && near(inUrl.bearing, 45) && near(inUrl.pitch, 40) && near(inUrl.zoom, 13, 0.01);
      })
      .toBe(true);

    // The buttons under the compass do the same.
    await page.getByRole('button', { name: en('map.turn_left') }).click();
    await expectCamera(page, (camera) => near(camera.bearing, 30), 'turned left by the button');
    await page.getByRole('button', { name: en('map.tilt_more') }).click();
    await expectCamera(page, (camera) => near(camera.pitch, 50), 'tilted more by the button');
  });

  test('a 2D map URL with a camera opens there through the login, flat', async () => {
    const page = await browser.newPage();
    await logIn(page, adminCredentials(), '/main/map#12/22.55/114.06/30/50');
    await waitForMap(page);
    expect(new URL(page.url()).pathname).toBe('/main/map');
    await expectCamera(
      page,
      (camera) =>
        near(camera.zoom, 12, 0.01) && near(camera.lat, 22.55, 0.001) && camera.pitch === 0 && camera.bearing === 0,
      'the URL camera, flat',
    );
    // The flat camera is what the address says now.
    await expect.poll(() => cameraInUrl(page.url())).toMatchObject({ zoom: 12, bearing: 0, pitch: 0 });

    // Shift with the arrows neither tilts nor turns the 2D map; the plain arrows still move it.
    await page.locator('[data-testid="map-canvas"] canvas').focus();
    const before = await mapCamera(page);
    await page.keyboard.press('Shift+ArrowUp');
    await page.keyboard.press('Shift+ArrowRight');
    await page.keyboard.press('ArrowRight');
    await expectCamera(page, (camera) => camera.lon > before.lon + 0.001, 'moved east by the arrow');
    const after = await mapCamera(page);
    expect([after.pitch, after.bearing]).toEqual([0, 0]);
  });

  const views: { language: Language; width: number; height: number }[] = [
    { language: 'en', width: 1440, height: 900 },
    { language: 'zh', width: 1440, height: 900 },
    { language: 'en', width: 390, height: 844 },
    { language: 'zh', width: 390, height: 844 },
  ];
  for (const { language, width, height } of views) {
    test(`the 3D view in ${language} at ${width} px: columns, SOS ring, translated tilt and turn buttons`, async () => {
      const page = await browser.newPage({ locale: language, width, height });
      // At the SOS user, at city zoom: the framing of every user (map.e2e) would put the camera
      // wherever the other files' users are, and below zoom 12, on the globe, MapLibre's
      // queryRenderedFeatures did not find the columns it drew (CI at 390 px; the screenshot showed them).
      await openMapSignedIn(page, adminCredentials(), '/main/3dmap#13/22.5431/114.0579/-25/60', language);
      // The first 3D frames at 1440 px take seconds on SwiftShader on a slow, loaded machine (CI
      // once needed more than the default 10 s here; the page showed no error).
      await expect.poll(() => columnOf(page, created[0]!), { timeout: 30_000 }).toBe('sos');
      await page.locator(`[data-testid="map-sos-ring"][data-user-id="${created[0]}"]`).waitFor();
      expect(await page.getByRole('button', { name: text(language, 'map.tilt_less') }).count()).toBe(1);
      await waitForMapIdle(page);
      await shot(page, `map3d-${language}-${width}`);
    });
  }
});
