// The load of bench/fleet.ts, run as its own process (its CPU is measured apart from the bench's):
//   node --import tsx bench/support/fleetLoad.ts '<json options>'
// Splits the terminals over `workers` worker threads (fleetWorker.ts) and prints their summed
// counters as one JSON line a second; a line `stop` on stdin stops the reports and prints the final
// counters (`final: true`) once every worker has its acks in, then exits.
import readline from 'node:readline';
import { Worker } from 'node:worker_threads';
import { emptyCounters, type FleetCounters, type FleetWorkerOptions } from './fleetCounters.js';

interface FleetLoadOptions extends Omit<FleetWorkerOptions, 'first' | 'count'> {
  terminals: number;
  workers: number;
}

const options = JSON.parse(process.argv[2] ?? '{}') as FleetLoadOptions;
const file = new URL('./fleetWorker.ts', import.meta.url).href;
// A worker does not inherit tsx's loader on Node 20: it registers it before importing the TypeScript.
const bootstrap = `import('tsx/esm/api').then(({ register }) => { register(); return import(${JSON.stringify(file)}); })`;
const per = Math.ceil(options.terminals / options.workers);
const latest: FleetCounters[] = [];
const finals = new Set<number>();
const workers = Array.from({ length: options.workers }, (_, w) => {
  const first = w * per;
  const count = Math.max(0, Math.min(per, options.terminals - first));
  const workerOptions: FleetWorkerOptions = { ...options, first, count };
  const worker = new Worker(bootstrap, { eval: true, workerData: workerOptions });
  worker.on('message', (message: { counters: FleetCounters; final?: boolean }) => {
    latest[w] = message.counters;
    if (message.final) finals.add(w);
    if (finals.size === options.workers) {
      print(true);
      process.exit(0);
    }
  });
  worker.on('error', (error) => {
    process.stderr.write(`fleet worker ${w}: ${String(error)}\n`);
    process.exit(1);
  });
  return worker;
});

/** The workers' counters summed: the newest lastLoginAt, errors by code. */
function sum(): FleetCounters {
  const total = emptyCounters();
  for (const counters of latest) {
    if (!counters) continue;
    for (const key of Object.keys(total) as (keyof FleetCounters)[]) {
      if (key === 'errors') {
        for (const [code, n] of Object.entries(counters.errors)) total.errors[code] = (total.errors[code] ?? 0) + n;
      } else if (key === 'lastLoginAt') total.lastLoginAt = Math.max(total.lastLoginAt, counters.lastLoginAt);
      else total[key] += counters[key];
    }
  }
  return total;
}

function print(final: boolean): void {
  process.stdout.write(`${JSON.stringify({ ...sum(), final })}\n`);
}

const ticker = setInterval(() => print(false), 1000);
readline.createInterface({ input: process.stdin }).on('line', (line) => {
  if (line.trim() !== 'stop') return;
  clearInterval(ticker);
  workers.forEach((worker) => worker.postMessage({ stop: true }));
});
