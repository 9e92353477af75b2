// What MapLibre's first WebGL program link costs the map page's main thread, and why (issue 34,
// goal 6): the built server on SQLite with no terminal moving, the console's map opened in Chromium
// on SwiftShader, every WebGL2 call that waits for a compile or a link timed in the page. Each
// opening is the first map of a fresh browser, prepared one of three ways:
//   cold:         nothing before it (as the other map benches open it);
//   afterConsole: the console's dashboard shown first in that browser, as a dispatcher comes to the map;
//   precompiled:  MapLibre's own programs (the sources and attribute bindings a cold opening of this
//                 run linked) linked first in another page, in a context with the map's attributes.
// Then the cold browser opens the map a second time (`secondOpening`).
//   node scripts/build.mjs && npx tsx bench/mapShaderLink.ts
// MAP_LINK_RUNS (3): fresh browsers per way. MAP_LINK_SYNC=1: the page also waits for the GPU
// process after every WebGL2 call (getError) and lists the calls that waited over 5 ms, which says
// what the first link waits for (it slows the page). Prints one JSON object.
import os from 'node:os';
import type { Browser } from 'playwright-core';
import { launchBrowser } from '../e2e/support/chromium.js';
import { login } from './support/login.js';
import { BENCH_PASSWORD, startServer } from './support/startServer.js';

const RUNS = Number(process.env.MAP_LINK_RUNS ?? 3);
const SYNC = process.env.MAP_LINK_SYNC === '1';
const VIEWPORT = { width: 1280, height: 800 };

/** Page script: wraps the WebGL2 calls of compiling and linking, keeps the sources, watches long tasks. */
const PROBE = `(() => {
  const P = WebGL2RenderingContext.prototype;
  const probe = (window.__linkProbe = { programs: [], tasks: [], attributes: null, waits: [] });
  const getContext = HTMLCanvasElement.prototype.getContext;
  HTMLCanvasElement.prototype.getContext = function (kind, attributes) {
    if (kind === 'webgl2' && !probe.attributes) probe.attributes = attributes ?? {};
    return getContext.call(this, kind, attributes);
  };
  const sources = new WeakMap();
  const types = new WeakMap();
  const createShader = P.createShader;
  P.createShader = function (type) {
    const shader = createShader.call(this, type);
    types.set(shader, type);
    return shader;
  };
  const createProgram = P.createProgram;
  P.createProgram = function () {
    const program = createProgram.call(this);
    const entry = { at: performance.now(), ms: 0, sourceChars: 0, shaders: [], attributes: [] };
    probe.programs.push(entry);
    sources.set(program, entry);
    return program;
  };
  const shaderSource = P.shaderSource;
  P.shaderSource = function (shader, source) {
    sources.set(shader, source);
    return shaderSource.call(this, shader, source);
  };
  const attachShader = P.attachShader;
  P.attachShader = function (program, shader) {
    sources.get(program)?.shaders.push([types.get(shader), sources.get(shader)]);
    return attachShader.call(this, program, shader);
  };
  const bindAttribLocation = P.bindAttribLocation;
  P.bindAttribLocation = function (program, index, name) {
    sources.get(program)?.attributes.push([index, name]);
    return bindAttribLocation.call(this, program, index, name);
  };
  const timed = ['shaderSource', 'compileShader', 'attachShader', 'linkProgram', 'getProgramParameter', 'getShaderParameter', 'getUniformLocation', 'getAttribLocation'];
  const getError = P.getError;
  for (const name of Object.getOwnPropertyNames(P)) {
    const descriptor = Object.getOwnPropertyDescriptor(P, name);
    if (name === 'constructor' || name === 'getError' || typeof descriptor.value !== 'function') continue;
    if (!window.__syncCalls && !timed.includes(name)) continue;
    const call = P[name];
    P[name] = function (...args) {
      const started = performance.now();
      const result = call.apply(this, args);
      if (window.__syncCalls) getError.call(this);
      const ms = performance.now() - started;
      const program = probe.programs[probe.programs.length - 1];
      if (program && timed.includes(name)) {
        program.ms += ms;
        if (name === 'shaderSource') program.sourceChars += args[1].length;
      }
      if (window.__syncCalls && ms > 5) probe.waits.push(name + '(' + args.slice(0, 2).map((a) => typeof a === 'number' ? a : typeof a).join(',') + ') ' + Math.round(ms) + ' ms');
      return result;
    };
  }
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) probe.tasks.push([Math.round(e.startTime), Math.round(e.duration)]);
  }).observe({ type: 'longtask', buffered: true });
})();`;

interface Program {
  at: number;
  ms: number;
  sourceChars: number;
  shaders: [number, string][];
  attributes: [number, string][];
}

