import type { Page, WebSocket as PageSocket } from 'playwright-core';
import { afterAll, describe, expect, inject, test } from 'vitest';
import { adminCredentials } from '../support/accounts.js';
import { postJson, signInByApi, tokenOf } from '../support/apiLogin.js';
import { shot, useBrowserPerFile } from '../support/browser.js';
import { createWebChannel, deleteChannels } from '../support/channels.js';
import {
  alarmsOf,
  createFieldUser,
  historyTimes,
  makeCheckInDue,
  PHONE,
  playFall,
  signInField,
  START,
} from '../support/fieldApp.js';
import { deleteUsers, Terminal } from '../support/terminal.js';

/**
 * The field app (issue 49), everything but talk: sign-in, resume, sign-out; fixes kept while offline
 * and sent as `positions`; the lone worker's check-in; man down cancelled and not; screenshots at
 * 390x844 in English and Chinese.
 */
const browser = useBrowserPerFile({
  args: [
    '--use-fake-ui-for-media-stream',
    '--use-fake-device-for-media-stream',
    '--autoplay-policy=no-user-gesture-required',
  ],
});

const stamp = String(Date.now()).slice(-6);
const users: number[] = [];
const alarms: number[] = [];
const channels: number[] = [];
let token = '';

afterAll(async () => {
  if (!token) return;
  if (alarms.length > 0) await postJson(token, '/api/Notification/Resolve', { ids: alarms, comment: 'field.e2e' });
  await postJson(token, '/api/Safety/Delete', { ids: users.map((uid) => `user:${uid}`) }).catch(() => undefined);
  await deleteChannels(token, channels);
  await deleteUsers(token, users);
});

/** The admin's API token (through a throwaway page's cookies). */
async function adminToken(): Promise<string> {
  if (token) return token;
  const page = await browser.newPage();
  await signInByApi(page, adminCredentials());
  token = await tokenOf(page);
  return token;
}

async function newUser(suffix: string, gpsConfig = ''): Promise<{ uid: number; phone: string; name: string }> {
  const phone = `137${stamp}${suffix}`;
  const name = `Field ${suffix} ${stamp}`;
  const uid = await createFieldUser(await adminToken(), name, phone, gpsConfig);
  users.push(uid);
  return { uid, phone, name };
}

/** A page as a phone's (390x844) that may read the location, which Playwright sets. */
async function phonePage(locale = 'en-US'): Promise<Page> {
  const page = await browser.newPage({ locale, ...PHONE });
  await page.context().grantPermissions(['geolocation', 'microphone']);
  await page.context().setGeolocation({ ...START, accuracy: 5 });
  return page;
}

const fieldUrl = () => new URL('/field', inject('baseUrl')).href;

const signedIn = (page: Page) => page.getByRole('button', { name: 'Sign out' }).waitFor();

