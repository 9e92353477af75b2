// Live map figures (issue 10) in headless Chromium on SwiftShader: `users` terminal users in one
// enterprise, each moving once a second through the real server and hub, drawn by the console.
//   node scripts/build.mjs && npx tsx bench/map.ts
// MAP_BENCH_USERS (comma list, default "5000,50000"), MAP_BENCH_SECONDS (measuring phases, 10),
// MAP_BENCH_SOAK_SECONDS (memory soak of the largest size, 600 as the issue asks; 0 skips it),
// MAP_BENCH_FEED: `bus` (default) publishes the moves as `users` batches on the server's Redis event
// bus, as another instance would (bench/support/busLoad.ts; REDIS_URL, default redis://127.0.0.1:6379,
// with a prefix of its own); `terminal` logs every user in over /terminal (bench/support/terminalLoad.ts;
// a 2-core machine cannot feed 50,000 that way). MAP_BENCH_PROFILE=1 names the page's hottest
// functions, MAP_BENCH_SERVER_PROFILE=1 the server's, MAP_BENCH_SCREENSHOT=DIR saves the map at each view,
// MAP_BENCH_PROFILE_OPENING=1 lists the long tasks and hottest functions of opening the page (a slower opening),
// MAP_BENCH_PROFILE_WORKER=1 names the hottest functions of the page's workers while the latency is measured
// (=opening: from each worker's start until the snapshot is drawn),
// MAP_BENCH_TRACE_UPDATES=1 lists the long tasks of that time with the work inside each (a slower page).
// MAP_BENCH_PLAIN_OPENING=N (3) opens the map N times in a fresh Chromium without Playwright: on the
// empty map before the load, with every user, and on the empty map of another enterprise under the
// load (`emptyMapUnderLoadFirstFrameMs`: what the load's share of the machine costs an opening); and
// MAP_BENCH_RETURNING_OPENING=N (0) N times in a Chromium started again on a profile that opened it before.
// MAP_BENCH_HUB_PROTOCOL=json makes the console's hub speak JSON (negotiate offers it no Binary transport);
// by default it speaks MessagePack, and `wireBytesPerChangedFix` says which one was measured.
// The console's hub socket lives in its hub worker: the bench watches it through Playwright's
// WebSocket events (support/hubSocketWatch.ts). Prints one JSON object: each figure with its goal
// and whether it was met. Its parts live in support/: mapLoad.ts (the load), mapMeasures.ts (frame rate,
// main thread, heap), mapLatency.ts (fix to frame) and mapFigures.ts (the figures and their goals).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ChildProcess } from 'node:child_process';
import type { Browser, CDPSession } from 'playwright-core';
import { startWorkerProfiles, topFunctions, type CpuProfile } from './support/cpuProfile.js';
import { login } from './support/login.js';
import { SEED_PASSWORD, seedEmptyEnterprise, seedTerminals } from './support/seedTerminals.js';
import { BENCH_PASSWORD, startServer } from './support/startServer.js';
import { launchBrowser } from '../e2e/support/chromium.js';
import { offerTextOnly, watchHubSocket } from './support/hubSocketWatch.js';
import { latency } from './support/mapLatency.js';
import { startLoad, waitOnline } from './support/mapLoad.js';
import { fps, mainThread, setUsersVisible, soakHeap, type MapMemory } from './support/mapMeasures.js';
import { mapFigures, percentile, round } from './support/mapFigures.js';
import { INSTRUMENT_HUB, type ProbeWindow } from './support/mapProbe.js';
import { plainOpening } from './support/plainOpening.js';
import { startOpeningTrace } from './support/openingTrace.js';
import { histogramBetween, scrapeMetrics } from './support/serverMetrics.js';
import { cpuSeconds } from './support/terminalPeer.js';

