// Live map figures (issue 10) in headless Chromium on SwiftShader: `users` terminals in one
// enterprise, each moving once a second over /terminal through the real hub, drawn by the console.
//   node scripts/build.mjs && npx tsx bench/map.ts
// MAP_BENCH_USERS (comma list, default "5000,50000"), MAP_BENCH_SECONDS (measuring phases, 10),
// MAP_BENCH_SOAK_SECONDS (memory soak, 120; the issue asks for 600). Prints one JSON object.
import type { ChildProcess } from 'node:child_process';
import type { Page } from 'playwright-core';
import { helper } from './support/helperProcess.js';
import { topFunctions } from './support/cpuProfile.js';
import { login } from './support/login.js';
import { seedTerminals } from './support/seedTerminals.js';
import { BENCH_PASSWORD, startServer } from './support/startServer.js';
import { launchBrowser } from '../e2e/support/chromium.js';

const USERS = (process.env.MAP_BENCH_USERS ?? '5000,50000').split(',').map(Number);
const SECONDS = Number(process.env.MAP_BENCH_SECONDS ?? 10);
const SOAK_SECONDS = Number(process.env.MAP_BENCH_SOAK_SECONDS ?? 120);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const log = (line: string) => process.stderr.write(`[map] ${line}\n`);
const round = (value: number, digits = 1) => Math.round(value * 10 ** digits) / 10 ** digits;

function percentile(values: number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

/**
 * Installed before the console loads: records the bytes of the hub frame carrying the GPSArray
 * snapshot, and for every GPS delta the newest fix time it carried and when it arrived. A string,
 * so the bench's own transpiler adds no helpers the page lacks.
 */
const INSTRUMENT_HUB = `
  const probe = { snapshotBytes: 0, snapshotAt: 0, timing: false, arrivals: [], marks: {} };
  window.mapProbe = probe;
  window.mapOf = () => document.querySelector('[data-testid="map-canvas"]')?.maplibre;
  // Where the time to the snapshot drawn goes: ms since navigation start of each step, first time only.
  const mark = (name) => { probe.marks[name] ??= Math.round(performance.now()); };
  const watchMap = setInterval(() => {
    const map = window.mapOf();
    if (!map) return;
    clearInterval(watchMap);
    mark('mapCreated');
    map.once('style.load', () => mark('styleLoaded'));
    map.once('load', () => mark('mapLoaded'));
    let loadedUsers = false;
    map.on('dataloading', (event) => {
      if (event.sourceId === 'users') mark('usersSetData');
    });
    map.on('data', (event) => {
      if (event.sourceId !== 'users' || event.dataType !== 'source' || !event.isSourceLoaded) return;
      const data = map.getSource('users')?._data;
      const count = data?.geojson?.features?.length ?? data?.updateable?.size ?? 0;
      if (count > 0 && !loadedUsers) {
        loadedUsers = true;
        mark('usersSourceLoaded');
        probe.marks.usersInFirstLoad = count;
        map.once('render', () => mark('usersFirstFrame'));
      }
    });
  }, 10);
  const Native = window.WebSocket;
  window.WebSocket = class extends Native {
    constructor(url, protocols) {
      super(url, protocols);
      mark('hubSocketOpened');
      this.addEventListener('message', (event) => {
        if (typeof event.data !== 'string') return;
        const text = event.data;
        if (text.includes('"GPSArray"')) {
          probe.snapshotBytes += new TextEncoder().encode(text).length;
          probe.snapshotAt = performance.now();
          mark('snapshotFrameArrived');
        } else if (probe.timing && text.includes('"type":"GPS"')) {
          // Scanning a frame costs main-thread time: only while the latency is measured.
          let newest = 0;
          let records = 0;
          for (const match of text.matchAll(/"time":(\\d+)/g)) {
            newest = Math.max(newest, Number(match[1]));
            records++;
          }
          probe.arrivals.push({ at: Date.now(), fix: newest, records });
        }
      });
    }
  };
`;

interface MapLike {
  getSource(id: string): { getData(): Promise<{ features: unknown[] }> } | undefined;
  on(
    event: string,
    listener: (event: { sourceId?: string; isSourceLoaded?: boolean; dataType?: string }) => void,
  ): void;
  setLayoutProperty(layer: string, name: string, value: string): void;
  jumpTo(options: { center?: [number, number]; zoom?: number; bearing?: number }): void;
  getBearing(): number;
  triggerRepaint(): void;
}
type ProbeWindow = Window & {
  mapProbe: {
    snapshotBytes: number;
    snapshotAt: number;
    timing: boolean;
    arrivals: { at: number; fix: number; records: number }[];
    marks: Record<string, number>;
  };
  mapOf: () => MapLike;
};

/** Frames drawn per second while the camera turns a little every frame (MapLibre draws only on change). */
async function fps(page: Page, seconds: number): Promise<number> {
  return page.evaluate(async (ms) => {
    const map = (window as unknown as ProbeWindow).mapOf();
    let frames = 0;
    let running = true;
    map.on('render', () => {
      if (running) frames++;
    });
    const turn = () => {
      if (!running) return;
      map.jumpTo({ bearing: (map.getBearing() + 0.2) % 360 });
      requestAnimationFrame(turn);
    };
    requestAnimationFrame(turn);
    await new Promise((r) => setTimeout(r, ms));
    running = false;
    map.jumpTo({ bearing: 0 });
    return frames / (ms / 1000);
  }, seconds * 1000);
}

const USER_LAYERS = ['users-clusters', 'users-cluster-count', 'users-points', 'users-labels'];

async function setUsersVisible(page: Page, visible: boolean): Promise<void> {
  await page.evaluate(
    ({ layers, value }) => {
      const map = (window as unknown as ProbeWindow).mapOf();
      for (const layer of layers) map.setLayoutProperty(layer, 'visibility', value);
    },
    { layers: USER_LAYERS, value: visible ? 'visible' : 'none' },
  );
}

/**
 * Main-thread time per second of updates while they flow: busy wall time (CDP TaskDuration, which
 * grows when other processes take the CPU) and the main thread's own CPU time (ThreadTime), and the
 * longest task. With MAP_BENCH_PROFILE, also the functions that took the most CPU.
 */
async function mainThread(page: Page, seconds: number) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Performance.enable');
  const metrics = async () => {
    const all = (await cdp.send('Performance.getMetrics')).metrics;
    const value = (name: string) => (all.find((m) => m.name === name)?.value ?? 0) * 1000;
    return { task: value('TaskDuration'), cpu: value('ThreadTime') };
  };
  await page.evaluate(() => {
    const longest = { value: 0, count: 0 };
    Object.assign(window, { longTasks: longest });
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) {
        longest.value = Math.max(longest.value, entry.duration);
        longest.count++;
      }
    }).observe({ type: 'longtask', buffered: false });
  });
  const profiling = Boolean(process.env.MAP_BENCH_PROFILE);
  if (profiling) {
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.start');
  }
  const before = await metrics();
  await sleep(seconds * 1000);
  const after = await metrics();
  const hot = profiling ? topFunctions((await cdp.send('Profiler.stop')).profile) : undefined;
  const long = await page.evaluate(
    () => (window as unknown as { longTasks: { value: number; count: number } }).longTasks,
  );
  return {
    msPerSecond: round((after.task - before.task) / seconds),
    cpuMsPerSecond: round((after.cpu - before.cpu) / seconds),
    longestTaskMs: round(long.value),
    longTasks: long.count,
    hot,
  };
}

