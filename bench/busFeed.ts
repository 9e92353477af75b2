// The server's share of the map's load (issue 10): CPU the server spends per second while every one
// of BUS_BENCH_USERS users (50,000) moves once a second over the Redis event bus, as another
// instance publishes them (bench/support/busLoad.ts), and one console on WebSockets is subscribed
// to FuncGPS. No browser: the figure is the server's alone, and how many of the moves it delivers.
//   npx tsc -b packages/contract apps/server && npx tsx bench/busFeed.ts
// BUS_BENCH_USERS (50000), BUS_BENCH_SECONDS (20), REDIS_URL (redis://127.0.0.1:6379); BUS_BENCH_PROFILE=1
// names the server's hottest functions; BUS_BENCH_CONSOLE=messagepack subscribes the console on
// SignalR's MessagePack protocol, as the web console does (binary position blocks), instead of JSON;
// BUS_BENCH_FRAME=json has the load publish JSON envelopes instead of binary users frames.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { topFunctions, type CpuProfile } from './support/cpuProfile.js';
import { helper } from './support/helperProcess.js';
import { BinaryReceiver, Receiver, messagePackClient, webSocketClient } from './support/hubClients.js';
import { login } from './support/login.js';
import { seedTerminals } from './support/seedTerminals.js';
import { BENCH_PASSWORD, percentile, startServer } from './support/startServer.js';

const USERS = Number(process.env.BUS_BENCH_USERS ?? 50_000);
const SECONDS = Number(process.env.BUS_BENCH_SECONDS ?? 20);
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const TICKS_PER_SECOND = 100;
const CONSOLE = process.env.BUS_BENCH_CONSOLE === 'messagepack' ? 'messagepack' : 'json';
const FRAME = process.env.BUS_BENCH_FRAME === 'json' ? 'json' : 'binary';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** User plus system CPU of a process so far, ms (/proc/<pid>/stat, fields 14 and 15). */
function cpuMs(pid: number): number {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
}

const prefix = `busbench-${process.pid}`;
const profileDir = process.env.BUS_BENCH_PROFILE ? fs.mkdtempSync(path.join(os.tmpdir(), 'bus-prof-')) : null;
const server = await startServer(
  { LOG_LEVEL: 'error', REDIS_URL, REDIS_PREFIX: prefix },
  profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [],
);
const stops: (() => void)[] = [];
try {
  await seedTerminals({ dataDir: server.dataDir }, USERS, 1);
  const published: number[] = [];
  await new Promise<void>((resolve, reject) => {
    const load = helper(
      'busLoad.ts',
      [
        JSON.stringify({
          redisUrl: REDIS_URL,
          channel: `${prefix}:realtime`,
          dataDir: server.dataDir,
          count: USERS,
          frame: FRAME,
        }),
      ],
      (line) => {
        if (line.ready) resolve();
        if (line.perSecond !== undefined) published.push(Number(line.perSecond));
      },
    );
    load.once('exit', (code) => reject(new Error(`the bus load exited with ${code}`)));
    stops.push(() => load.kill());
  });
  const token = await login(server.url, 'admin', BENCH_PASSWORD, 'DEMO');
  const receiver = CONSOLE === 'messagepack' ? new BinaryReceiver() : new Receiver(false);
  stops.push(
    CONSOLE === 'messagepack'
      ? await messagePackClient(server.url, token, receiver as BinaryReceiver)
      : await webSocketClient(server.url, token, receiver),
  );
  await sleep(5000);
  const pid = server.process.pid!;
  const perSecond: number[] = [];
  const delivered: number[] = [];
  for (let second = 0; second < SECONDS; second++) {
    const cpu = cpuMs(pid);
    const records = receiver.records;
    await sleep(1000);
    perSecond.push(cpuMs(pid) - cpu);
    delivered.push(receiver.records - records);
  }
  const sorted = (values: number[]) => [...values].sort((a, b) => a - b);
  console.log(
    JSON.stringify(
      {
        users: USERS,
        seconds: SECONDS,
        console: CONSOLE,
        busFrame: FRAME,
        serverCpuMsPerSecond: { p50: percentile(sorted(perSecond), 50), max: Math.max(...perSecond) },
        deliveredPerSecond: { p50: percentile(sorted(delivered), 50), min: Math.min(...delivered) },
        publishedPerSecond: percentile(sorted(published), 50),
      },
      null,
      2,
    ),
  );
} finally {
  for (const stop of stops) stop();
  await server.stop();
  if (profileDir) {
    for (const file of fs.readdirSync(profileDir)) {
      const profile = JSON.parse(fs.readFileSync(path.join(profileDir, file), 'utf8')) as CpuProfile;
      console.log(`server's hottest functions (ms self time): ${JSON.stringify(topFunctions(profile, 20))}`);
    }
    fs.rmSync(profileDir, { recursive: true, force: true });
  }
}