const USERS = (process.env.MAP_BENCH_USERS ?? '5000,50000').split(',').map(Number);
const SECONDS = Number(process.env.MAP_BENCH_SECONDS ?? 10);
const SOAK_SECONDS = Number(process.env.MAP_BENCH_SOAK_SECONDS ?? 600);
const FEED = process.env.MAP_BENCH_FEED === 'terminal' ? 'terminal' : 'bus';
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const FEED_PATHS = {
  bus: 'load process -> Redis event bus (`users` batches, as another server instance) -> server LiveState -> hub /FuncService (JSON, WebSocket) -> console',
  terminal:
    'load process -> /terminal (one WebSocket per user) -> server gateway -> LiveState -> hub /FuncService (JSON, WebSocket) -> console',
};
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const log = (line: string) => process.stderr.write(`[map] ${line}\n`);

const PLAIN_OPENINGS = Number(process.env.MAP_BENCH_PLAIN_OPENING ?? 3);

/**
 * PLAIN_OPENINGS openings of the live map, without Playwright, to its first render, by an account
 * (name, password, company code) whose map has no user: what opening the page costs apart from users.
 */
async function emptyMapOpenings(url: string, account: [string, string, string], label: string) {
  const openings: Record<string, unknown>[] = [];
  for (let i = 0; i < PLAIN_OPENINGS; i++) {
    const token = await login(url, ...account);
    const probe = `window.__name = (f) => f;\n${INSTRUMENT_HUB}\nwindow.mapProbe.expected = 0;`;
    const marks = await plainOpening({ url: `${url}/main/map`, token, probe, until: 'firstRender' });
    openings.push(marks);
    log(`${label} opening without Playwright, steps ${JSON.stringify(marks)}`);
  }
  return openings;
}

