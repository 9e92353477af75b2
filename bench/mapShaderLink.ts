// What MapLibre's WebGL program links cost the map page's main thread (issue 34, goal 6): the built
// server on SQLite with no terminal moving, the console's map opened in Chromium on SwiftShader,
// every WebGL2 call that waits for a compile or link timed in the page. Then three trivial programs
// linked first in a context of the page's own (MAP_LINK_WARM=1), to see whether the cost is once per
// GPU process (a warm-up would help) or once per context (it would not).
//   node scripts/build.mjs && npx tsx bench/mapShaderLink.ts
// MAP_LINK_RUNS (3): openings per mode. Prints one JSON object.
import os from 'node:os';
import { launchBrowser } from '../e2e/support/chromium.js';
import { login } from './support/login.js';
import { BENCH_PASSWORD, startServer } from './support/startServer.js';

const RUNS = Number(process.env.MAP_LINK_RUNS ?? 3);

/** Page script: wraps the WebGL2 calls of compiling and linking, and watches long tasks. */
const PROBE = `(() => {
  const P = WebGL2RenderingContext.prototype;
  const probe = (window.__linkProbe = { programs: [], tasks: [], warm: [] });
  const timed = ['shaderSource', 'compileShader', 'attachShader', 'linkProgram', 'getProgramParameter', 'getShaderParameter', 'getUniformLocation', 'getAttribLocation'];
  const createProgram = P.createProgram;
  P.createProgram = function () {
    probe.programs.push({ at: performance.now(), ms: 0, sourceChars: 0 });
    return createProgram.call(this);
  };
  for (const name of timed) {
    const call = P[name];
    P[name] = function (...args) {
      const started = performance.now();
      const result = call.apply(this, args);
      const program = probe.programs[probe.programs.length - 1];
      if (program) {
        program.ms += performance.now() - started;
        if (name === 'shaderSource') program.sourceChars += args[1].length;
      }
      return result;
    };
  }
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) probe.tasks.push([Math.round(e.startTime), Math.round(e.duration)]);
  }).observe({ type: 'longtask', buffered: true });
  if (window.__warmLinks) {
    const gl = document.createElement('canvas').getContext('webgl2');
    for (let k = 0; k < 3; k++) {
      const started = performance.now();
      const program = gl.createProgram();
      const shader = (type, source) => {
        const s = gl.createShader(type);
        gl.shaderSource(s, source);
        gl.compileShader(s);
        gl.attachShader(program, s);
      };
      shader(gl.VERTEX_SHADER, '#version 300 es\\nin vec2 a; void main() { gl_Position = vec4(a, 0.0, ' + (k + 1) + '.0); }');
      shader(gl.FRAGMENT_SHADER, '#version 300 es\\nprecision mediump float; out vec4 c; void main() { c = vec4(' + k + '.0); }');
      gl.linkProgram(program);
      gl.getProgramParameter(program, gl.LINK_STATUS);
      probe.warm.push(Math.round((performance.now() - started) * 10) / 10);
    }
    probe.programs.length = 0;
  }
})();`;

interface Probe {
  programs: { at: number; ms: number; sourceChars: number }[];
  tasks: [number, number][];
  warm: number[];
}

const server = await startServer({ LOG_LEVEL: 'error' });
const browser = await launchBrowser({ webgl: true });
const runs: Record<string, unknown>[] = [];
try {
  const token = await login(server.url, 'admin', BENCH_PASSWORD, 'DEMO');
  for (const warm of [false, true]) {
    for (let run = 0; run < RUNS; run++) {
      const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
      await context.addCookies([{ name: 'function_access_token', value: token, url: server.url, sameSite: 'Strict' }]);
      const page = await context.newPage();
      await page.addInitScript({ content: `${warm ? 'window.__warmLinks = true;' : ''}${PROBE}` });
      await page.goto(`${server.url}/main/map`);
      await page.locator('[data-testid="map-canvas"][data-loaded="true"]').waitFor({ timeout: 120_000 });
      await page.waitForTimeout(2000);
      const probe = await page.evaluate(() => (window as unknown as { __linkProbe: Probe }).__linkProbe);
      runs.push({
        warmUpLinksMs: warm ? probe.warm : null,
        programs: probe.programs.map((p) => ({
          atMs: Math.round(p.at),
          waitMs: Math.round(p.ms),
          sourceChars: p.sourceChars,
        })),
        longTasks: probe.tasks.map(([at, ms]) => `${at}+${ms}`),
      });
      process.stderr.write(`[map-link] ${warm ? 'warm' : 'cold'} run ${run + 1}: ${JSON.stringify(runs.at(-1))}\n`);
      await context.close();
    }
  }
} finally {
  await browser.close();
  await server.stop();
}
const first = runs.map((r) => (r.programs as { waitMs: number }[])[0]?.waitMs ?? 0);
const rest = runs.flatMap((r) => (r.programs as { waitMs: number }[]).slice(1).map((p) => p.waitMs));
process.stdout.write(
  `${JSON.stringify(
    {
      bench: 'mapShaderLink',
      cpu: os.cpus()[0]?.model ?? 'unknown',
      loadAverage: os.loadavg().map((n) => Math.round(n * 100) / 100),
      firstProgramWaitMs: first,
      otherProgramsWaitMsMax: Math.max(0, ...rest),
      runs,
    },
    null,
    2,
  )}\n`,
);
