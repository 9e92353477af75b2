// Real-time figures (issue 5): positions ingested per second on SQLite and PostgreSQL while 50 hub
// clients subscribe, ingest-to-console latency over WebSockets and long polling, memory per 1,000
// terminals and per 100 hub connections, and hub broadcast throughput against socket.io.
//   npx tsc -b packages/contract apps/server && npx tsx bench/ingest.ts
// Each database part first runs the history writer alone (as bench/storage.ts does, BENCH_WRITER_FIXES
// fixes) and prints ingest through /terminal as a ratio of it (issue 34: goal >= 0.5).
// BENCH_SECONDS (60), BENCH_LATENCY_SECONDS (30), BENCH_TERMINALS (500), BENCH_WRITER_FIXES (100,000),
// BENCH_BATCH (fixes per message: 1 sends `position`, up to 100 sends `positions` batches; default 1),
// BENCH_CPU_PROF (a directory for the server's CPU profile), BENCH_BROADCAST_ROUNDS (3: rounds of the
// broadcast part's phases per server, the median round the figure; the hub is paced once more at the
// product's push interval, 50 ms), BENCH_HUB_PROTOCOL (json; messagepack: the broadcast part's hub
// clients speak MessagePack and get binary position blocks, as the console does), BENCH_PG_URL (the admin URL of a PostgreSQL server; default postgres://postgres@127.0.0.1:5432/postgres,
// "" skips it).
import type { ChildProcess } from 'node:child_process';
import os from 'node:os';
import { helper } from './support/helperProcess.js';
import { login } from './support/login.js';
import {
  BinaryReceiver,
  Histogram,
  Receiver,
  longPollingClient,
  messagePackClient,
  socketIoCounter,
  webSocketClient,
} from './support/hubClients.js';
import { createDatabase } from './support/seedUsers.js';
import { SEED_PASSWORD, historyCount, seedTerminals, type SeedTarget } from './support/seedTerminals.js';
import { histogramBetween, scrapeMetrics } from './support/serverMetrics.js';
import { rssMiB, startServer } from './support/startServer.js';
import { cpuParts, cpuSeconds } from './support/terminalPeer.js';
import { DEFAULT_HUB_PUSH_INTERVAL_MS } from '../apps/server/src/config.js';
import { measureWriter } from './support/writerAlone.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 60);
const LATENCY_SECONDS = Number(process.env.BENCH_LATENCY_SECONDS ?? 30);
const TERMINALS = Number(process.env.BENCH_TERMINALS ?? 500);
const PG_URL = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const WRITER_FIXES = Number(process.env.BENCH_WRITER_FIXES ?? 100_000);
const BATCH = Math.min(100, Math.max(1, Number(process.env.BENCH_BATCH ?? 1)));
/** Unacknowledged messages per terminal: 8 fixes, or 1 batch (500 batches of 100 already fill the writer's queue). */
const WINDOW = BATCH === 1 ? 8 : 1;
/** Goal of issue 34: fixes acknowledged through /terminal at least half the writer's own rate. */
const RATIO_GOAL = 0.5;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const log = (line: string) => process.stderr.write(`[bench] ${line}\n`);

function runLoad(options: Record<string, unknown>): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    let result: Record<string, unknown> | undefined;
    const child = helper('terminalLoad.ts', [JSON.stringify(options)], (value) => (result = value));
    child.on('exit', (code) => (result ? resolve(result) : reject(new Error(`load generator exited with ${code}`))));
  });
}

/** Hub clients: `perAccount` WebSocket clients per account (the first `parsing` of all parse and time records), `longPolling` parsing LP clients. */
async function consoles(url: string, accounts: string[], perAccount: number, longPolling = 0, parsing = 10) {
  const stops: (() => void)[] = [];
  const ws: Receiver[] = [];
  const lp: Receiver[] = [];
  for (const account of accounts) {
    const token = await login(url, account, SEED_PASSWORD, 'DEMO');
    for (let i = 0; i < perAccount; i++) {
      const receiver = new Receiver(ws.length < parsing);
      stops.push(await webSocketClient(url, token, receiver));
      ws.push(receiver);
    }
  }
  if (longPolling > 0) {
    const token = await login(url, 'bench3', SEED_PASSWORD, 'DEMO');
    for (let i = 0; i < longPolling; i++) {
      const receiver = new Receiver();
      stops.push(await longPollingClient(url, token, receiver));
      lp.push(receiver);
    }
  }
  return { ws, lp, stop: () => stops.forEach((stop) => stop()) };
}

