import Database from 'better-sqlite3';
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, test } from 'vitest';
import { adminCredentials } from '../support/accounts.js';
import { tokenOf } from '../support/apiLogin.js';
import { shot, useBrowserPerFile } from '../support/browser.js';
import { openSignedIn } from '../support/console.js';
import { openMapSignedIn, waitForMapIdle } from '../support/mapPage.js';
import { speechBurst } from '../support/speech.js';
import { createTerminalUser, deleteUsers } from '../support/terminal.js';
import { en, text, type Language } from '../support/texts.js';

const browser = useBrowserPerFile({ webgl: true });
const stamp = String(Date.now()).slice(-6);

/** The seeded day, in the browser's (and this process's) time zone. */
const DAY = '2026-11-20';
const at = (h: number, m: number, s = 0) => new Date(2026, 10, 20, h, m, s).getTime();
let userId = 0;
let adminToken = '';

/**
 * A day of a terminal reporting every 10 s: 08:00-08:30 driving north at about 40 km/h, parked
 * 08:30-08:45, driving east until 09:15, silent (no data) until 11:00, then 20 minutes more.
 * One speech burst at 08:35 in the user's channel (a real Ogg Opus file) and an SOS at 09:00.
 */
function seedDay(E_ID: number, U_ID: number, CID: number) {
  const fixes: [number, number, number, number][] = [];
  let lat = 22.54;
  let lon = 114.05;
  for (let t = at(8, 0); t < at(8, 30); t += 10_000, lat += 0.001) fixes.push([t, lat, lon, 40]);
  for (let t = at(8, 30); t <= at(8, 45); t += 10_000) fixes.push([t, lat, lon, 0]);
  for (let t = at(8, 45, 10); t <= at(9, 15); t += 10_000, lon += 0.001) fixes.push([t, lat, lon, 45]);
  for (let t = at(11, 0); t <= at(11, 20); t += 10_000, lat -= 0.001) fixes.push([t, lat, lon, 75]);
  const dataDir = inject('dataDir');
  const db = new Database(path.join(dataDir, 'intercom.sqlite'), { timeout: 10_000 });
  try {
    const fix = db.prepare(
      `INSERT INTO location_history (E_ID, U_ID, H_Time, H_Type, C_Longitude, C_Latitude, Speed, Course, Accuracy, Altitude)
       VALUES (?, ?, ?, 1, ?, ?, ?, 0, 5, NULL)`,
    );
    db.transaction(() => {
      for (const [t, la, lo, speed] of fixes) fix.run(E_ID, U_ID, t, lo, la, speed);
    })();
    const { bytes, durationMs } = speechBurst();
    const FilePath = `${E_ID}/trace-e2e-${stamp}.ogg`;
    fs.mkdirSync(path.join(dataDir, 'recordings', String(E_ID)), { recursive: true });
    fs.writeFileSync(path.join(dataDir, 'recordings', FilePath), bytes);
    db.prepare(
      `INSERT INTO recording (E_ID, CID, U_ID, ToU_ID, RType, StartAt, Duration, FilePath, Size)
       VALUES (?, ?, ?, NULL, 'group', ?, ?, ?, ?)`,
    ).run(E_ID, CID, U_ID, at(8, 35), Math.round(durationMs), FilePath, bytes.length);
    db.prepare(
      `INSERT INTO notification (E_ID, U_ID, Phone, NType, Content, Latitude, Longitude, State, HandledBy, HandledAt, Comment, CreatedAt)
       VALUES (?, ?, ?, 'sos', 'trace.e2e SOS', ?, ?, 'resolved', NULL, NULL, '', ?)`,
    ).run(E_ID, U_ID, `135${stamp}01`, lat, lon, at(9, 0));
  } finally {
    db.close();
  }
}