describe('field app', () => {
  test('signs in, says a wrong password, reopens without asking, signs out and forgets', async () => {
    const user = await newUser('01');
    const page = await phonePage();
    await page.goto(fieldUrl());
    await shot(page, 'field-sign-in-en');
    await signInField(page, user.phone, 'Wrong-2026');
    await expect.poll(() => page.getByRole('alert').innerText()).toBe('Wrong phone number or password.');
    await signInField(page, user.phone);
    await signedIn(page);
    await page.getByText(user.name).waitFor();
    await page.reload();
    await signedIn(page);
    await expect.poll(() => page.getByLabel('Phone').count()).toBe(0);

    // The header shows the joined channel and its online count; the switcher joins another.
    channels.push(await createWebChannel(await adminToken(), `Gate ${stamp}`, [user.uid], 3));
    channels.push(await createWebChannel(await adminToken(), `Yard ${stamp}`, [user.uid], 3));
    const header = page.getByRole('region', { name: 'Channel' });
    await expect.poll(() => header.locator('strong').innerText()).toBe(`Gate ${stamp}`);
    await header.getByText('1 of 1 online').waitFor();
    await header.getByLabel('Switch channel').selectOption({ label: `Yard ${stamp}` });
    await expect.poll(() => header.locator('strong').innerText()).toBe(`Yard ${stamp}`);
    await shot(page, 'field-talk-en');

    await page.getByRole('button', { name: 'SOS' }).hover();
    const since = Date.now();
    await page.mouse.down();
    await page.getByRole('alertdialog', { name: 'Sending SOS' }).waitFor();
    await shot(page, 'field-sos-countdown-en');
    await page.mouse.up();
    await expect.poll(() => page.getByRole('alertdialog').count()).toBe(0);
    await page.waitForTimeout(2500);
    expect(alarmsOf(user.uid, 'SOS', since)).toEqual([]);

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByLabel('Phone').waitFor();
    expect(await page.evaluate(() => localStorage.getItem('intercom.field.session'))).toBeNull();
    await page.reload();
    await page.getByLabel('Phone').waitFor();
  });

  test('opens from its cache without a network, and returns to sign-in saying why when replaced', async () => {
    const user = await newUser('07');
    const page = await phonePage();
    await signInField(page, user.phone);
    await signedIn(page);
    // The service worker has cached the shell and controls the page (it claims it once installed).
    await expect.poll(() => page.evaluate(() => Boolean(navigator.serviceWorker.controller))).toBe(true);
    await page.context().setOffline(true);
    await page.reload();
    await page.getByText('Offline', { exact: true }).waitFor();
    await page.getByText(user.name).waitFor();
    await page.context().setOffline(false);
    await page.getByText('Online', { exact: true }).waitFor({ timeout: 30_000 });

    // The same phone signs in elsewhere: the server closes this session (4001 replaced).
    const other = await Terminal.login(user.phone);
    await page.getByRole('alert').filter({ hasText: 'this account signed in on another device' }).waitFor();
    await page.getByLabel('Phone').waitFor();
    await other.logout();
  }, 120_000);

  test('in Chinese: sign-in, the radio and the SOS countdown', async () => {
    const user = await newUser('02');
    const page = await phonePage('zh-CN');
    await page.goto(fieldUrl());
    await page.getByLabel('手机号').waitFor();
    await shot(page, 'field-sign-in-zh');
    await page.getByLabel('手机号').fill(user.phone);
    await page.getByLabel('密码').fill('Live-2026');
    await page.getByRole('button', { name: '登录' }).click();
    await page.getByRole('button', { name: '退出登录' }).waitFor();
    await shot(page, 'field-talk-zh');
    await page.getByRole('button', { name: 'SOS' }).hover();
    await page.mouse.down();
    await page.getByRole('alertdialog', { name: '正在发送 SOS' }).waitFor();
    await shot(page, 'field-sos-countdown-zh');
    await page.mouse.up();
  });

  test('keeps every fix of 30 s offline and sends them as positions once back', async () => {
    const user = await newUser('03', '{"interval":1,"mode":"interval"}');
    const page = await phonePage();
    const sent: string[] = [];
    page.on('websocket', (socket: PageSocket) =>
      socket.on('framesent', (frame) => {
        if (typeof frame.payload === 'string') sent.push(frame.payload);
      }),
    );
    await signInField(page, user.phone);
    await signedIn(page);
    const context = page.context();
    let step = 0;
    const move = async (seconds: number) => {
      for (let i = 0; i < seconds; i += 1) {
        step += 1;
        await context.setGeolocation({
          latitude: START.latitude + step * 0.0001,
          longitude: START.longitude,
          accuracy: 5,
        });
        await page.waitForTimeout(1000);
      }
    };
    await move(3);
    const offlineFrom = Date.now();
    await context.setOffline(true);
    await page.getByText('Offline', { exact: true }).waitFor();
    await move(30);
    const offlineTo = Date.now();
    await context.setOffline(false);
    await page.getByText('Online', { exact: true }).waitFor();
    await move(3);
    await expect
      .poll(() => historyTimes(user.uid, offlineFrom).filter((t) => t <= offlineTo).length, { timeout: 30_000 })
      .toBeGreaterThanOrEqual(25);
    const times = historyTimes(user.uid, offlineFrom).filter((t) => t <= offlineTo);
    const gaps = times.slice(1).map((t, i) => t - times[i]!);
    expect(Math.max(...gaps), `gaps ${gaps.join(',')}`).toBeLessThanOrEqual(2500);
    expect(times[0]! - offlineFrom).toBeLessThanOrEqual(2500);
    expect(offlineTo - times.at(-1)!).toBeLessThanOrEqual(2500);
    const batches = sent.filter((text) => text.includes('"type":"positions"'));
    expect(batches.length).toBeGreaterThanOrEqual(1);
    const batched = batches.flatMap((text) =>
      (JSON.parse(text) as { fixes: { time: number }[] }).fixes.map((f) => f.time),
    );
    expect(batched.length).toBeLessThanOrEqual(100 * batches.length);
    expect(batched).toEqual([...batched].sort((a, b) => a - b));
    expect(times.every((t) => batched.includes(t))).toBe(true);
  }, 120_000);

  for (const [language, locale, ok, title] of [
    ['en', 'en-US', "I'm OK", 'Check-in due'],
    ['zh', 'zh-CN', '我很好', '需要报平安'],
  ] as const) {
    test(`answers a check-in that falls due (${language})`, async () => {
      const user = await newUser(language === 'en' ? '04' : '05');
      const settings = await postJson(await adminToken(), '/api/Safety/Settings', {
        UserIds: [user.uid],
        CheckInMinutes: 30,
        GraceMinutes: 5,
        NoMovementMinutes: 0,
        NoMovementMeters: 10,
      });
      expect(settings.body.BaseResult.Code, JSON.stringify(settings.body)).toBe(8888);
      makeCheckInDue(user.uid);
      const page = await phonePage(locale);
      await page.goto(fieldUrl());
      await page.locator('input[name=phone]').fill(user.phone);
      await page.locator('input[name=password]').fill('Live-2026');
      await page.locator('form button[type=submit]').click();
      const prompt = page.getByRole('alertdialog', { name: title });
      await prompt.waitFor({ timeout: 20_000 });
      await shot(page, `field-check-in-${language}`);
      await prompt.getByRole('button', { name: ok }).click();
      await expect.poll(() => prompt.count()).toBe(0);
      await page
        .getByRole('status')
        .filter({ hasText: language === 'en' ? 'Next check-in at' : '下次报平安时间' })
        .waitFor();
      await shot(page, `field-checked-in-${language}`);
    }, 60_000);
  }

  test('man down: a cancelled countdown sends nothing, an unanswered one raises ManDown', async () => {
    const user = await newUser('06');
    const page = await phonePage();
    // The page's clock flows as the real one until the countdown, which the test then steps through.
    await page.clock.install({ time: Date.now() });
    await signInField(page, user.phone);
    await signedIn(page);
    await page.getByRole('switch', { name: 'Man down detection' }).check();
    const since = Date.now();
    await playFall(page);
    const countdown = page.getByRole('alertdialog', { name: 'Are you OK?' });
    await countdown.waitFor();
    await shot(page, 'field-man-down-en');
    await countdown.getByRole('button', { name: 'Cancel alarm' }).click();
    await expect.poll(() => countdown.count()).toBe(0);

    await playFall(page);
    await countdown.waitFor();
    // Unanswered: the page's clock stops, and each second of the countdown passes as soon as the page shows it.
    await page.clock.pauseAt((await page.evaluate(() => Date.now())) + 100);
    const count = countdown.locator('.overlay__count');
    for (let left = Number(await count.innerText()); left > 0; left -= 1) {
      await expect.poll(() => count.innerText()).toBe(String(left));
      await page.clock.runFor(1000);
    }
    await page.clock.resume();
    await page.getByRole('status').filter({ hasText: 'Man down alarm sent.' }).waitFor();
    const raised = alarmsOf(user.uid, 'ManDown', since);
    alarms.push(...raised);
    expect(raised).toHaveLength(1);
  }, 90_000);
});