/** Fix time to the first frame drawn after the users source took the delta that carried it. */
async function latency(page: Page, seconds: number) {
  return page.evaluate(async (ms) => {
    const map = (window as unknown as ProbeWindow).mapOf();
    const probe = (window as unknown as ProbeWindow).mapProbe;
    const start = Date.now();
    probe.arrivals = [];
    probe.timing = true;
    const loads: number[] = [];
    const renders: number[] = [];
    map.on('data', (event) => {
      if (event.sourceId === 'users' && event.dataType === 'source') loads.push(Date.now());
    });
    map.on('render', () => renders.push(Date.now()));
    await new Promise((r) => setTimeout(r, ms));
    probe.timing = false;
    const drawn: number[] = [];
    for (const arrival of probe.arrivals) {
      if (arrival.at < start) continue;
      const loaded = loads.find((t) => t >= arrival.at);
      const frame = loaded === undefined ? undefined : renders.find((t) => t >= loaded);
      if (frame !== undefined) drawn.push(frame - arrival.fix);
    }
    // Positions the page took per second: what the server and the load managed to deliver.
    const records = probe.arrivals.reduce((sum, arrival) => sum + arrival.records, 0);
    return { samples: drawn.length, arrivals: probe.arrivals.length, drawn, recordsPerSecond: records / (ms / 1000) };
  }, seconds * 1000);
}

/**
 * Polls the enterprise statistics until 97 % of the terminals are online, or the count has not
 * grown for a minute (a loaded machine cannot log them all in); returns the count.
 */
async function waitOnline(url: string, token: string, users: number): Promise<number> {
  let online = 0;
  let grewAt = Date.now();
  for (const deadline = Date.now() + Math.max(120_000, users * 10); Date.now() < deadline; await sleep(2000)) {
    const response = await fetch(`${url}/api/Enterprise/Statistics`, { headers: { Authorization: `Bearer ${token}` } });
    const answer = (await response.json()) as { BaseData?: { Online: number }; BaseResult?: unknown };
    if (!answer.BaseData) throw new Error(`statistics answered ${JSON.stringify(answer)}`);
    if (answer.BaseData.Online > online) grewAt = Date.now();
    online = answer.BaseData.Online;
    if (online >= users * 0.97 || Date.now() - grewAt > 60_000) return online;
  }
  return online;
}

async function heapMiB(page: Page): Promise<number> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('HeapProfiler.collectGarbage');
  const { usedSize } = await cdp.send('Runtime.getHeapUsage');
  return round(usedSize / 1024 / 1024);
}

