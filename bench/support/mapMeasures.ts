// What bench/map.ts measures on the map page: frame rate, main-thread time and the page's heap.
import type { Page } from 'playwright-core';
import { topFunctions } from './cpuProfile.js';
import { round } from './mapFigures.js';
import type { ProbeWindow } from './mapProbe.js';
import { workerHeapBytes } from './workerTargets.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Frames drawn per second while the camera turns a little every frame (MapLibre draws only on change). */
export async function fps(page: Page, seconds: number): Promise<number> {
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

const USER_LAYERS = ['users-circles', 'users-cluster-count', 'users-labels'];

export async function setUsersVisible(page: Page, visible: boolean): Promise<void> {
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
export async function mainThread(page: Page, seconds: number) {
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

/**
 * The page's used JavaScript heap after a collection, in MiB: the main thread's and the hub
 * worker's (which holds every user's record), and their sum.
 */
export async function heapMiB(page: Page): Promise<{ main: number; hub: number; total: number }> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('HeapProfiler.collectGarbage');
  const { usedSize } = await cdp.send('Runtime.getHeapUsage');
  const hub = await workerHeapBytes(cdp, '/hub.worker');
  await cdp.detach();
  const mib = (bytes: number) => round(bytes / 1024 / 1024);
  return { main: mib(usedSize), hub: mib(hub), total: mib(usedSize + hub) };
}

/** The main thread's time per second of updates (mainThread). */
export type MainThread = Awaited<ReturnType<typeof mainThread>>;

/** The page's heap over the soak: at its start, its end and every minute. */
export interface MapMemory {
  seconds: number;
  heapStartMiB: number;
  heapEndMiB: number;
  growthPercent: number;
  everyMinuteMiB: number[];
  mainAndHubWorkerEveryMinuteMiB: string[];
}

/** The memory soak: the page's heap every minute for `seconds` (MAP_BENCH_SOAK_SECONDS); `say` logs each step. */
export async function soakHeap(page: Page, seconds: number, say: (line: string) => void): Promise<MapMemory> {
  const start = await heapMiB(page);
  const samples: Awaited<ReturnType<typeof heapMiB>>[] = [];
  for (let left = seconds; left > 0; left -= 60) {
    await sleep(Math.min(60, left) * 1000);
    samples.push(await heapMiB(page));
    say(`soak heap ${samples.map((sample) => `${sample.main}+${sample.hub}`).join(', ')} MiB`);
  }
  const end = samples.at(-1) ?? start;
  const memory = {
    seconds,
    heapStartMiB: start.total,
    heapEndMiB: end.total,
    growthPercent: round(((end.total - start.total) / start.total) * 100),
    everyMinuteMiB: samples.map((sample) => sample.total),
    mainAndHubWorkerEveryMinuteMiB: [start, ...samples].map((sample) => `${sample.main}+${sample.hub}`),
  };
  say(`memory ${JSON.stringify(memory)}`);
  return memory;
}