function latencyOf(receivers: Receiver[]) {
  const all = new Histogram();
  for (const r of receivers) if (r.parse) all.merge(r.latency);
  return { samples: all.count, p50_ms: all.percentile(50), p99_ms: all.percentile(99) };
}

/** The history writer alone on a fresh database of the same kind, just before the ingest. */
async function writerAlone(label: string, adminUrl?: string) {
  const database = adminUrl ? await createDatabase(adminUrl) : undefined;
  try {
    return await measureWriter(label, WRITER_FIXES, database?.url);
  } finally {
    await database?.drop();
  }
}

async function ingest(label: string, databaseUrl?: string) {
  log(`${label}: the history writer alone, ${WRITER_FIXES} fixes`);
  const load_average_writer = os.loadavg().map((n) => Math.round(n * 100) / 100);
  const writerBefore = await writerAlone(label, databaseUrl);
  const database = databaseUrl ? await createDatabase(databaseUrl) : undefined;
  // BENCH_CPU_PROF=<dir>: the server writes a V8 CPU profile there when it stops.
  const profile = process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : [];
  const server = await startServer(database ? { DATABASE_URL: database.url } : {}, profile);
  const target: SeedTarget = database ? { databaseUrl: database.url } : { dataDir: server.dataDir };
  try {
    await seedTerminals(target, TERMINALS, 3);
    const hub = await consoles(server.url, ['bench1', 'bench2'], 25, 5);
    log(`${label}: ${TERMINALS} terminals, 50 WebSocket + 5 long-polling hub clients; saturating for ${SECONDS} s`);
    const cpuBefore = cpuSeconds(server.process.pid ?? 0);
    const load_average_ingest = os.loadavg().map((n) => Math.round(n * 100) / 100);
    const saturated = await runLoad({
      url: server.url,
      first: 0,
      count: TERMINALS,
      window: WINDOW,
      rate: 0,
      seconds: SECONDS,
      batch: BATCH,
    });
    const cpu = cpuSeconds(server.process.pid ?? 0) - cpuBefore;
    // Rows in the table when the load stops (acknowledged ones may still wait in the queue) and 1.5 s later.
    const storedAtEnd = await historyCount(target);
    await sleep(1500);
    const stored = await historyCount(target);
    const rate = Math.min(5000, Math.round(0.8 * Number(saturated.ackedPerSecond)));
    log(`${label}: latency at ${rate} fixes/s for ${LATENCY_SECONDS} s`);
    for (const r of [...hub.ws, ...hub.lp]) r.measuring = true;
    // The server's own share of fix→console: its event-loop delay (prom-client's, reset at each scrape)
    // and how old each push's oldest change was when it went to a console (intercom_live_push_age_seconds).
    const metricsBefore = await scrapeMetrics(server.url);
    const paced = await runLoad({
      url: server.url,
      first: 0,
      count: TERMINALS,
      // Live fixes go one by one (a backlog is the exception), so latency is measured with `position`.
      window: 8,
      rate,
      seconds: LATENCY_SECONDS,
    });
    const metricsAfter = await scrapeMetrics(server.url);
    hub.stop();
    // The writer alone again after the load: on a shared machine a short run swings with the load, so
    // the ratio is taken against the faster of the two (the stricter ratio).
    const writerAfter = await writerAlone(label, databaseUrl);
    const writer = Math.max(writerBefore.writer_fixes_per_second, writerAfter.writer_fixes_per_second);
    const ratio = Math.round((Number(saturated.ackedPerSecond) / writer) * 100) / 100;
    return {
      database: label,
      fixes_per_message: BATCH,
      writer_alone: {
        fixes_per_second_before: writerBefore.writer_fixes_per_second,
        fixes_per_second_after: writerAfter.writer_fixes_per_second,
        load_average_before: load_average_writer,
      },
      ingest_to_writer_ratio: { value: ratio, goal: `>= ${RATIO_GOAL}`, met: ratio >= RATIO_GOAL },
      load_average_ingest,
      terminals: TERMINALS,
      window_per_terminal: WINDOW,
      sustained_seconds: saturated.seconds,
      positions_per_second: saturated.ackedPerSecond,
      per_second_min: Math.min(...(saturated.perSecond as number[]).slice(1, -1)),
      per_second_max: Math.max(...(saturated.perSecond as number[])),
      acked: saturated.acked,
      ack_ms_saturated: { p50: saturated.ackP50Ms, p99: saturated.ackP99Ms },
      rows_stored_when_load_stopped: storedAtEnd,
      rows_stored_1500ms_later: stored,
      load_errors: saturated.errors,
      server_cpu_seconds: Math.round(cpu * 10) / 10,
      positions_per_server_cpu_second: Math.round(Number(saturated.acked) / Math.max(cpu, 0.01)),
      latency_load_fixes_per_second: paced.ackedPerSecond,
      ack_ms_paced: { p50: paced.ackP50Ms, p99: paced.ackP99Ms },
      latency_websockets: latencyOf(hub.ws),
      latency_long_polling: latencyOf(hub.lp),
      server_share_paced: {
        push_age: histogramBetween(metricsBefore, metricsAfter, 'intercom_live_push_age_seconds', [50, 99]),
        event_loop_delay_ms: {
          p50: Math.round((metricsAfter.get('intercom_nodejs_eventloop_lag_p50_seconds') ?? NaN) * 1000),
          p99: Math.round((metricsAfter.get('intercom_nodejs_eventloop_lag_p99_seconds') ?? NaN) * 1000),
        },
      },
      server_rss_mib: rssMiB(server.process.pid ?? 0),
    };
  } finally {
    await server.stop();
    await database?.drop();
  }
}

