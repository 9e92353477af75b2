// Incident membership latency (issue 32): from a terminal's `position` whose fix crosses into an
// open incident zone to the `regrouped` push on that terminal's socket, and from a fix that leaves to
// its `channelLeft` `left_zone`. The built server as a child process (SQLite, or DATABASE_URL), real
// /terminal sockets, the zone created through POST /api/Incident/Create; while the crossings run,
// INCIDENT_BENCH_BACKGROUND other terminals each send a fix a second elsewhere in the enterprise.
//   npx tsc -b packages/contract packages/media packages/terminal-client apps/server && npx tsx bench/incident.ts
// INCIDENT_BENCH_CROSSINGS (250), INCIDENT_BENCH_WALKERS (10), INCIDENT_BENCH_BACKGROUND (200).
import os from 'node:os';
import { TERMINAL_PATH } from '@intercom/contract';
import { login } from './support/login.js';
import { seedTerminals, SEED_PASSWORD, terminalPhone } from './support/seedTerminals.js';
import { percentile, startServer } from './support/startServer.js';
import { TerminalPeer } from './support/terminalPeer.js';
import type { RawData } from 'ws';
import { wsText } from './support/wsText.js';

const CROSSINGS = Number(process.env.INCIDENT_BENCH_CROSSINGS ?? 250);
const WALKERS = Number(process.env.INCIDENT_BENCH_WALKERS ?? 10);
const BACKGROUND = Number(process.env.INCIDENT_BENCH_BACKGROUND ?? 200);
const CENTER: [number, number] = [22.54, 114.05];
const north = (metres: number) => CENTER[0] + metres / 111_195;

const databaseUrl = process.env.DATABASE_URL;
const server = await startServer(databaseUrl ? { DATABASE_URL: databaseUrl } : {});
await seedTerminals(databaseUrl ? { databaseUrl } : { dataDir: server.dataDir }, WALKERS + BACKGROUND, 1);
const token = await login(server.url, 'bench1', SEED_PASSWORD, 'DEMO');
const terminalUrl = `${server.url.replace('http', 'ws')}${TERMINAL_PATH}`;
const open = (i: number) => TerminalPeer.open(terminalUrl, { phone: terminalPhone(i), password: SEED_PASSWORD });

const walkers = await Promise.all(Array.from({ length: WALKERS }, (_, i) => open(i)));
const background = await Promise.all(Array.from({ length: BACKGROUND }, (_, i) => open(WALKERS + i)));
let clock = Date.now();
/** Fixes sent without waiting for their ack (the clock starts at the send); awaited before the end. */
const inFlight: Promise<unknown>[] = [];
const send = (peer: TerminalPeer, message: Record<string, unknown>) => {
  inFlight.push(peer.request(message).catch(() => undefined));
};
const fix = (lat: number, lon = CENTER[1]) => ({ type: 'position', lat, lon, time: ++clock, accuracy: 5 });
// Everyone online with a fix outside the zone before it opens.
await Promise.all([...walkers, ...background].map((p, i) => p.request(fix(north(2_000 + i)))));

const created = await fetch(`${server.url}/api/Incident/Create`, {
  method: 'POST',
  headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
  body: JSON.stringify({ Name: 'Bench zone', Kind: 'circle', Center: CENTER, Radius: 300 }),
});
const { BaseData } = (await created.json()) as { BaseData: { IN_ID: number; CID: number } };
const { CID } = BaseData;

const stopBackground = setInterval(() => {
  for (const [i, peer] of background.entries()) send(peer, fix(north(3_000 + i), CENTER[1] + 0.01));
}, 1_000);

/** The next text push of `type` for the channel on the peer's socket, with its arrival time. */
function nextPush(peer: TerminalPeer, type: string): Promise<number> {
  return new Promise((resolve) => {
    const listener = (data: RawData, binary: boolean) => {
      if (binary) return;
      const message = JSON.parse(wsText(data)) as { type?: string; cid?: number };
      if (message.type !== type || message.cid !== CID) return;
      peer.socket.off('message', listener);
      resolve(performance.now());
    };
    peer.socket.on('message', listener);
  });
}

const enter: number[] = [];
const leave: number[] = [];
const started = performance.now();
for (let round = 0; enter.length < CROSSINGS; round++) {
  // The walkers cross at once, each into the zone and back out: WALKERS crossings in flight together.
  await Promise.all(
    walkers.map(async (peer, i) => {
      const joined = nextPush(peer, 'regrouped');
      const t0 = performance.now();
      send(peer, fix(north(-250 + 50 * (i % 10))));
      enter.push((await joined) - t0);
      const left = nextPush(peer, 'channelLeft');
      const t1 = performance.now();
      send(peer, fix(north(1_000 + round)));
      leave.push((await left) - t1);
    }),
  );
}
const seconds = (performance.now() - started) / 1000;
clearInterval(stopBackground);
await Promise.all(inFlight);

const sorted = (values: number[]) => [...values].sort((a, b) => a - b);
const [enterSorted, leaveSorted] = [sorted(enter), sorted(leave)];
console.log(
  JSON.stringify(
    {
      database: databaseUrl ? 'postgresql' : 'sqlite',
      crossings: enter.length,
      walkersAtOnce: WALKERS,
      backgroundTerminals: BACKGROUND,
      seconds: Math.round(seconds * 10) / 10,
      enterToRegroupedMs: {
        p50: percentile(enterSorted, 50),
        p99: percentile(enterSorted, 99),
        max: percentile(enterSorted, 100),
      },
      leaveToChannelLeftMs: {
        p50: percentile(leaveSorted, 50),
        p99: percentile(leaveSorted, 99),
        max: percentile(leaveSorted, 100),
      },
      cpu: os.cpus()[0]?.model,
      cores: os.cpus().length,
      loadAverage: os.loadavg().map((l) => Math.round(l * 100) / 100),
    },
    null,
    2,
  ),
);
for (const peer of [...walkers, ...background]) peer.socket.close();
await server.stop();
