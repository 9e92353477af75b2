// MAP_BENCH_PROFILE_OPENING of bench/map.ts: what the page's main thread does from opening the
// page until the snapshot is drawn. A Chromium trace names each long task's work (which script
// is evaluated, which event or timer runs, the garbage collector), and the CPU profile of the same
// span names the hottest functions; both are started before the navigation.
import fs from 'node:fs';
import type { Browser, CDPSession, Page } from 'playwright-core';
import { topFunctions, type CpuProfile } from './cpuProfile.js';

interface TraceEvent {
  name: string;
  cat: string;
  ph: string;
  ts: number;
  dur?: number;
  pid: number;
  tid: number;
  args?: { data?: TraceData; name?: string };
}

/** The fields of a trace event's `args.data` that the labels read (each event has a few of them). */
interface TraceData {
  url?: string;
  functionName?: string;
  lineNumber?: number;
  type?: string;
  styleSheetUrl?: string;
  documentLoaderURL?: string;
}

const CATEGORIES = [
  'toplevel',
  'devtools.timeline',
  'disabled-by-default-devtools.timeline',
  'blink.user_timing',
  'loading',
  'v8.execute',
  // The GPU process: WebGL's commands and the compositor's frames share its main thread.
  'gpu',
  'viz',
];

/** Events inside a task worth naming, and how. */
const LABELS: Record<string, (data: TraceData) => string> = {
  EvaluateScript: (d) => `evaluate ${file(d.url)}`,
  'v8.evaluateModule': (d) => `module ${file(d.url)}`,
  'v8.compile': (d) => `compile ${file(d.url)}`,
  'v8.compileModule': (d) => `compile module ${file(d.url)}`,
  'v8.parseOnBackground': () => 'parse',
  FunctionCall: (d) => `call ${d.functionName || '(anonymous)'} ${file(d.url)}:${d.lineNumber ?? ''}`,
  TimerFire: () => 'timer',
  FireAnimationFrame: () => 'animation frame',
  EventDispatch: (d) => `event ${d.type}`,
  ParseHTML: () => 'parse HTML',
  ParseAuthorStyleSheet: (d) => `parse CSS ${file(d.styleSheetUrl ?? '')}`,
  UpdateLayoutTree: () => 'style recalculation',
  Layout: () => 'layout',
  Paint: () => 'paint',
  MajorGC: () => 'major GC',
  MinorGC: () => 'minor GC',
  'V8.GC_MARK_COMPACTOR': () => 'major GC',
  RunMicrotasks: () => 'microtasks',
  XHRReadyStateChange: () => 'XHR',
};

function file(url: unknown): string {
  return typeof url === 'string' ? (url.split('/').pop() ?? url) : '';
}

export interface OpeningTrace {
  /** Stops both and names the long tasks (ms since navigation start) and the hottest functions. */
  stop(): Promise<{ longTasks: string[]; busyPer250Ms: string; gpu: string; hot: string[] }>;
}

/**
 * Starts tracing and profiling `page`; call before `page.goto`. (The hub's frames are watched by
 * hubSocketWatch.ts: the socket lives in the console's hub worker, which this page session does not see.)
 */
export async function startOpeningTrace(browser: Browser, page: Page, cdp: CDPSession): Promise<OpeningTrace> {
  await browser.startTracing(page, { categories: CATEGORIES });
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.start');
  return {
    async stop() {
      const profile = (await cdp.send('Profiler.stop')).profile as TimedProfile;
      const buffer = await browser.stopTracing();
      // MAP_BENCH_TRACE_FILE: the whole trace, for chrome://tracing or Perfetto.
      if (process.env.MAP_BENCH_TRACE_FILE) fs.writeFileSync(process.env.MAP_BENCH_TRACE_FILE, buffer);
      const events = (JSON.parse(buffer.toString('utf8')) as { traceEvents: TraceEvent[] }).traceEvents;
      return { ...longTasksOf(events, profile), gpu: gpuBusyOf(events), hot: topFunctions(profile) };
    },
  };
}

/** A CPU profile with its clock, which is the trace's (microseconds). */
type TimedProfile = CpuProfile & { startTime: number };

/** The profile's samples from `from` to `to` (trace clock) as a profile of their own. */
function slice(profile: TimedProfile, from: number, to: number): CpuProfile {
  const samples: number[] = [];
  const timeDeltas: number[] = [];
  let at = profile.startTime;
  profile.samples?.forEach((id, i) => {
    const delta = profile.timeDeltas?.[i] ?? 0;
    at += delta;
    if (at < from || at >= to) return;
    samples.push(id);
    timeDeltas.push(delta);
  });
  return { nodes: profile.nodes, samples, timeDeltas };
}

/**
 * Where the times count from, on the page's main thread: the navigation to the map page when the
 * trace saw it, otherwise (a trace started on an open page) the trace's first event on the busiest
 * renderer main thread.
 */