interface Probe {
  programs: Program[];
  tasks: [number, number][];
  attributes: WebGLContextAttributes | null;
  waits: string[];
}

/** Page script: links `programs` in a context of the map's size and attributes, then waits for them. */
function precompile(programs: Program[], attributes: WebGLContextAttributes): string {
  return `(() => {
    const gl = new OffscreenCanvas(${VIEWPORT.width}, ${VIEWPORT.height}).getContext('webgl2', ${JSON.stringify(attributes)});
    const started = performance.now();
    const linked = ${JSON.stringify(programs.map((p) => ({ shaders: p.shaders, attributes: p.attributes })))}.map((p) => {
      const program = gl.createProgram();
      for (const [type, source] of p.shaders) {
        const shader = gl.createShader(type);
        gl.shaderSource(shader, source);
        gl.compileShader(shader);
        gl.attachShader(program, shader);
      }
      for (const [index, name] of p.attributes) gl.bindAttribLocation(program, index, name);
      gl.linkProgram(program);
      return program;
    });
    const ok = linked.every((program) => gl.getProgramParameter(program, gl.LINK_STATUS));
    return { ok, ms: Math.round(performance.now() - started) };
  })()`;
}

const server = await startServer({ LOG_LEVEL: 'error' });
const token = await login(server.url, 'admin', BENCH_PASSWORD, 'DEMO');

async function signedInPage(browser: Browser) {
  const context = await browser.newContext({ viewport: VIEWPORT });
  await context.addCookies([{ name: 'function_access_token', value: token, url: server.url, sameSite: 'Strict' }]);
  return { context, page: await context.newPage() };
}

async function openMap(browser: Browser): Promise<Probe> {
  const { context, page } = await signedInPage(browser);
  await page.addInitScript({ content: `${SYNC ? 'window.__syncCalls = true;' : ''}${PROBE}` });
  await page.goto(`${server.url}/main/map`);
  await page.locator('[data-testid="map-canvas"][data-loaded="true"]').waitFor({ timeout: 120_000 });
  await page.waitForTimeout(2000);
  const probe = await page.evaluate(() => (window as unknown as { __linkProbe: Probe }).__linkProbe);
  await context.close();
  return probe;
}

function summary(probe: Probe) {
  return {
    programWaitsMs: probe.programs.map((p) => Math.round(p.ms)),
    longTasks: probe.tasks.map(([at, ms]) => `${at}+${ms}`),
    ...(SYNC ? { callsThatWaited: probe.waits } : {}),
  };
}

type Way = 'cold' | 'afterConsole' | 'precompiled';
const runs: Record<string, unknown>[] = [];
let captured: Probe | null = null;
try {
  for (let run = 0; run < RUNS; run++) {
    for (const way of ['cold', 'afterConsole', 'precompiled'] as Way[]) {
      const browser = await launchBrowser({ webgl: true });
      try {
        let prepared: unknown = null;
        if (way === 'afterConsole') {
          const { context, page } = await signedInPage(browser);
          await page.goto(`${server.url}/`);
          await page.getByTestId('overview-chart').waitFor({ timeout: 60_000 });
          await page.waitForTimeout(1500);
          await context.close();
        } else if (way === 'precompiled' && captured?.attributes) {
          const { context, page } = await signedInPage(browser);
          await page.goto(`${server.url}/favicon.ico`);
          prepared = await page.evaluate(precompile(captured.programs, captured.attributes));
          await context.close();
        }
        const probe = await openMap(browser);
        if (way === 'cold') captured ??= probe;
        const entry: Record<string, unknown> = { run: run + 1, way, ...summary(probe) };
        if (prepared) entry.precompiled = prepared;
        if (way === 'cold') entry.secondOpening = summary(await openMap(browser));
        runs.push(entry);
        process.stderr.write(`[map-link] ${JSON.stringify(entry)}\n`);
      } finally {
        await browser.close();
      }
    }
  }
} finally {
  await server.stop();
}

const firstWaits = (way: Way) => runs.filter((r) => r.way === way).map((r) => (r.programWaitsMs as number[])[0] ?? 0);
process.stdout.write(
  `${JSON.stringify(
    {
      bench: 'mapShaderLink',
      cpu: os.cpus()[0]?.model ?? 'unknown',
      loadAverage: os.loadavg().map((n) => Math.round(n * 100) / 100),
      mapContextAttributes: captured?.attributes ?? null,
      firstProgramWaitMs: {
        cold: firstWaits('cold'),
        secondOpening: runs
          .filter((r) => r.way === 'cold')
          .map((r) => (r.secondOpening as { programWaitsMs: number[] }).programWaitsMs[0] ?? 0),
        afterConsole: firstWaits('afterConsole'),
        precompiled: firstWaits('precompiled'),
      },
      runs,
    },
    null,
    2,
  )}\n`,
);
