// Field app idle timers (issue 49's budget "no timer firing more often than the report interval
// while idle"): one field app signed in, its radio idle, its JavaScript timers and animation frames
// counted in the page for FIELD_IDLE_SECONDS (90).
//   node scripts/build.mjs && npx tsx bench/fieldIdle.ts
// Prints every timer that fired in the window with its delay and how often it fired, the animation
// frames drawn, and the report interval of the login's config. Workers (the service worker, the
// audio worklet) are not counted: their timers do not wake the page's main thread.
import os from 'node:os';
import { createBenchChannel, benchChannelMembers } from './support/benchChannel.js';
import { SEED_PASSWORD, seedTerminals, terminalPhone } from './support/seedTerminals.js';
import { startServer } from './support/startServer.js';
import { launchBrowser } from '../e2e/support/chromium.js';

const IDLE_SECONDS = Number(process.env.FIELD_IDLE_SECONDS ?? 90);

/** Counts, by requested delay, every setTimeout/setInterval callback run and every animation frame. */
const PAGE_TIMERS = `
  const fired = new Map();
  const counts = { fired, frames: 0, counting: false };
  window.idleTimers = counts;
  const wrap = (native) => (handler, delay, ...rest) => {
    if (typeof handler !== 'function') return native(handler, delay, ...rest);
    const key = String(Math.round(Number(delay) || 0));
    return native((...args) => {
      if (counts.counting) fired.set(key, (fired.get(key) || 0) + 1);
      handler(...args);
    }, delay, ...rest);
  };
  window.setTimeout = wrap(window.setTimeout.bind(window));
  window.setInterval = wrap(window.setInterval.bind(window));
  const frame = window.requestAnimationFrame.bind(window);
  window.requestAnimationFrame = (callback) => frame((time) => {
    if (counts.counting) counts.frames += 1;
    callback(time);
  });
`;

const server = await startServer();
await seedTerminals({ dataDir: server.dataDir }, 1, 0);
createBenchChannel(server.dataDir, 'BenchIdle', benchChannelMembers(server.dataDir, [terminalPhone(0)]));
const browser = await launchBrowser();
try {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
  const page = await context.newPage();
  await page.addInitScript({ content: PAGE_TIMERS });
  const configs: { interval?: number; heartbeat?: number }[] = [];
  page.on('websocket', (socket) =>
    socket.on('framereceived', ({ payload }) => {
      if (typeof payload !== 'string' || !payload.includes('"config"')) return;
      const message = JSON.parse(payload) as { config?: { interval?: number; heartbeat?: number } };
      if (message.config) configs.push(message.config);
    }),
  );
  await page.goto(`${server.url}/field`);
  await page.getByLabel('Phone').fill(terminalPhone(0));
  await page.getByLabel('Password').fill(SEED_PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByText('BenchIdle: nobody is talking').waitFor({ timeout: 20_000 });
  // Settled: the first fix, the channel list and the first status are sent.
  await page.waitForTimeout(5_000);
  await page.evaluate('window.idleTimers.counting = true');
  await page.waitForTimeout(IDLE_SECONDS * 1000);
  const result = await page.evaluate<{ fired: [string, number][]; frames: number }>(
    '({ fired: [...window.idleTimers.fired], frames: window.idleTimers.frames })',
  );
  const config = configs.at(-1) ?? {};
  const intervalMs = (config.interval ?? 0) * 1000;
  const fast = result.fired.filter(([delay]) => Number(delay) < intervalMs);
  const load = os
    .loadavg()
    .map((value) => value.toFixed(1))
    .join(' ');
  const lines = [
    `Chromium ${browser.version()}, ${IDLE_SECONDS} s idle after sign-in, load average ${load}`,
    `report interval ${config.interval ?? '?'} s, heartbeat ${config.heartbeat ?? '?'} s (the login's config)`,
    `timers fired (delay ms x times): ${result.fired.map(([delay, times]) => `${delay} x ${times}`).join(', ') || 'none'}`,
    `animation frames: ${result.frames}`,
    `timers shorter than the report interval: ${fast.map(([delay, times]) => `${delay} ms x ${times}`).join(', ') || 'none'} (goal: none)`,
  ];
  for (const line of lines) process.stdout.write(`${line}\n`);
} finally {
  await browser.close();
  await server.stop();
}
process.stderr.write('[bench] done\n');