async function run(users: number, soak: boolean) {
  const server = await startServer({ LOG_LEVEL: 'error' });
  let load: ChildProcess | undefined;
  const browser = await launchBrowser({ webgl: true });
  try {
    log(`${users} users: seeding`);
    await seedTerminals({ dataDir: server.dataDir }, users, 1);
    // The paced load prints nothing until it ends: wait until the server counts its terminals
    // online (they send their first fix right after login) before the page opens.
    load = helper(
      'terminalLoad.ts',
      [JSON.stringify({ url: server.url, first: 0, count: users, window: 1, rate: users, seconds: 3600 })],
      () => undefined,
    );
    const token = await login(server.url, 'admin', BENCH_PASSWORD, 'DEMO');
    const online = await waitOnline(server.url, token, users);
    log(`${users} users: ${online} terminals online and moving`);
    await sleep(5000);
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    await context.addCookies([{ name: 'function_access_token', value: token, url: server.url, sameSite: 'Strict' }]);
    const page = await context.newPage();
    // tsx names the functions inside page.evaluate through a `__name` helper the page lacks.
    await page.addInitScript({ content: `window.__name = (f) => f;\n${INSTRUMENT_HUB}` });
    const renderer = await page.evaluate(() => {
      const gl = document.createElement('canvas').getContext('webgl2');
      const info = gl?.getExtension('WEBGL_debug_renderer_info');
      return gl && info ? String(gl.getParameter(info.UNMASKED_RENDERER_WEBGL)) : 'none';
    });
    if (!renderer.includes('SwiftShader')) throw new Error(`WebGL renderer is ${renderer}, not SwiftShader`);

    const opened = Date.now();
    // A server busy with 50,000 terminals on a shared machine can take minutes to serve the page.
    await page.goto(`${server.url}/main/map`, { timeout: 300_000 });
    await page.locator('[data-testid="map-canvas"][data-loaded="true"]').waitFor({ timeout: 300_000 });
    // Drawn: the users source holds the snapshot (every terminal that logged in and reported).
    let drawnUsers = 0;
    let snapshotDrawnMs = 0;
    const deadline = Date.now() + 300_000;
    for (let stable = 0; stable < 20;) {
      if (Date.now() > deadline) throw new Error(`the map showed ${drawnUsers} users after 300 s`);
      const count = await page.evaluate(
        async () =>
          (await (window as unknown as ProbeWindow).mapOf().getSource('users')?.getData())?.features.length ?? 0,
      );
      if (count > drawnUsers) {
        drawnUsers = count;
        snapshotDrawnMs = Date.now() - opened;
        stable = 0;
      } else if (count > 0) stable++;
      await sleep(100);
    }
    const snapshotBytes = await page.evaluate(() => (window as unknown as ProbeWindow).mapProbe.snapshotBytes);
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
      };
    });
    log(`${users} users: steps (ms since navigation start) ${JSON.stringify(snapshotSteps)}`);

    const views: Record<string, unknown> = {};
    for (const [name, camera] of [
      ['default', null],
      ['street', { center: [114.05, 22.55] as [number, number], zoom: 16 }],
    ] as const) {
      if (camera) await page.evaluate((c) => (window as unknown as ProbeWindow).mapOf().jumpTo(c), camera);
      await sleep(1000);
      const withUsers = await fps(page, SECONDS);
      await setUsersVisible(page, false);
      await sleep(500);
      const empty = await fps(page, SECONDS);
      await setUsersVisible(page, true);
      views[name] = { fpsWithUsers: round(withUsers), fpsEmpty: round(empty), ratio: round(withUsers / empty, 2) };
      log(`${users} users, ${name} view: ${JSON.stringify(views[name])}`);
    }
    const thread = await mainThread(page, SECONDS);
    log(`${users} users: main thread ${JSON.stringify(thread)}`);
    const drawn = await latency(page, SECONDS);
    const latencyMs = {
      samples: drawn.samples,
      positionsPerSecond: Math.round(drawn.recordsPerSecond),
      p50: percentile(drawn.drawn, 50),
      p95: percentile(drawn.drawn, 95),
      max: percentile(drawn.drawn, 100),
    };
    log(`${users} users: fix to frame ${JSON.stringify(latencyMs)}`);
    let memory: Record<string, number> | undefined;
    if (soak) {
      const start = await heapMiB(page);
      await sleep(SOAK_SECONDS * 1000);
      const end = await heapMiB(page);
      memory = {
        seconds: SOAK_SECONDS,
        heapStartMiB: start,
        heapEndMiB: end,
        growthPercent: round(((end - start) / start) * 100),
      };
      log(`${users} users: memory ${JSON.stringify(memory)}`);
    }
    return {
      users,
      drawnUsers,
      renderer,
      snapshotBytes,
      snapshotDrawnMs,
      snapshotSteps,
      views,
      mainThread: thread,
      latencyMs,
      memory,
    };
  } finally {
    load?.kill('SIGTERM');
    await browser.close();
    await server.stop();
  }
}

const results = [];
for (const users of USERS) results.push(await run(users, users === Math.max(...USERS)));
process.stdout.write(`${JSON.stringify({ cpus: (await import('node:os')).cpus().length, results }, null, 2)}\n`);
