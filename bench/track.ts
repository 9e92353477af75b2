// Track history figures (issue 11): one day of a terminal reporting every second (86,400 fixes)
// through GET /api/GISLocation/Track on SQLite and PostgreSQL: time to the whole answer, its
// size, and the GPX export. Then the page in headless Chromium (SwiftShader): Query to the track
// drawn, a seek on the timeline to the next frame, and 64x playback (frames, long tasks).
//   node scripts/build.mjs && npx tsx bench/track.ts
// TRACK_BENCH_RUNS (timed calls and Query presses after one warm-up, 10), TRACK_BENCH_PLAY_SECONDS (10),
// TRACK_BENCH_PROFILE (any value: print the page's hottest functions per phase), BENCH_PG_URL (admin URL of a PostgreSQL
// server; default postgres://postgres@127.0.0.1:5432/postgres, "" skips it). Prints one JSON object.
import os from 'node:os';
import type { Page } from 'playwright-core';
import { login } from './support/login.js';
import { startProfile } from './support/cpuProfile.js';
import { createDatabase } from './support/seedUsers.js';
import { SEED_PASSWORD, seedTerminals, terminalPhone, type SeedTarget } from './support/seedTerminals.js';
import { percentile, startServer } from './support/startServer.js';
import { dayOfFixes, insertFixes, userIdOf } from './support/trackDay.js';
import { launchBrowser } from '../e2e/support/chromium.js';

const RUNS = Number(process.env.TRACK_BENCH_RUNS ?? 10);
const PLAY_SECONDS = Number(process.env.TRACK_BENCH_PLAY_SECONDS ?? 10);
const PROFILE = Boolean(process.env.TRACK_BENCH_PROFILE);
const PG_URL = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const DAY_START = Date.UTC(2026, 10, 22, 0, 0, 0);
const log = (line: string) => process.stderr.write(`[track] ${line}\n`);
const round = (value: number) => Math.round(value * 10) / 10;

/** Seeds a terminal with a day at 1 Hz into a running server; returns a token and the user. */
export async function seedDay(
  url: string,
  target: SeedTarget,
): Promise<{ token: string; userId: number; fixes: number }> {
  await seedTerminals(target, 1, 1);
  const userId = await userIdOf(target, terminalPhone(0));
  const fixes = dayOfFixes(DAY_START);
  await insertFixes(target, { E_ID: 1, U_ID: userId }, fixes);
  return { token: await login(url, 'bench1', SEED_PASSWORD, 'DEMO'), userId, fixes: fixes.length };
}

async function timed(url: string, token: string): Promise<{ ms: number; bytes: number; body: string }> {
  const started = performance.now();
  const response = await fetch(url, { headers: { authorization: `Bearer ${token}`, 'accept-encoding': 'gzip' } });
  const body = await response.text();
  const ms = performance.now() - started;
  if (!response.ok) throw new Error(`${response.status} ${body.slice(0, 200)}`);
  return { ms, bytes: Buffer.byteLength(body), body };
}

/** Collects long tasks (over 50 ms) from the page's start; `window.longTasks` holds their durations. */
const OBSERVE_LONG_TASKS = `
  window.longTasks = [];
  // Tiles and glyphs fill the default 250 entries; the Query timing reads the Track call's entry.
  performance.setResourceTimingBufferSize(100000);
  new PerformanceObserver((list) => { for (const e of list.getEntries()) window.longTasks.push(e.duration); })
    .observe({ type: 'longtask', buffered: true });
`;

/**
 * Presses Query and resolves with the milliseconds until the map has drawn the answer (the
 * Track response has arrived and the map went idle after it: the path's tiles are drawn and the
 * stop labels have faded in), until the first frame showing the new path, and until the response
 * had arrived (the server's and the network's share).
 */
