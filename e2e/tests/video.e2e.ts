import type { Page } from 'playwright-core';
import { afterAll, describe, expect, inject, test } from 'vitest';
import { SIM_VIDEO_CHANNEL, ensureVideoChannel } from '../../apps/simulator/src/adminApi.js';
import { SimDevice } from '../../apps/simulator/src/device.js';
import { seededRandom } from '../../apps/simulator/src/movement.js';
import { FleetStats } from '../../apps/simulator/src/stats.js';
import { SimTerminal } from '../../apps/simulator/src/terminal.js';
import { adminCredentials } from '../support/accounts.js';
import { callApi, tokenOf } from '../support/apiLogin.js';
import { shot, useBrowserPerFile } from '../support/browser.js';
import { openSignedIn } from '../support/console.js';
import { TERMINAL_PASSWORD, createTerminalUser, deleteUsers } from '../support/terminal.js';
import { text, type Language } from '../support/texts.js';

const browser = useBrowserPerFile();
const stamp = String(Date.now()).slice(-6);
const name = `Camera ${stamp}`;
const phone = `136${stamp}01`;
let adminToken = '';
let userId = 0;
let camera: SimTerminal | undefined;

/** A simulated `--video` terminal (the simulator's own code), its user given video rights. */
async function startCamera(token: string): Promise<SimTerminal> {
  userId = await createTerminalUser(token, name, phone);
  await ensureVideoChannel(inject('baseUrl').replace(/\/$/, ''), token, [userId]);
  const terminal = new SimTerminal({
    url: inject('baseUrl').replace(/\/$/, ''),
    phone,
    password: TERMINAL_PASSWORD,
    device: new SimDevice({ lat: 22.54, lon: 114.05 }, 1, seededRandom(7), 0),
    stats: new FleetStats(),
    interval: 60,
    video: { fps: 10, width: 320, height: 240 },
    log: () => undefined,
  });
  terminal.start();
  return terminal;
}

async function decoded(page: Page): Promise<number> {
  return Number(await page.getByTestId(`video-canvas-${userId}`).getAttribute('data-decoded'));
}

afterAll(async () => {
  await camera?.stop();
  if (!adminToken) return;
  await deleteUsers(adminToken, userId ? [userId] : []);
  // Leave the enterprise as the other files expect it: video off, no test channel.
  const { body } = await callApi(adminToken, 'GET', '/api/THChannel/QueryChannel', { search: SIM_VIDEO_CHANNEL });
  for (const channel of (body.Data as { CID: number; CName: string }[] | undefined) ?? []) {
    if (channel.CName !== SIM_VIDEO_CHANNEL) continue;
    const url = new URL('/api/THChannel/DeleteChannel', inject('baseUrl'));
    url.searchParams.set('cid', String(channel.CID));
    await fetch(url, { method: 'DELETE', headers: { Authorization: `Bearer ${adminToken}` } });
  }
  await callApi(adminToken, 'POST', '/api/Account/ModifyConfig', { scCode: 'VideoEnable', scValue: 'FALSE' });
});

describe('video', () => {
  test('a simulated camera is listed, applied, decoded frame after frame, and stops when freed', async () => {
    const page = await browser.newPage();
    await openSignedIn(page, adminCredentials(), '/main/video');
    adminToken = await tokenOf(page);
    camera = await startCamera(adminToken);
    const t = (key: string, params?: Record<string, string | number>) => text('en', key, params);

    const item = page.locator('.ant-list-item', { hasText: name });
    await item.waitFor();
    // Listed, but nobody watches: the terminal sends nothing.
    expect(camera.camera?.running).toBe(false);
    await item.getByRole('button', { name: t('video.watch') }).click();
    const tile = page.getByLabel(t('video.stream_of', { name }));
    await tile.waitFor();
    await expect.poll(() => decoded(page)).toBeGreaterThanOrEqual(5);
    const before = await decoded(page);
    await expect.poll(() => decoded(page)).toBeGreaterThan(before + 3);
    // Resolution, frame rate and delay as the decoder measured them.
    await expect
      .poll(() => page.getByTestId(`video-stats-${userId}`).innerText())
      .toMatch(/^320 × 240 · \d+ fps · delay \d+ ms$/);
    const delay = Number(/delay (\d+)/.exec(await page.getByTestId(`video-stats-${userId}`).innerText())?.[1]);
    expect(delay).toBeLessThan(1000);
    await shot(page, 'video-en');

    await tile.getByRole('button', { name: t('video.stop') }).click();
    await expect.poll(() => camera?.camera?.running).toBe(false);
    await expect.poll(() => tile.count()).toBe(0);
    expect(await page.getByText(t('video.panel_empty')).count()).toBe(1);
  });

  for (const [language, width] of [
    ['zh', 1280],
    ['en', 390],
  ] as [Language, number][]) {
    test(`shows the panel in ${language} at ${width} px`, async () => {
      const page = await browser.newPage({ locale: language, width, height: 844 });
      await openSignedIn(page, adminCredentials(), '/main/video', language);
      const item = page.locator('.ant-list-item', { hasText: name });
      await item.getByRole('button', { name: text(language, 'video.watch') }).click();
      await expect.poll(() => decoded(page)).toBeGreaterThanOrEqual(3);
      await expect.poll(() => page.getByTestId(`video-stats-${userId}`).innerText()).toContain('320 × 240');
      await shot(page, width < 500 ? `video-mobile-${language}` : `video-${language}`);
      await item.getByRole('button', { name: text(language, 'video.stop') }).click();
      await expect.poll(() => camera?.camera?.running).toBe(false);
    });
  }
});