async function memory() {
  const server = await startServer();
  try {
    await seedTerminals({ dataDir: server.dataDir }, 1000, 2);
    await sleep(2000);
    const base = rssMiB(server.process.pid ?? 0);
    let idle: ChildProcess | undefined;
    await new Promise<void>((resolve) => {
      idle = helper(
        'terminalLoad.ts',
        [JSON.stringify({ url: server.url, first: 0, count: 1000, window: 1, rate: 0, seconds: 0, idle: true })],
        () => resolve(),
      );
    });
    await sleep(3000);
    const withTerminals = rssMiB(server.process.pid ?? 0);
    const hub = await consoles(server.url, ['bench1', 'bench2'], 50);
    await sleep(3000);
    const withHub = rssMiB(server.process.pid ?? 0);
    hub.stop();
    idle?.kill('SIGTERM');
    return {
      rss_idle_mib: base,
      rss_per_1000_terminals_mib: Math.round((withTerminals - base) * 10) / 10,
      rss_per_100_hub_connections_mib: Math.round((withHub - withTerminals) * 10) / 10,
    };
  } finally {
    await server.stop();
  }
}

/** Updates a second of the paced broadcast phase: both servers keep up, so their CPU compares. */
const PACED_UPDATES_PER_SECOND = 5000;

/** What one phase of the broadcast part delivered, and what the server spent on it. */
interface Phase {
  produced_updates: unknown;
  records_delivered_per_second: number;
  messages_delivered: number;
  bytes_per_record: number;
  server_cpu_seconds: number;
  server_system_cpu_seconds: number;
  records_per_server_cpu_second: number;
  records_per_server_user_cpu_second: number;
}

/** BENCH_BROADCAST_ROUNDS: rounds of the saturated and the paced phase per server (the median is the figure). */
const BROADCAST_ROUNDS = Number(process.env.BENCH_BROADCAST_ROUNDS ?? 3);

