import type { Page } from 'playwright-core';
import { afterAll, describe, expect, inject, test } from 'vitest';
import { ensureVideoChannel } from '../../apps/simulator/src/adminApi.js';
import { adminCredentials } from '../support/accounts.js';
import { tokenOf } from '../support/apiLogin.js';
import { shot, useBrowserPerFile } from '../support/browser.js';
import { openSignedIn } from '../support/console.js';
import { PHONE, signInField } from '../support/fieldApp.js';
import { createTerminalUser, deleteUsers } from '../support/terminal.js';
import { fieldText, text, type Language } from '../support/texts.js';
import { decodedPictures, logInVideoSeat, withdrawVideoRights } from '../support/video.js';

/**
 * The field app as a camera (issue 49 item 8): Chromium's fake camera on a phone page of a user with
 * video rights; the console watches it, decodes its pictures, and stopping stops the phone's camera.
 */
const browser = useBrowserPerFile({ args: ['--use-fake-ui-for-media-stream', '--use-fake-device-for-media-stream'] });
const stamp = String(Date.now()).slice(-6);
const name = `Field camera ${stamp}`;
const phone = `137${stamp}01`;
const users: number[] = [];
let token = '';

afterAll(async () => {
  if (!token) return;
  await deleteUsers(token, users);
  await withdrawVideoRights(token);
});

/** Records every track the page's getUserMedia hands out and the constraints asked for. */
function watchTracks(): void {
  const found = window as unknown as { cameraTracks: MediaStreamTrack[]; cameraAsked: MediaStreamConstraints[] };
  found.cameraTracks = [];
  found.cameraAsked = [];
  const devices = navigator.mediaDevices;
  const open = devices.getUserMedia.bind(devices);
  devices.getUserMedia = async (constraints) => {
    found.cameraAsked.push(constraints ?? {});
    const stream = await open(constraints);
    found.cameraTracks.push(...stream.getTracks());
    return stream;
  };
}

/** The phone's camera tracks' states (`live`, `ended`) and the facing mode it asked for. */
function cameraOf(page: Page): Promise<{ states: string[]; facing: unknown }> {
  return page.evaluate(() => {
    const found = window as unknown as { cameraTracks: MediaStreamTrack[]; cameraAsked: MediaStreamConstraints[] };
    const video = found.cameraAsked[0]?.video;
    return {
      states: found.cameraTracks.map((track) => track.readyState),
      facing: typeof video === 'object' ? video.facingMode : undefined,
    };
  });
}

async function fieldPhone(language: Language): Promise<Page> {
  const page = await browser.newPage({ locale: language === 'zh' ? 'zh-CN' : 'en-US', ...PHONE });
  await page.context().grantPermissions(['camera', 'microphone'], { origin: inject('baseUrl') });
  await page.addInitScript(watchTracks);
  await signInField(page, phone, undefined, language);
  await page.getByRole('button', { name: fieldText(language, 'field', 'signOut') }).waitFor();
  return page;
}

/** Watches the field user from the console until it has decoded pictures, one after another. */
async function watch(console: Page, uid: number, field: Page, language: Language): Promise<string> {
  const item = console.locator('.ant-list-item', { hasText: name });
  await item.getByRole('button', { name: text('en', 'video.watch') }).click();
  const indicator = field.getByText(fieldText(language, 'video', 'on'));
  await indicator.waitFor();
  await expect.poll(() => decodedPictures(console, uid), { timeout: 20_000 }).toBeGreaterThanOrEqual(5);
  const before = await decodedPictures(console, uid);
  await expect.poll(() => decodedPictures(console, uid)).toBeGreaterThan(before + 3);
  await expect.poll(() => console.getByTestId(`video-stats-${uid}`).innerText()).toContain('640 × 360');
  await shot(field, `field-camera-${language}`);
  return (await field.locator('.cameraLine').getAttribute('data-codec')) ?? '';
}

async function stopWatching(console: Page, field: Page, language: Language): Promise<void> {
  const item = console.locator('.ant-list-item', { hasText: name });
  await item.getByRole('button', { name: text('en', 'video.stop') }).click();
  await expect.poll(() => field.getByText(fieldText(language, 'video', 'on')).count()).toBe(0);
  await expect.poll(async () => (await cameraOf(field)).states.every((state) => state === 'ended')).toBe(true);
}

describe('the field app’s camera', () => {
  test('announces video, sends the rear camera while the console watches, and stops it when freed', async () => {
    const console = await browser.newPage();
    await openSignedIn(console, adminCredentials(), '/main/video');
    token = await tokenOf(console);
    const uid = await createTerminalUser(token, name, phone);
    users.push(uid);
    await ensureVideoChannel(inject('baseUrl').replace(/\/$/, ''), token, [uid]);
    await logInVideoSeat(console, 'en');

    const field = await fieldPhone('en');
    const item = console.locator('.ant-list-item', { hasText: name });
    await item.waitFor();
    // Announced, nobody watching: the camera stays closed.
    expect((await cameraOf(field)).states).toEqual([]);
    const codec = await watch(console, uid, field, 'en');
    expect(['h264', 'jpeg']).toContain(codec);
    // The phone sends the codec it announced first (the one the console lists first).
    expect(await item.locator('.ant-tag').first().innerText()).toBe(codec.toUpperCase());
    const camera = await cameraOf(field);
    expect(camera.facing).toBe('environment');
    expect(camera.states).toEqual(['live']);
    await stopWatching(console, field, 'en');

    // Signed in again from a phone in Chinese (the English page is replaced): announced again, watched again.
    const zh = await fieldPhone('zh');
    expect(await watch(console, uid, zh, 'zh')).toBe(codec);
    await stopWatching(console, zh, 'zh');
  }, 120_000);
});