beforeAll(async () => {
  const page = await browser.newPage();
  await openSignedIn(page, adminCredentials(), '/');
  adminToken = await tokenOf(page);
  userId = await createTerminalUser(adminToken, `Trace Driver ${stamp}`, `135${stamp}01`);
  const db = new Database(path.join(inject('dataDir'), 'intercom.sqlite'), { readonly: true });
  const { E_ID } = db.prepare('SELECT E_ID FROM terminal_user WHERE UserID = ?').get(userId) as { E_ID: number };
  db.close();
  // A channel of its own, so the burst is in no other test's lists.
  const response = await fetch(new URL('/api/Channel/CreateWebChannel', inject('baseUrl')), {
    method: 'POST',
    headers: { Authorization: `Bearer ${adminToken}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ cname: `Trace ${stamp}`, uids: [userId] }),
  });
  const channel = (await response.json()) as { BaseData: { CID: number } };
  seedDay(E_ID, userId, channel.BaseData.CID);
  await page.context().close();
});
afterAll(async () => {
  await deleteUsers(adminToken, [userId]);
});

/** Opens the trace page for the seeded user and day, as the live map's Track button does. */
async function openTrace(page: Page, language: Language = 'en', day = DAY) {
  await openMapSignedIn(page, adminCredentials(), `/main/trace?uid=${userId}&day=${day}`, language);
}

const playhead = async (page: Page) => Number(await page.getByTestId('trace-playhead').getAttribute('data-time'));
const mapEval = <T>(page: Page, fn: string) =>
  page.evaluate<T>(
    // The map instance MapView keeps on its element.
    `(async () => { const map = document.querySelector('[data-testid="map-canvas"]').maplibre; return (${fn})(map); })()`,
  );

describe('track history and replay', () => {
  test('draws the day, replays it by time, seeks, and plays speech and shows alarms from the timeline', async () => {
    const page = await browser.newPage();
    await openTrace(page);
    const stats = page.getByTestId('trace-stats');
    await stats.waitFor();
    // 30 min north at 0.001 deg per 10 s (~20 km), 30 min east, 20 min south: about 52 km.
    const shown = await stats.innerText();
    expect(shown).toMatch(/5\d\.\d km/);
    expect(shown).toContain(en('trace.max_speed'));
    expect(shown).toContain('75.0 km/h');
    // Stopped 08:30:00-08:45:10 (the first fix heading east is still in place); of the 200 min
    // from 08:00 to 11:20, the 105 min of no data count as neither moving nor stopped.
    expect(shown).toContain('15 min 10 s');
    expect(shown).toContain('1 h 19 min');

    // The path (coloured lines and the dashed gap), one stop, start and end on the map.
    const drawn = await mapEval<{ lines: number; gaps: number; kinds: string[] }>(
      page,
      `async (map) => {
        const path = (await map.getSource('track-path').getData()).features;
        const points = (await map.getSource('track-points').getData()).features;
        return { lines: path.filter((f) => !f.properties.gap).length, gaps: path.filter((f) => f.properties.gap).length,
                 kinds: points.map((f) => f.properties.kind) };
      }`,
    );
    expect(drawn.lines).toBeGreaterThanOrEqual(2);
    expect(drawn.gaps).toBe(1);
    expect(drawn.kinds.sort()).toEqual(['end', 'start', 'stop']);
    expect(await page.getByTestId('trace-gap').count()).toBe(1);
    await waitForMapIdle(page);
    await shot(page, 'trace-en');

    // A click on the stop names its times, duration and address.
    const stopAt = await mapEval<{ x: number; y: number }>(
      page,
      `async (map) => {
        const stop = (await map.getSource('track-points').getData()).features.find((f) => f.properties.kind === 'stop');
        return map.project(stop.geometry.coordinates);
      }`,
    );
    const box = (await page.getByTestId('map-canvas').boundingBox())!;
    await page.mouse.click(box.x + stopAt.x, box.y + stopAt.y);
    const card = page.getByTestId('trace-stop-card');
    await card.waitFor();
    expect(await card.innerText()).toContain('2026-11-20 08:30:00');
    expect(await card.innerText()).toContain('2026-11-20 08:45:10');
    await expect.poll(() => card.getByTestId('trace-stop-address').count()).toBe(1);
    await card.getByRole('button', { name: en('common.close') }).click();

    // Speed: 16x to start, faster to 32x, slower twice to 8x; shown as multiples.
    const speed = page.getByTestId('trace-speed');
    expect(await speed.innerText()).toBe('16x');
    await page.getByRole('button', { name: en('trace.faster') }).click();
    expect(await speed.innerText()).toBe('32x');
    await page.getByRole('button', { name: en('trace.slower') }).click();
    await page.getByRole('button', { name: en('trace.slower') }).click();
    expect(await speed.innerText()).toBe('8x');
    for (let i = 0; i < 6; i++) await page.getByRole('button', { name: en('trace.slower') }).click();
    expect(await speed.innerText()).toBe('1/8x');
    for (let i = 0; i < 9; i++) await page.getByRole('button', { name: en('trace.faster') }).click();
    expect(await speed.innerText()).toBe('64x');

    // Start: time runs at 64x; pause holds it; continue runs on; stop goes back to the start.
    const begin = await playhead(page);
    expect(begin).toBe(at(8, 0));
    await page.getByRole('button', { name: en('trace.start_play') }).click();
    await expect.poll(() => playhead(page)).toBeGreaterThan(begin + 30_000);
    await page.getByRole('button', { name: en('trace.pause') }).click();
    const paused = await playhead(page);
    await page.waitForTimeout(400);
    expect(await playhead(page)).toBe(paused);
    await page.getByRole('button', { name: en('trace.continue') }).click();
    await expect.poll(() => playhead(page)).toBeGreaterThan(paused);
    await page.getByRole('button', { name: en('trace.stop_play') }).click();
    expect(await playhead(page)).toBe(begin);

    // A click on the timeline seeks (the middle of 08:00-11:20 is 09:40); the marker moves there.
    const lane = (await page.getByTestId('trace-lane-movement').boundingBox())!;
    await page.mouse.click(lane.x + lane.width / 2, lane.y + lane.height / 2);
    await expect.poll(async () => Math.abs((await playhead(page)) - at(9, 40)) < 60_000).toBe(true);
    // Keys: Space plays and pauses, arrows seek.
    await page.keyboard.press('Space');
    await expect.poll(() => page.getByRole('button', { name: en('trace.pause') }).count()).toBe(1);
    await page.keyboard.press('Space');
    await expect.poll(() => page.getByRole('button', { name: en('trace.continue') }).count()).toBe(1);
    const beforeKey = await playhead(page);
    await page.keyboard.press('ArrowLeft');
    expect(await playhead(page)).toBeLessThan(beforeKey);

    // The speech lane plays the 08:35 burst.
    await page.getByRole('button', { name: en('trace.play_speech', { time: '2026-11-20 08:35:00' }) }).click();
    const player = page.getByTestId('recording-player');
    const audio = player.getByLabel(en('recordings.audio_label'));
    await audio.waitFor();
    await expect
      .poll(() => audio.evaluate((element: HTMLAudioElement) => element.readyState >= 1 && element.duration > 0))
      .toBe(true);
    await shot(page, 'trace-speech-en');
    await player.getByRole('button', { name: 'Close' }).click();

    // The alarm lane shows the 09:00 SOS.
    await page.getByRole('button', { name: en('trace.show_alarm', { time: '2026-11-20 09:00:00' }) }).click();
    const alarm = page.getByTestId('trace-alarm');
    await alarm.waitFor();
    expect(await alarm.innerText()).toContain('trace.e2e SOS');
    expect(await alarm.innerText()).toContain(en('alarms.type_sos'));
  });

  test('says "no track data found" for an empty day and "trace query failed" with the reason', async () => {
    const page = await browser.newPage();
    await openTrace(page, 'en', '2026-01-01');
    const empty = page.getByTestId('trace-empty');
    await empty.waitFor();
    expect(await empty.innerText()).toBe(en('trace.no_data_found'));

    await openSignedIn(page, adminCredentials(), `/main/trace?uid=2147483000&day=${DAY}`);
    const failure = page.getByTestId('trace-error');
    await failure.waitFor();
    expect(await failure.innerText()).toBe(en('trace.query_failed', { message: en('error.not_found') }));

    // A start or an end is required, before anything is sent.
    await page.locator('[data-testid="trace-query"] .ant-picker-clear').click({ force: true });
    await page.getByRole('button', { name: en('trace.query') }).click();
    await expect.poll(() => page.getByText(en('trace.time_required')).count()).toBe(1);
  });

  test('speaks Chinese and fits a phone', async () => {
    const zh = await browser.newPage({ locale: 'zh' });
    await openTrace(zh, 'zh');
    await zh.getByTestId('trace-stats').waitFor();
    expect(await zh.getByTestId('trace-stats').innerText()).toContain(text('zh', 'trace.distance'));
    expect(await zh.getByRole('button', { name: text('zh', 'trace.start_play') }).count()).toBe(1);
    await waitForMapIdle(zh);
    await shot(zh, 'trace-zh');

    const phone = await browser.newPage({ width: 390, height: 844 });
    await openTrace(phone);
    await phone.getByTestId('trace-timeline').waitFor();
    const width = await phone.evaluate(() => document.documentElement.scrollWidth);
    expect(width).toBeLessThanOrEqual(390);
    await waitForMapIdle(phone);
    await shot(phone, 'trace-mobile-en');
  });
});