/**
 * Broadcast throughput: 100 WebSocket clients that only count records (no parsing), a producer of
 * GPS updates inside the server process; the same clients and producer for both servers. Saturated
 * for 10 s (as fast as the clients take it), then paced at a fixed rate for 10 s.
 */
async function broadcast(
  mode: 'hub' | 'socketio',
  options: { pushIntervalMs?: number; pacedOnly?: boolean; messagePack?: boolean } = {},
) {
  const seconds = 10;
  const lines: Record<string, unknown>[] = [];
  const args = options.pushIntervalMs === undefined ? [mode] : [mode, String(options.pushIntervalMs)];
  const child = helper('broadcastServer.ts', args, (value) => lines.push(value));
  while (lines.length === 0) await sleep(50);
  const url = `http://127.0.0.1:${String(lines[0]?.port)}`;
  let receivers: Receiver[];
  let stop: () => void;
  if (mode === 'hub' && options.messagePack) {
    receivers = [];
    const stops: (() => void)[] = [];
    for (const account of ['bench1', 'bench2']) {
      const token = await login(url, account, SEED_PASSWORD, 'DEMO');
      for (let i = 0; i < 50; i++) {
        const receiver = new BinaryReceiver();
        stops.push(await messagePackClient(url, token, receiver));
        receivers.push(receiver);
      }
    }
    stop = () => stops.forEach((s) => s());
  } else if (mode === 'hub') {
    const hub = await consoles(url, ['bench1', 'bench2'], 50, 0, 0);
    receivers = hub.ws;
    stop = hub.stop;
  } else {
    receivers = Array.from({ length: 100 }, () => new Receiver(false));
    const stops = await Promise.all(receivers.map((r) => socketIoCounter(url, r)));
    stop = () => stops.forEach((s) => s());
  }
  await sleep(1000);
  const total = () => receivers.reduce((n, r) => n + r.records, 0);
  const pushes = () => receivers.reduce((n, r) => n + r.pushes, 0);
  const chars = () => receivers.reduce((n, r) => n + r.chars, 0);
  /** One phase: `go` with its arguments, then what was delivered and what the server spent. */
  const phase = async (command: string): Promise<Phase> => {
    const pid = child.pid ?? 0;
    const before = { records: total(), pushes: pushes(), chars: chars(), cpu: cpuParts(pid), lines: lines.length };
    child.stdin?.write(`${command}\n`);
    while (lines.length === before.lines) await sleep(50);
    await sleep(500); // what is still on its way when the producer stops
    const records = total() - before.records;
    const after = cpuParts(pid);
    const user = after.user - before.cpu.user;
    const system = after.system - before.cpu.system;
    const cpu = user + system;
    return {
      produced_updates: lines.at(-1)?.produced,
      records_delivered_per_second: Math.round(records / seconds),
      messages_delivered: pushes() - before.pushes,
      bytes_per_record: Math.round(((chars() - before.chars) / Math.max(records, 1)) * 10) / 10,
      server_cpu_seconds: Math.round(cpu * 10) / 10,
      // The kernel's part (socket writes; on loopback it includes the receiving side's TCP input).
      server_system_cpu_seconds: Math.round(system * 10) / 10,
      records_per_server_cpu_second: Math.round(records / Math.max(cpu, 0.01)),
      records_per_server_user_cpu_second: Math.round(records / Math.max(user, 0.01)),
    };
  };
  // Rounds of both phases; each figure is the round with the median records per server CPU-second.
  // One 10 s phase on loopback varies by a quarter from run to run (whose system call or softirq
  // does a socket's TCP work, and when conflation starts), so one round alone is not a figure.
  const rounds: { saturated?: Phase; paced: Phase }[] = [];
  for (let round = 0; round < BROADCAST_ROUNDS; round++) {
    rounds.push({
      ...(options.pacedOnly ? {} : { saturated: await phase(`go ${seconds}`) }),
      paced: await phase(`go ${seconds} ${PACED_UPDATES_PER_SECOND}`),
    });
  }
  stop();
  child.kill('SIGTERM');
  const median = (of: Phase[]) => {
    const sorted = [...of].sort((a, b) => a.records_per_server_cpu_second - b.records_per_server_cpu_second);
    return { ...sorted[Math.floor(sorted.length / 2)]!, rounds: of.map((p) => p.records_per_server_cpu_second) };
  };
  const saturated = rounds.flatMap((r) => (r.saturated ? [r.saturated] : []));
  return {
    server: mode,
    clients: 100,
    ...(options.pushIntervalMs === undefined ? {} : { push_interval_ms: options.pushIntervalMs }),
    saturated: saturated.length > 0 ? median(saturated) : undefined,
    paced: median(rounds.map((r) => r.paced)),
  };
}