const PRESS_QUERY = `(async () => {
  const map = document.querySelector('[data-testid="map-canvas"]').maplibre;
  const button = [...document.querySelectorAll('[data-testid="trace-query"] button[type="submit"]')][0];
  const started = performance.now();
  // The first frame painted after the path's source took the new answer: the path is on screen.
  let loaded = false;
  let shown;
  const onData = (e) => { if (e.sourceId === 'track-path' && e.isSourceLoaded && fetched()) loaded = true; };
  const onRender = () => { if (loaded && shown === undefined) shown = performance.now() - started; };
  map.on('sourcedata', onData);
  map.on('render', onRender);
  button.click();
  const fetched = () => performance.getEntriesByType('resource')
    .find((e) => e.name.includes('/api/GISLocation/Track') && e.startTime >= started && e.responseEnd > 0);
  while (!fetched()) {
    if (performance.now() - started > 30000) throw new Error('no Track call after Query');
    await new Promise((r) => setTimeout(r, 5));
  }
  await new Promise((r, reject) => {
    map.once('idle', r);
    setTimeout(() => reject(new Error('the map never went idle')), 30000);
  });
  map.off('sourcedata', onData);
  map.off('render', onRender);
  return { drawn: performance.now() - started, shown, fetched: fetched().responseEnd - started };
})()`;

/** Clicks the timeline at `fraction` and resolves with the milliseconds until the frame after it is painted. */
const SEEK = (fraction: number) => `(async () => {
  const map = document.querySelector('[data-testid="map-canvas"]').maplibre;
  const lane = document.querySelector('[data-testid="trace-lane-movement"]').getBoundingClientRect();
  const timeline = document.querySelector('[data-testid="trace-timeline"]');
  const started = performance.now();
  const at = { bubbles: true, clientX: lane.left + lane.width * ${fraction}, clientY: lane.top + 4, pointerId: 1 };
  timeline.dispatchEvent(new PointerEvent('pointerdown', at));
  timeline.dispatchEvent(new PointerEvent('pointerup', at));
  // The marker and the playhead update in this frame (the map's camera too, when following).
  await new Promise((r) => requestAnimationFrame(r));
  await new Promise((r) => requestAnimationFrame(r));
  if (!map.isMoving()) await new Promise((r) => (map.loaded() ? r() : map.once('idle', r)));
  return performance.now() - started;
})()`;

/** Plays at 64x for `seconds`: frames per second and long tasks meanwhile. */
const PLAY = (seconds: number) => `(async () => {
  const before = window.longTasks.length;
  let frames = 0;
  let worst = 0;
  let last = performance.now();
  const end = last + ${seconds} * 1000;
  document.querySelector('[data-testid="trace-playback"] button').click();
  while (performance.now() < end) {
    await new Promise((r) => requestAnimationFrame(r));
    const now = performance.now();
    worst = Math.max(worst, now - last);
    last = now;
    frames += 1;
  }
  document.querySelector('[data-testid="trace-playback"] button').click();
  const tasks = window.longTasks.slice(before);
  return { fps: frames / ${seconds}, worstFrameMs: worst, longTasks: tasks.length, longestTaskMs: Math.max(0, ...tasks) };
})()`;

