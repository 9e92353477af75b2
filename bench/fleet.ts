// 10,000 terminals on one instance (issue 52): the built server (SQLite) with a fleet of terminals
// through TerminalSocket, each reporting a position every 10 s and a status every 60 s, in channels
// of 1,000 where one member talks a burst every 30 s, and one console open on the live map. Then the
// server restarts and every terminal logs in again with its resume token. Prints one JSON object
// whose `figures` are each {value, goal, met}: rssMb and serverCpuPercent (the server process over
// the measuring window), loginStormSeconds (the restarted server ready to the last terminal back),
// consoleSnapshotMs (the live map opened to its first frame with every terminal, less the same
// opening's first frame before any terminal was online; from navigation start beside it), fixesLost
// (fixes the server acked minus rows in location_history after the run). The load runs in its own
// process of worker threads (support/fleetLoad.ts); its CPU is printed beside the figures.
//   node scripts/build.mjs && npx tsx bench/fleet.ts
// FLEET_TERMINALS (10000), FLEET_SECONDS (measuring window, 120), FLEET_CHANNELS (10, of
// FLEET_TERMINALS / FLEET_CHANNELS members each), FLEET_POSITION_SECONDS (10), FLEET_STATUS_SECONDS
// (60), FLEET_TALK_EVERY_SECONDS (30), FLEET_TALK_SECONDS (length of a burst, 2), FLEET_WORKERS (load
// threads, 2), FLEET_CONSOLE=0 (no browser: consoleSnapshotMs null), FLEET_PROFILE=1 (the server's
// hottest functions over the measuring window, through its inspector: support/inspectorProfile.ts;
// FLEET_PROFILE=storm: over the logins after the restart instead).
import { execSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import { benchChannelMembers, createBenchChannel } from './support/benchChannel.js';
import { topFunctions } from './support/cpuProfile.js';
import { consoleSnapshot, openLiveConsole, type ConsoleSnapshot } from './support/fleetConsole.js';
import type { FleetCounters } from './support/fleetCounters.js';
import { helper } from './support/helperProcess.js';
import { startInspectorProfile } from './support/inspectorProfile.js';
import { login } from './support/login.js';
import { historyCount, seedTerminals, terminalPhone } from './support/seedTerminals.js';
import { BENCH_PASSWORD, rssMiB, startServer, type RunningServer } from './support/startServer.js';
import { cpuSeconds } from './support/terminalPeer.js';

const env = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
const TERMINALS = env('FLEET_TERMINALS', 10_000);
const SECONDS = env('FLEET_SECONDS', 120);
const CHANNELS = env('FLEET_CHANNELS', 10);
const CHANNEL_SIZE = Math.ceil(TERMINALS / CHANNELS);
const WORKERS = env('FLEET_WORKERS', 2);
const CONSOLE = process.env.FLEET_CONSOLE !== '0';
/** FLEET_PROFILE: `1` or `window` profiles the measuring window, `storm` the logins after the restart. */
const PROFILE = process.env.FLEET_PROFILE === 'storm' ? 'storm' : process.env.FLEET_PROFILE ? 'window' : null;
const load = {
  positionMs: env('FLEET_POSITION_SECONDS', 10) * 1000,
  statusMs: env('FLEET_STATUS_SECONDS', 60) * 1000,
  talkMs: env('FLEET_TALK_EVERY_SECONDS', 30) * 1000,
  talkBurstMs: env('FLEET_TALK_SECONDS', 2) * 1000,
};
const noConsole: ConsoleSnapshot = { firstFrameMs: null, firstRenderMs: null, marks: {}, reason: 'FLEET_CONSOLE=0' };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const log = (line: string) => process.stderr.write(`[fleet] ${line}\n`);
const round = (value: number, digits = 1) => Math.round(value * 10 ** digits) / 10 ** digits;
const verdict = (value: number | null, goal: string, met: boolean, extra: Record<string, unknown> = {}) => ({
  value,
  goal,
  met,
  ...extra,
});

/** Busy and total jiffies of the whole machine (/proc/stat), for its load beside the processes'. */
function machineTicks(): { busy: number; total: number } {
  const fields = (fs.readFileSync('/proc/stat', 'utf8').split('\n')[0] ?? '').trim().split(/\s+/).slice(1).map(Number);
  const total = fields.reduce((a, b) => a + b, 0);
  return { busy: total - (fields[3] ?? 0) - (fields[4] ?? 0), total };
}

/** Resolves with the load's counters once `until` holds for them, or rejects after `timeoutMs`. */
async function waitFor(until: (c: FleetCounters) => boolean, timeoutMs: number, what: string): Promise<FleetCounters> {
  for (const deadline = Date.now() + timeoutMs; Date.now() < deadline; await sleep(200)) {
    if (counters && until(counters)) return counters;
  }
  throw new Error(`${what}: not within ${timeoutMs / 1000} s (${JSON.stringify(counters)})`);
}

let counters: FleetCounters | undefined;
let finalCounters: FleetCounters | undefined;
const uptimeBefore = execSync('uptime').toString().trim();
let server: RunningServer = await startServer({ LOG_LEVEL: 'error' });
const dataDir = server.dataDir;
let loadProcess: ChildProcess | undefined;
let liveConsole: { close(): Promise<void> } | undefined;
try {
  log(`${TERMINALS} terminals in ${CHANNELS} channels of ${CHANNEL_SIZE}: seeding`);
  await seedTerminals({ dataDir }, TERMINALS, 1);
  const cids = Array.from({ length: CHANNELS }, (_, k) => {
    const phones = Array.from({ length: Math.min(CHANNEL_SIZE, TERMINALS - k * CHANNEL_SIZE) }, (_, i) =>
      terminalPhone(k * CHANNEL_SIZE + i),
    );
    return createBenchChannel(dataDir, `Fleet ${k + 1}`, benchChannelMembers(dataDir, phones));
  });
  const token = await login(server.url, 'admin', BENCH_PASSWORD, 'DEMO');
  // The same opening of the live map before any terminal is online: its first frame is SwiftShader's
  // and the page's own cost, which issue 52 separates from drawing the users (as bench/map.ts does).
  const empty: ConsoleSnapshot = CONSOLE ? await consoleSnapshot(server.url, token, 0) : { ...noConsole };
  if (CONSOLE) log(`console, empty map: ${JSON.stringify(empty)}`);
  const rampStarted = performance.now();
  loadProcess = helper(
    'fleetLoad.ts',
    [
      JSON.stringify({
        url: server.url,
        terminals: TERMINALS,
        workers: WORKERS,
        channelSize: CHANNEL_SIZE,
        cids,
        ...load,
        loginConcurrency: 50,
      }),
    ],
    (line) => {
      counters = line as unknown as FleetCounters;
      if (line.final) finalCounters = counters;
    },
  );
  const loadPid = loadProcess.pid as number;
  // Every terminal logged in and joined, or as many as got in before the count stalled for a minute.
  let ramp = { online: 0, grewAt: Date.now() };
  while (!(counters && counters.online >= TERMINALS && counters.joined >= TERMINALS)) {
    if (counters && counters.online > ramp.online) ramp = { online: counters.online, grewAt: Date.now() };
    if (Date.now() - ramp.grewAt > 60_000) break;
    await sleep(200);
  }
  const loginRampSeconds = round((performance.now() - rampStarted) / 1000);
  log(`${counters?.online} of ${TERMINALS} online after ${loginRampSeconds} s; the first fixes settle for 15 s`);
  await sleep(15_000);

  let snapshot: ConsoleSnapshot = { ...noConsole };
  if (CONSOLE) {
    snapshot = await consoleSnapshot(server.url, token, TERMINALS);
    log(`console snapshot: ${JSON.stringify(snapshot)}`);
    liveConsole = await openLiveConsole(server.url, token);
    log('a console is open on the live map');
  }

  // The measuring window: the server's CPU and peak RSS, the load's CPU, the machine's.
  const pid = server.process.pid as number;
  const before = { server: cpuSeconds(pid), load: cpuSeconds(loadPid), machine: machineTicks(), c: counters! };
  let peakRss = rssMiB(pid);
  const rssSamples: number[] = [];
  const sampler = setInterval(() => {
    const rss = rssMiB(pid);
    rssSamples.push(rss);
    peakRss = Math.max(peakRss, rss);
  }, 1000);
  const stopProfile = PROFILE === 'window' ? await startInspectorProfile(pid) : undefined;
  const windowStarted = performance.now();
  await sleep(SECONDS * 1000);
  clearInterval(sampler);
  const serverHot = stopProfile ? topFunctions(await stopProfile(), 30) : undefined;
  if (serverHot) log(`server's hottest functions over the window (ms self time) ${JSON.stringify(serverHot, null, 1)}`);
  const elapsed = (performance.now() - windowStarted) / 1000;
  const after = { server: cpuSeconds(pid), load: cpuSeconds(loadPid), machine: machineTicks(), c: counters! };
  const machineBusyCores =
    ((after.machine.busy - before.machine.busy) / (after.machine.total - before.machine.total)) * os.cpus().length;
  const window = {
    seconds: round(elapsed),
    serverCpuPercent: round(((after.server - before.server) / elapsed) * 100),
    serverRssMiB: { first: rssSamples[0] ?? null, last: rssSamples.at(-1) ?? null, peak: peakRss },
    loadCpuPercent: round(((after.load - before.load) / elapsed) * 100),
    machineBusyCores: round(machineBusyCores, 2),
    positionsAckedPerSecond: round((after.c.positionsAcked - before.c.positionsAcked) / elapsed),
    statusAckedPerSecond: round((after.c.statusAcked - before.c.statusAcked) / elapsed, 2),
    talkBursts: after.c.bursts - before.c.bursts,
    framesSent: after.c.framesSent - before.c.framesSent,
    framesReceivedPerSecond: round((after.c.framesReceived - before.c.framesReceived) / elapsed),
    online: after.c.online,
  };
  log(`window: ${JSON.stringify(window)}`);

  // The restart: SIGTERM (the server acks what it holds, then closes), the same data and port again.
  const loginsBefore = counters!.logins;
  const resumedBefore = counters!.resumed;
  const stopSent = Date.now();
  server.process.kill('SIGTERM');
  await new Promise((r) => (server.process.exitCode !== null ? r(null) : server.process.once('exit', r)));
  const exitedAt = Date.now();
  log(`restart: the server exited ${exitedAt - stopSent} ms after SIGTERM`);
  server = await startServer({ LOG_LEVEL: 'error', DATA_DIR: dataDir, PORT: new URL(server.url).port });
  const readyAt = Date.now();
  log(`restart: ready again after ${readyAt - exitedAt} ms; waiting for every terminal`);
  const newPid = server.process.pid as number;
  let stormRss = rssMiB(newPid);
  const stormSampler = setInterval(() => (stormRss = Math.max(stormRss, rssMiB(newPid))), 200);
  const stormCpu = cpuSeconds(newPid);
  const stopStormProfile = PROFILE === 'storm' ? await startInspectorProfile(newPid) : undefined;
  const back = await waitFor(
    (c) => c.logins - loginsBefore >= TERMINALS && c.online >= TERMINALS,
    300_000,
    'logins after the restart',
  ).catch((error: unknown) => {
    log(String(error));
    return null;
  });
  clearInterval(stormSampler);
  const stormHot = stopStormProfile ? topFunctions(await stopStormProfile(), 40) : undefined;
  if (stormHot) log(`server's hottest functions over the storm (ms self time) ${JSON.stringify(stormHot, null, 1)}`);
  const storm = {
    shutdownMs: exitedAt - stopSent,
    startMs: readyAt - exitedAt,
    readyToLastLoginMs: back ? back.lastLoginAt - readyAt : null,
    stopToLastLoginMs: back ? back.lastLoginAt - stopSent : null,
    relogins: (back ?? counters!).logins - loginsBefore,
    resumed: (back ?? counters!).resumed - resumedBefore,
    serverCpuSeconds: round(cpuSeconds(newPid) - stormCpu, 2),
    serverPeakRssMiB: stormRss,
  };
  log(`storm: ${JSON.stringify(storm)}`);
  // A while of reports on the restarted server, then the fleet stops and the stored rows are counted.
  await sleep(15_000);
  loadProcess.stdin?.write('stop\n');
  for (const deadline = Date.now() + 60_000; !finalCounters && Date.now() < deadline;) await sleep(200);
  const final = finalCounters ?? counters!;
  const rows = await historyCount({ dataDir });
  const fixesLost = Math.max(0, final.positionsAcked - rows);
  const loadCpuSecondsTotal = cpuSeconds(loadPid);
  // After it opens: the first frame with every terminal, less the empty map's first frame in the same
  // run (SwiftShader's own cost, as issue 52 separates it for bench/map.ts); from navigation start beside it.
  const drawMs =
    snapshot.firstFrameMs !== null && empty.firstFrameMs !== null ? snapshot.firstFrameMs - empty.firstFrameMs : null;
  const consoleMet = drawMs !== null && drawMs <= 1000;
  const figures = {
    rssMb: verdict(peakRss, '<= 600 (peak RSS of the server process over the window, MiB)', peakRss <= 600),
    serverCpuPercent: verdict(
      window.serverCpuPercent,
      '<= 50 (% of one core over the window)',
      window.serverCpuPercent <= 50,
    ),
    loginStormSeconds: verdict(
      storm.readyToLastLoginMs === null ? null : round(storm.readyToLastLoginMs / 1000),
      '<= 60 (restarted server ready to the last of every terminal logged in again)',
      storm.readyToLastLoginMs !== null && storm.readyToLastLoginMs <= 60_000,
      {
        fromStopSeconds: storm.stopToLastLoginMs === null ? null : round(storm.stopToLastLoginMs / 1000),
      },
    ),
    consoleSnapshotMs: verdict(
      drawMs,
      "<= 1000 (first frame with every terminal, less the empty map's first frame, same run)",
      consoleMet,
      {
        fromNavigationMs: snapshot.firstFrameMs,
        emptyMapFirstFrameMs: empty.firstFrameMs,
        ...(snapshot.reason || empty.reason ? { reason: snapshot.reason ?? empty.reason } : {}),
      },
    ),
    fixesLost: verdict(fixesLost, '0 (fixes acked minus rows in location_history)', fixesLost === 0, {
      acked: final.positionsAcked,
      rows,
    }),
  };
  const result = {
    bench: '10,000 terminals on one instance (issue 52)',
    cpu: os.cpus()[0]?.model,
    cores: os.cpus().length,
    uptimeBefore,
    uptimeAfter: execSync('uptime').toString().trim(),
    sizes: { terminals: TERMINALS, channels: CHANNELS, channelSize: CHANNEL_SIZE, workers: WORKERS, ...load },
    figures,
    loginRampSeconds,
    window,
    ...(serverHot ? { serverHottestFunctions: serverHot } : {}),
    storm,
    consoleSnapshot: snapshot,
    consoleEmptyMap: empty,
    loadGenerator: {
      workers: WORKERS,
      cpuPercentOfOneCoreInWindow: window.loadCpuPercent,
      cpuSecondsWholeRun: round(loadCpuSecondsTotal, 1),
    },
    finalCounters: final,
  };
  process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
} finally {
  loadProcess?.kill('SIGTERM');
  await liveConsole?.close();
  await server.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
}