async function run(users: number, soak: boolean) {
  const prefix = `mapbench-${process.pid}-${users}`;
  // MAP_BENCH_SERVER_PROFILE: the server's CPU profile, its hottest functions named (…_KEEP=1 keeps the file).
  const profileDir = process.env.MAP_BENCH_SERVER_PROFILE ? fs.mkdtempSync(path.join(os.tmpdir(), 'map-prof-')) : null;
  const server = await startServer(
    { LOG_LEVEL: 'error', ...(FEED === 'bus' ? { REDIS_URL, REDIS_PREFIX: prefix } : {}) },
    profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [],
  );
  let load: ChildProcess | undefined;
  let browser: Browser | undefined;
  const busRate: number[] = [];
  try {
    browser = await launchBrowser({ webgl: true });
    log(`${users} users: seeding; feed ${FEED}`);
    await seedTerminals({ dataDir: server.dataDir }, users, 1);
    // Issue 52, goal 6: the same opening on the empty map (no user online yet), in this run, so the
    // software GPU's own cost is told apart from ours: the first frame with every user is judged
    // against the empty map's first frame.
    const emptyOpenings = await emptyMapOpenings(
      server.url,
      ['admin', BENCH_PASSWORD, 'DEMO'],
      `${users} users: empty map`,
    );
    load = await startLoad(server, users, prefix, { feed: FEED, redisUrl: REDIS_URL, busRate });
    const token = await login(server.url, 'admin', BENCH_PASSWORD, 'DEMO');
    const online = await waitOnline(server.url, token, users);
    log(`${users} users: ${online} users online and moving`);
    await sleep(5000);
    const probe = `window.__name = (f) => f;\n${INSTRUMENT_HUB}\nwindow.mapProbe.expected = ${Math.floor(online * 0.99)};`;
    // MAP_BENCH_PLAIN_OPENING=N: N openings first, in a Chromium without Playwright (plainOpening.ts says why).
    const plainOpenings: Record<string, unknown>[] = [];
    for (let i = 0; i < PLAIN_OPENINGS; i++) {
      const marks = await plainOpening({ url: `${server.url}/main/map`, token, probe });
      plainOpenings.push(marks);
      log(`${users} users: opening without Playwright, steps (ms since navigation start) ${JSON.stringify(marks)}`);
    }
    // The empty map again, now under the same load: an enterprise with no users while the others'
    // 50,000 move. What the first frame with every user costs beyond this is the drawing of the
    // users; the rest of the gap to the empty map before the load is the load sharing the machine.
    if (PLAIN_OPENINGS > 0) await seedEmptyEnterprise({ dataDir: server.dataDir }, 'EMPTY', 'emptyadmin');
    const emptyUnderLoad = await emptyMapOpenings(
      server.url,
      ['emptyadmin', SEED_PASSWORD, 'EMPTY'],
      `${users} users: empty map under the load`,
    );
    // MAP_BENCH_RETURNING_OPENING=N: a dispatcher's own browser, which has opened the console before and
    // keeps its profile (HTTP cache, GPU shader cache): one opening fills a profile, then N openings
    // each start Chromium again on it.
    const returningOpenings: Record<string, unknown>[] = [];
    const returningCount = Number(process.env.MAP_BENCH_RETURNING_OPENING ?? 0);
    if (returningCount > 0) {
      const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'map-returning-'));
      try {
        const first = await plainOpening({ url: `${server.url}/main/map`, token, probe, profile });
        log(`${users} users: first opening of the returning profile ${JSON.stringify(first)}`);
        for (let i = 0; i < returningCount; i++) {
          const marks = await plainOpening({ url: `${server.url}/main/map`, token, probe, profile });
          returningOpenings.push(marks);
          log(`${users} users: returning opening, steps (ms since navigation start) ${JSON.stringify(marks)}`);
        }
      } finally {
        fs.rmSync(profile, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
      }
    }
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    await context.addCookies([{ name: 'function_access_token', value: token, url: server.url, sameSite: 'Strict' }]);
    const page = await context.newPage();
    // MAP_BENCH_HUB_PROTOCOL=json: negotiate offers no Binary transport, so the console's MessagePack
    // client falls back to JSON (the figures of the JSON protocol, in the same run conditions).
    if (process.env.MAP_BENCH_HUB_PROTOCOL === 'json') await offerTextOnly(page);
    const hub = watchHubSocket(page);
    // tsx names the functions inside page.evaluate through a `__name` helper the page lacks.
    await page.addInitScript({ content: probe });
    const renderer = await page.evaluate(() => {
      const gl = document.createElement('canvas').getContext('webgl2');
      const info = gl?.getExtension('WEBGL_debug_renderer_info');
      return gl && info ? String(gl.getParameter(info.UNMASKED_RENDERER_WEBGL)) : 'none';
    });
    if (!renderer.includes('SwiftShader')) throw new Error(`WebGL renderer is ${renderer}, not SwiftShader`);

    // MAP_BENCH_PROFILE_OPENING: trace and profile the opening until the snapshot is drawn (it slows the page).
    const opening = process.env.MAP_BENCH_PROFILE_OPENING
      ? await startOpeningTrace(browser, page, await context.newCDPSession(page))
      : undefined;
    // MAP_BENCH_PROFILE_WORKER=opening: the workers' hottest functions from their start until the snapshot is drawn.
    const openingWorkers =
      process.env.MAP_BENCH_PROFILE_WORKER === 'opening'
        ? await startWorkerProfiles(await context.newCDPSession(page), true)
        : undefined;
    const opened = Date.now();
    // A server busy with 50,000 terminals on a shared machine can take minutes to serve the page.
    await page.goto(`${server.url}/main/map`, { timeout: 300_000 });
    await page.locator('[data-testid="map-canvas"][data-loaded="true"]').waitFor({ timeout: 300_000 });
    // Drawn: the users source holds the snapshot (every user online, or what it holds once it
    // stopped growing for 10 s: the console loads a snapshot in parts).
    let drawnUsers = 0;
    let snapshotDrawnMs = 0;
    const deadline = Date.now() + 300_000;
    const expected = Math.floor(online * 0.99);
    for (let grewAt = Date.now(); drawnUsers < expected && (drawnUsers === 0 || Date.now() - grewAt < 10_000);) {
      if (Date.now() > deadline) throw new Error(`the map showed ${drawnUsers} users after 300 s`);
      // What the users' tiles hold after the last batch (MapUsers' probe on the map's container).
      const count = await page.evaluate(
        () => (window as unknown as ProbeWindow).mapOf()?.getContainer().mapUsers?.held() ?? 0,
      );
      if (count > drawnUsers) {
        drawnUsers = count;
        snapshotDrawnMs = Date.now() - opened;
        grewAt = Date.now();
      }
      await sleep(100);
    }
    const { snapshotBytes } = hub;
    // The hub socket's steps, from the bench's clock to the page's (ms since navigation start).
    const timeOrigin = await page.evaluate(() => performance.timeOrigin);
    const hubMarks = Object.fromEntries(
      Object.entries(hub.marks).map(([name, at]) => [name, Math.round(at - timeOrigin)]),
    );
    log(`${users} users: snapshot of ${drawnUsers} users, ${snapshotBytes} bytes, drawn in ${snapshotDrawnMs} ms`);
    const snapshotSteps = await page.evaluate(() => {
      const [navigation] = performance.getEntriesByType('navigation') as PerformanceNavigationTiming[];
      // The first glyph range and basemap tile: the users' cluster counts need the glyphs too.
      const resources = performance.getEntriesByType('resource') as PerformanceResourceTiming[];
      const first = (part: string, not = '\u0000') =>
        resources.find((entry) => entry.name.includes(part) && !entry.name.includes(not));
      // queued-sent-first byte-end: a request waiting in the browser (6 connections a host) or at the server.
      const span = (entry: PerformanceResourceTiming | undefined) =>
        entry
          ? [entry.startTime, entry.requestStart, entry.responseStart, entry.responseEnd].map(Math.round).join('-')
          : 'none';
      return {
        domContentLoaded: Math.round(navigation?.domContentLoadedEventEnd ?? 0),
        ...(window as unknown as ProbeWindow).mapProbe.marks,
        glyphs: span(first('/basemap/fonts/')),
        basemapTile: span(first('/basemap/', '/fonts/')),
        mapChunk: span(first('/assets/LiveMapPage')),
        loginInfo: span(first('/api/Account/LoginInfo')),
        basemap: span(first('/api/Map/Basemap')),
        sysConfig: span(first('/api/Account/SysConfig')),
      };
    });
    Object.assign(snapshotSteps, hubMarks);
    log(`${users} users: steps (ms since navigation start) ${JSON.stringify(snapshotSteps)}`);
    if (opening || openingWorkers) {
      // Until the first frame with every user (the figure), at most 10 s more.
      for (let waited = 0; waited < 10_000; waited += 100) {
        const marks = await page.evaluate(() => (window as unknown as ProbeWindow).mapProbe.marks);
        if (marks.allUsersFirstFrame !== undefined) break;
        await sleep(100);
      }
      const marks = await page.evaluate(() => (window as unknown as ProbeWindow).mapProbe.marks);
      log(`${users} users: opening, every step (ms since navigation start) ${JSON.stringify(marks)}`);
      if (openingWorkers) {
        log(`${users} users: opening, workers' hottest functions ${JSON.stringify(await openingWorkers(), null, 1)}`);
      }
    }
    if (opening) {
      const { longTasks, busyPer250Ms, gpu, hot } = await opening.stop();
      log(`${users} users: opening, main thread busy ms per 250 ms since navigation: ${busyPer250Ms}`);
      log(`${users} users: opening, GPU process busy ms per 250 ms (of it ms presenting x frames): ${gpu}`);
      log(
        `${users} users: opening, long tasks (start +duration: largest work inside, ms):\n  ${longTasks.join('\n  ')}`,
      );
      log(`${users} users: opening, hottest functions (ms self time) ${JSON.stringify(hot)}`);
    }

    const views: Record<string, unknown> = {};
    for (const [name, camera] of [
      ['default', null],
      ['street', { center: [114.05, 22.55] as [number, number], zoom: 16 }],
    ] as const) {
      if (camera) await page.evaluate((c) => (window as unknown as ProbeWindow).mapOf().jumpTo(c), camera);
      await sleep(1000);
      const withUsers = await fps(page, SECONDS);
      // MAP_BENCH_SCREENSHOT=DIR: map-<users>-<view>.png after the frames with the users, before they are hidden.
      if (process.env.MAP_BENCH_SCREENSHOT) {
        await page.screenshot({ path: path.join(process.env.MAP_BENCH_SCREENSHOT, `map-${users}-${name}.png`) });
      }
      await setUsersVisible(page, false);
      await sleep(500);
      const empty = await fps(page, SECONDS);
      await setUsersVisible(page, true);
      views[name] = { fpsWithUsers: round(withUsers), fpsEmpty: round(empty), ratio: round(withUsers / empty, 2) };
      log(`${users} users, ${name} view: ${JSON.stringify(views[name])}`);
    }
    const thread = await mainThread(page, SECONDS);
    log(`${users} users: main thread ${JSON.stringify(thread)}`);
    // MAP_BENCH_PROFILE_WORKER=1: the page's workers' hottest functions (MapLibre's, the users' tile worker) while the latency is measured.
    const stopWorkers =
      process.env.MAP_BENCH_PROFILE_WORKER === '1'
        ? await startWorkerProfiles(await page.context().newCDPSession(page))
        : undefined;
    // MAP_BENCH_TRACE_UPDATES=1: the long tasks while the latency is measured, each with its work.
    const updatesTrace = process.env.MAP_BENCH_TRACE_UPDATES
      ? await startOpeningTrace(browser, page, await context.newCDPSession(page))
      : undefined;
    // The server's own share of fix to frame (issue 34): how old each push's oldest change was when it
    // went to a console, the server's event-loop delay, and its CPU over the same seconds.
    const metricsBefore = await scrapeMetrics(server.url);
    const serverCpuBefore = cpuSeconds(server.process.pid ?? 0);
    const latencyStarted = performance.now();
    // The page's renderer process (its main thread and workers; not the GPU process) by the browser's own counters.
    const processes = await browser.newBrowserCDPSession();
    const rendererCpuBefore = await rendererCpuSeconds(processes);
    const latencyMs = await latency(page, hub, SECONDS);
    const rendererCpuMs = (await rendererCpuSeconds(processes)) * 1000 - rendererCpuBefore * 1000;
    await processes.detach();
    const metricsAfter = await scrapeMetrics(server.url);
    const lag = (p: number) =>
      Math.round((metricsAfter.get(`intercom_nodejs_eventloop_lag_p${p}_seconds`) ?? NaN) * 1000);
    const serverShare = {
      pushAgeSeconds: histogramBetween(metricsBefore, metricsAfter, 'intercom_live_push_age_seconds', [50, 95]),
      eventLoopDelayMs: { p50: lag(50), p99: lag(99) },
      cpuSecondsPerSecond: round(
        (cpuSeconds(server.process.pid ?? 0) - serverCpuBefore) / ((performance.now() - latencyStarted) / 1000),
        2,
      ),
    };
    if (updatesTrace) {
      const { longTasks, hot } = await updatesTrace.stop();
      log(
        `${users} users: long tasks while updating (start +duration: largest work inside, ms):\n  ${longTasks.join('\n  ')}`,
      );
      log(`${users} users: hottest functions while updating ${JSON.stringify(hot)}`);
    }
    if (stopWorkers) log(`${users} users: workers' hottest functions ${JSON.stringify(await stopWorkers(), null, 1)}`);
    log(`${users} users: fix to frame ${JSON.stringify(latencyMs)}`);
    log(`${users} users: renderer CPU ${Math.round(rendererCpuMs)} ms for ${latencyMs.changes} changes`);
    log(`${users} users: the server's share of it ${JSON.stringify(serverShare)}`);
    let memory: MapMemory | undefined;
    if (soak && SOAK_SECONDS > 0) memory = await soakHeap(page, SOAK_SECONDS, (line) => log(`${users} users: ${line}`));
    const { allTasks, taskStarts, marks } = await page.evaluate(() => {
      const probe = (window as unknown as ProbeWindow).mapProbe;
      return { allTasks: probe.loadTasks, taskStarts: probe.loadTaskStarts, marks: probe.marks };
    });
    const hubSocketCloses = hub.closes.map((at) => Math.round(at - timeOrigin));
    if (hubSocketCloses.length > 0) log(`${users} users: hub socket closed ${JSON.stringify(hubSocketCloses)}`);
    const firstFrameMs = marks.allUsersFirstFrame ?? null;
    // Opening: the tasks that began before the first frame with every user (all of them when it never
    // came). The observer runs on through the frame-rate phases, whose tasks are reported apart.
    const opensUntil = firstFrameMs ?? Infinity;
    const openingTasks = allTasks.flatMap((ms, i) => (taskStarts[i]! < opensUntil ? [`${taskStarts[i]}+${ms}`] : []));
    const loadTasks = allTasks.filter((_, i) => taskStarts[i]! < opensUntil);
    const laterTasks = allTasks.filter((_, i) => taskStarts[i]! >= opensUntil);
    const figures = mapFigures({
      users,
      seconds: SECONDS,
      online,
      drawnUsers,
      views,
      thread,
      loadTasks,
      latencyMs,
      snapshotBytes,
      firstFrameMs,
      plainOpenings,
      emptyOpenings,
      emptyUnderLoad,
      returningOpenings,
      memory,
      rendererCpuMs,
    });
    return {
      users,
      feed: FEED,
      feedPath: FEED_PATHS[FEED],
      busPublishedPerSecond: FEED === 'bus' ? percentile(busRate, 50) : undefined,
      online,
      drawnUsers,
      figures,
      renderer,
      snapshotBytes,
      snapshotDrawnMs,
      snapshotSteps,
      ...(plainOpenings.length > 0
        ? {
            openingWithoutPlaywrightMs: plainOpenings.map((marks) => marks.allUsersFirstFrame ?? null),
          }
        : {}),
      ...(returningOpenings.length > 0
        ? {
            openingReturningMs: returningOpenings.map((marks) => marks.allUsersFirstFrame ?? null),
            longTasksOpeningReturning: returningOpenings.map((marks) => marks.longTasks),
          }
        : {}),
      /** start+duration, ms since navigation start. */
      longTasksOpeningPage: openingTasks,
      longTasksAfterOpening: { count: laterTasks.length, longestMs: Math.max(0, ...laterTasks) },
      hubSocketCloses,
      views,
      mainThread: thread,
      latencyMs,
      memory,
    };
  } finally {
    load?.kill('SIGTERM');
    await browser?.close();
    await server.stop();
    if (profileDir) {
      for (const file of fs.readdirSync(profileDir)) {
        const serverHot = topFunctions(
          JSON.parse(fs.readFileSync(path.join(profileDir, file), 'utf8')) as CpuProfile,
          20,
        );
        log(`${users} users: server's hottest functions (ms self time) ${JSON.stringify(serverHot)}`);
      }
      // MAP_BENCH_SERVER_PROFILE_KEEP=1: the profile stays for a closer look (its path is logged).
      if (process.env.MAP_BENCH_SERVER_PROFILE_KEEP) log(`${users} users: the server's profile kept in ${profileDir}`);
      else fs.rmSync(profileDir, { recursive: true, force: true });
    }
  }
}

/** CPU seconds of the browser's renderer processes so far (CDP SystemInfo.getProcessInfo). */
async function rendererCpuSeconds(session: CDPSession): Promise<number> {
  const { processInfo } = await session.send('SystemInfo.getProcessInfo');
  return processInfo.filter((info) => info.type === 'renderer').reduce((sum, info) => sum + info.cpuTime, 0);
}

const results = [];
for (const users of USERS) results.push(await run(users, users === Math.max(...USERS)));
process.stdout.write(
  `${JSON.stringify({ cpus: os.cpus().length, loadAverage: os.loadavg().map((l) => round(l, 2)), results }, null, 2)}\n`,
);