async function browserFigures(url: string, token: string, userId: number) {
  const browser = await launchBrowser({ webgl: true });
  try {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, timezoneId: 'UTC' });
    await context.addCookies([{ name: 'function_access_token', value: token, url, sameSite: 'Strict' }]);
    const page: Page = await context.newPage();
    await page.addInitScript({ content: OBSERVE_LONG_TASKS });
    await page.goto(`${url}/main/trace?uid=${userId}&day=2026-11-22`);
    await page.getByTestId('trace-stats').waitFor({ timeout: 60_000 });
    await page.locator('[data-testid="map-canvas"][data-loaded="true"]').waitFor();
    log('page open, the track drawn');
    const cdp = await context.newCDPSession(page);
    const profiled = async <T>(what: string, run: () => Promise<T>): Promise<T> => {
      const stop = PROFILE ? await startProfile(cdp) : undefined;
      const result = await run();
      if (stop) log(`${what}, most self time (ms):\n  ${(await stop()).join('\n  ')}`);
      return result;
    };
    const query: number[] = [];
    const fetched: number[] = [];
    const shown: number[] = [];
    await profiled('Query', async () => {
      for (let i = 0; i < RUNS; i++) {
        const press = await page.evaluate<{ drawn: number; shown?: number; fetched: number }>(PRESS_QUERY);
        query.push(press.drawn);
        shown.push(press.shown ?? press.drawn);
        fetched.push(press.fetched);
      }
    });
    log(`Query pressed ${RUNS} times`);
    const seek: number[] = [];
    await profiled('seek', async () => {
      for (let i = 0; i < RUNS; i++) seek.push(await page.evaluate<number>(SEEK((i + 0.5) / RUNS)));
    });
    // 16x is where the replay starts: two steps up to 64x.
    for (let i = 0; i < 2; i++)
      await page
        .getByRole('button')
        .filter({ has: page.locator('.anticon-forward') })
        .click();
    if ((await page.getByTestId('trace-speed').innerText()) !== '64x') throw new Error('not at 64x');
    const play = await profiled('64x', () => page.evaluate<Record<string, number>>(PLAY(PLAY_SECONDS)));
    query.sort((a, b) => a - b);
    fetched.sort((a, b) => a - b);
    shown.sort((a, b) => a - b);
    seek.sort((a, b) => a - b);
    return {
      query_to_drawn_p50_ms: round(percentile(query, 50)),
      query_to_drawn_max_ms: round(query.at(-1) ?? Number.NaN),
      query_to_path_shown_p50_ms: round(percentile(shown, 50)),
      query_to_path_shown_max_ms: round(shown.at(-1) ?? Number.NaN),
      query_to_fetched_p50_ms: round(percentile(fetched, 50)),
      seek_to_frame_p50_ms: round(percentile(seek, 50)),
      seek_to_frame_max_ms: round(seek.at(-1) ?? Number.NaN),
      play_64x_fps: round(play.fps ?? 0),
      play_64x_worst_frame_ms: round(play.worstFrameMs ?? 0),
      play_64x_long_tasks: play.longTasks,
      play_64x_longest_task_ms: round(play.longestTaskMs ?? 0),
    };
  } finally {
    await browser.close();
  }
}

async function measure(label: string, databaseUrl?: string) {
  const database = databaseUrl ? await createDatabase(databaseUrl) : undefined;
  const server = await startServer(database ? { DATABASE_URL: database.url } : {});
  const target: SeedTarget = database ? { databaseUrl: database.url } : { dataDir: server.dataDir };
  try {
    const { token, userId, fixes } = await seedDay(server.url, target);
    const range = `U_ID=${userId}&H_Time1=${DAY_START}&H_Time2=${DAY_START + 86_400_000 - 1}`;
    const trackUrl = `${server.url}/api/GISLocation/Track?${range}`;
    const first = await timed(trackUrl, token);
    const track = JSON.parse(first.body).BaseData as { t: number[]; stops: unknown[]; distance: number };
    const times: number[] = [];
    for (let i = 0; i < RUNS; i++) times.push((await timed(trackUrl, token)).ms);
    times.sort((a, b) => a - b);
    const gpx = await timed(`${server.url}/api/GISLocation/ExportTrack?${range}&format=gpx&utcOffset=480`, token);
    const result = {
      fixes,
      points_after_merge: track.t.length,
      stops: track.stops.length,
      distance_km: round(track.distance / 1000),
      first_call_ms: round(first.ms),
      p50_ms: round(percentile(times, 50)),
      max_ms: round(times.at(-1) ?? Number.NaN),
      json_mib: round(first.bytes / 1048576),
      gpx_ms: round(gpx.ms),
      gpx_mib: round(gpx.bytes / 1048576),
    };
    log(`${label}: ${JSON.stringify(result)}`);
    if (databaseUrl) return result;
    // The page once, on SQLite: the browser's share does not depend on the database.
    const browser = await browserFigures(server.url, token, userId);
    log(`${label}, browser: ${JSON.stringify(browser)}`);
    return { ...result, browser };
  } finally {
    await server.stop();
    await database?.drop();
  }
}

const loadBefore = os.loadavg()[0];
const sqlite = await measure('SQLite');
const postgres = PG_URL ? await measure('PostgreSQL', PG_URL) : undefined;
process.stdout.write(
  `${JSON.stringify({ load_average: [round(loadBefore ?? 0), round(os.loadavg()[0] ?? 0)], sqlite, postgres }, null, 2)}\n`,
);