const figures: Record<string, unknown> = {
  bench: 'ingest',
  machine: `${os.cpus().length} cores, node ${process.version}`,
  load_average_at_start: os.loadavg().map((n) => Math.round(n * 100) / 100),
};
// BENCH_PARTS: a comma list of sqlite, postgres, memory, broadcast (default all).
const parts = new Set((process.env.BENCH_PARTS ?? 'sqlite,postgres,memory,broadcast').split(','));
if (parts.has('sqlite')) figures.sqlite = await ingest('sqlite');
if (PG_URL && parts.has('postgres')) figures.postgres = await ingest('postgres', PG_URL);
if (parts.has('memory')) figures.memory = await memory();
// BENCH_HUB_PROTOCOL=messagepack: the hub's clients speak SignalR's MessagePack protocol, and each GPS
// push reaches them as one binary position block (the console's protocol); json (default) as before.
const HUB_PROTOCOL = process.env.BENCH_HUB_PROTOCOL === 'messagepack' ? 'messagepack' : 'json';
if (parts.has('broadcast')) {
  const messagePack = HUB_PROTOCOL === 'messagepack';
  const hub = await broadcast('hub', { messagePack });
  const sio = await broadcast('socketio');
  // The hub as the product runs it: the same paced updates, pushed every HUB_PUSH_INTERVAL_MS.
  const hubProduct = await broadcast('hub', {
    pushIntervalMs: DEFAULT_HUB_PUSH_INTERVAL_MS,
    pacedOnly: true,
    messagePack,
  });
  const ratio = (a: number, b: number) => Math.round((a / b) * 100) / 100;
  if (!hub.saturated || !sio.saturated) throw new Error('a broadcast run without its saturated phase');
  figures.broadcast = {
    hub_protocol: HUB_PROTOCOL,
    hub,
    socketio: sio,
    hub_at_product_interval: hubProduct,
    saturated_ratio_delivered: ratio(
      hub.saturated.records_delivered_per_second,
      sio.saturated.records_delivered_per_second,
    ),
    saturated_ratio_per_cpu_second: ratio(
      hub.saturated.records_per_server_cpu_second,
      sio.saturated.records_per_server_cpu_second,
    ),
    paced_ratio_per_cpu_second: ratio(hub.paced.records_per_server_cpu_second, sio.paced.records_per_server_cpu_second),
    // The same records in fewer, larger pushes: what a console of the product gets.
    paced_at_product_interval_ratio_per_cpu_second: ratio(
      hubProduct.paced.records_per_server_cpu_second,
      sio.paced.records_per_server_cpu_second,
    ),
    // The same ratios over the servers' own code only (user time), without the kernel's socket writes.
    saturated_ratio_per_user_cpu_second: ratio(
      hub.saturated.records_per_server_user_cpu_second,
      sio.saturated.records_per_server_user_cpu_second,
    ),
    paced_ratio_per_user_cpu_second: ratio(
      hub.paced.records_per_server_user_cpu_second,
      sio.paced.records_per_server_user_cpu_second,
    ),
  };
}
figures.load_average_at_end = os.loadavg().map((n) => Math.round(n * 100) / 100);
process.stdout.write(`${JSON.stringify(figures, null, 2)}\n`);
process.exit(0);