function startOf(events: TraceEvent[]): { pid: number; tid: number; ts: number } | undefined {
  const navigation = events.find(
    (e) => e.name === 'navigationStart' && (e.args?.data?.documentLoaderURL ?? '').includes('/main/'),
  );
  if (navigation) return navigation;
  const busy = new Map<string, number>();
  for (const thread of events.filter((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain')) {
    busy.set(`${thread.pid}:${thread.tid}`, 0);
  }
  for (const e of events) {
    const key = `${e.pid}:${e.tid}`;
    if (e.name === 'RunTask' && busy.has(key)) busy.set(key, busy.get(key)! + (e.dur ?? 0));
  }
  const [busiest] = [...busy.entries()].sort((a, b) => b[1] - a[1]);
  if (!busiest) return undefined;
  const [pid, tid] = busiest[0].split(':').map(Number) as [number, number];
  const ts = events.reduce((first, e) => (e.ts > 0 && e.ts < first ? e.ts : first), Infinity);
  return { pid, tid, ts };
}

/**
 * The long tasks of the page's main thread, each with the largest work inside it (trace events)
 * and its hottest functions (the profile's samples in the task).
 */
export function longTasksOf(
  events: TraceEvent[],
  profile: TimedProfile,
  overMs = 50,
): { longTasks: string[]; busyPer250Ms: string } {
  const navigation = startOf(events);
  if (!navigation) return { longTasks: ['no main thread of the page in the trace'], busyPer250Ms: '' };
  const main = events.filter((e) => e.pid === navigation.pid && e.tid === navigation.tid && e.ph === 'X');
  const since = (ts: number) => Math.round((ts - navigation.ts) / 1000);
  const tasks = main.filter((e) => e.name === 'RunTask' && e.ts >= navigation.ts && (e.dur ?? 0) > 0);
  // Busy time per 250 ms since the navigation: where the main thread had no room.
  const busy: number[] = [];
  for (const task of tasks) {
    const slot = Math.floor(since(task.ts) / 250);
    busy[slot] = (busy[slot] ?? 0) + (task.dur ?? 0) / 1000;
  }
  const longTasks = tasks
    .filter((task) => (task.dur ?? 0) / 1000 > overMs)
    .map((task) => {
      const end = task.ts + (task.dur ?? 0);
      const inside = main
        .filter((e) => e !== task && e.ts >= task.ts && e.ts < end && LABELS[e.name])
        .map((e) => ({ label: LABELS[e.name]!(e.args?.data ?? {}), ms: (e.dur ?? 0) / 1000 }));
      // One line per label: the same kind of work repeated inside one task adds up.
      const byLabel = new Map<string, number>();
      for (const { label, ms } of inside) byLabel.set(label, Math.max(byLabel.get(label) ?? 0, ms));
      const top = [...byLabel.entries()]
        .sort((a, b) => b[1] - a[1])
        .slice(0, 4)
        .map(([label, ms]) => `${label} ${Math.round(ms)}`);
      const hot = topFunctions(slice(profile, task.ts, end), 3).filter((line) => !line.startsWith('('));
      return `${since(task.ts)} +${Math.round((task.dur ?? 0) / 1000)} ms: ${top.join('; ')} | ${hot.join('; ')}`;
    });
  const busyPer250Ms = Array.from(busy, (ms, i) => `${i * 250}:${Math.round(ms ?? 0)}`).join(' ');
  return { longTasks, busyPer250Ms };
}

/**
 * The GPU process's main thread per 250 ms since the navigation: busy ms, and of it the ms spent
 * presenting the compositor's frames (on SwiftShader each costs tens to hundreds of ms, and WebGL's
 * commands wait behind them). "0:210/180x3" is 210 ms busy, 180 of it in 3 frames.
 */
export function gpuBusyOf(events: TraceEvent[]): string {
  const navigation = startOf(events);
  const thread = events.find((e) => e.name === 'thread_name' && e.args?.name === 'CrGpuMain');
  if (!navigation || !thread) return 'no GPU main thread in the trace';
  const slot = (ts: number) => Math.floor((ts - navigation.ts) / 250_000);
  const busy: number[] = [];
  const swaps: { ms: number; count: number }[] = [];
  for (const e of events) {
    if (e.pid !== thread.pid || e.tid !== thread.tid || e.ph !== 'X' || e.ts < navigation.ts) continue;
    const ms = (e.dur ?? 0) / 1000;
    if (e.name === 'RunTask') busy[slot(e.ts)] = (busy[slot(e.ts)] ?? 0) + ms;
    if (e.name === 'SkiaOutputSurfaceImplOnGpu::SwapBuffers') {
      const at = (swaps[slot(e.ts)] ??= { ms: 0, count: 0 });
      at.ms += ms;
      at.count += 1;
    }
  }
  return Array.from(busy, (ms, i) => {
    const swap = swaps[i];
    return `${i * 250}:${Math.round(ms ?? 0)}${swap ? `/${Math.round(swap.ms)}x${swap.count}` : ''}`;
  }).join(' ');
}
