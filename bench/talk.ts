// Push-to-talk figures (issue 12): 200 channels of 10 terminals with 20 simultaneous talkers, plus
// one channel of 1,000 listeners with its own talker, all on real WebSockets against the built server;
// then the same against two instances on one PostgreSQL database and one Redis, every channel's
// members alternating between the instances. Prints floor grant time (request to ack over loopback:
// the server's time plus two loopback hops), relay latency per frame (talker's send to each
// listener's receive), frames lost, and server CPU per 1,000 frames delivered.
//   npx tsc -b packages/contract packages/media packages/terminal-client apps/server && npx tsx bench/talk.ts
// BENCH_SECONDS (20): how long the talkers talk. BENCH_TWO=0 skips the two-instance run; it needs
// PostgreSQL (DATABASE_URL, an admin URL; default postgres://postgres@127.0.0.1:5432/postgres) and
// Redis (REDIS_URL, default redis://127.0.0.1:6379). The 1,000 listeners of the big channel run in
// LISTENER_PROCESSES (4) child processes; the small channels' terminals and the talkers run here.
// BENCH_CPU_PROF (a directory): the one-instance server's CPU profile.
import os from 'node:os';
import path from 'node:path';
import type { ChildProcess } from 'node:child_process';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { speechPackets } from '../packages/media/src/index.js';
import { decodeAudioDown, encodeAudioUp } from '../packages/terminal-client/src/index.js';
import { helper } from './support/helperProcess.js';
import { LatencyHistogram } from './support/latencyHistogram.js';
import { SEED_PASSWORD, seedTerminals, terminalPhone, type SeedTarget } from './support/seedTerminals.js';
import { createDatabase } from './support/seedUsers.js';
import { TerminalPeer, cpuParts, cpuSeconds } from './support/terminalPeer.js';
import { percentile, startServer, type RunningServer } from './support/startServer.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 20);
/** BENCH_BIG_TALKER=0 leaves the 1,000-listener channel silent (relay figures of the small channels alone). */
const BIG_TALKER = process.env.BENCH_BIG_TALKER !== '0';
const SMALL_CHANNELS = 200;
const SMALL_SIZE = 10;
const TALKERS = 20;
const BIG_SIZE = 1_000;
const TERMINALS = SMALL_CHANNELS * SMALL_SIZE + BIG_SIZE;
const LISTENER_PROCESSES = Number(process.env.LISTENER_PROCESSES ?? 4);
const TWO = process.env.BENCH_TWO !== '0';
const ADMIN_DB = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const REDIS = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const log = (line: string) => process.stderr.write(`[bench] ${line}\n`);
const epochNow = () => performance.timeOrigin + performance.now();
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Which terminals channel c (0..200) holds; channel 200 is the big one. */
function membersOf(c: number): [number, number] {
  return c < SMALL_CHANNELS ? [c * SMALL_SIZE, SMALL_SIZE] : [SMALL_CHANNELS * SMALL_SIZE, BIG_SIZE];
}

/** The channels (CIDs 1..201 on a fresh database) and their members. */
async function seedChannels(target: SeedTarget): Promise<void> {
  if (target.databaseUrl) return seedChannelsPostgres(target.databaseUrl);
  const db = new SQLite(path.join(target.dataDir as string, 'intercom.sqlite'));
  db.pragma('busy_timeout = 10000');
  const now = Date.now();
  db.transaction(() => {
    const channel = db.prepare(
      `insert into channel ("E_ID","CName","CTypeID","Note","Priority","VideoEnable","Record","CreatedAt") values (1,?,106,'',0,0,0,?)`,
    );
    const member = db.prepare(`insert into channel_member ("CID","UserID","E_ID","Priority") values (?,?,1,0)`);
    const users = db.prepare(`select "UserID" from terminal_user where "MobilePhone" = ?`);
    for (let c = 0; c <= SMALL_CHANNELS; c += 1) {
      const cid = Number(channel.run(`Bench${c}`, now).lastInsertRowid);
      const [from, size] = membersOf(c);
      for (let i = from; i < from + size; i += 1) {
        const row = users.get(terminalPhone(i)) as { UserID: number };
        member.run(cid, row.UserID);
      }
    }
  })();
  db.close();
}

async function seedChannelsPostgres(url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query('begin');
    for (let c = 0; c <= SMALL_CHANNELS; c += 1) {
      const row = await client.query<{ CID: number }>(
        `insert into channel ("E_ID","CName","CTypeID","Note","Priority","VideoEnable","Record","CreatedAt") values (1,$1,106,'',0,0,0,$2) returning "CID"`,
        [`Bench${c}`, Date.now()],
      );
      const [from, size] = membersOf(c);
      const phones = Array.from({ length: size }, (_, k) => terminalPhone(from + k));
      await client.query(
        `insert into channel_member ("CID","UserID","E_ID","Priority") select $1, "UserID", 1, 0 from terminal_user where "MobilePhone" = any($2::text[])`,
        [row.rows[0]?.CID, phones],
      );
    }
    await client.query('commit');
  } finally {
    await client.end();
  }
}

/** Big-channel listeners in child processes; resolves once all have joined. */
async function startListeners(urls: string[], cid: number, frames: number) {
  const per = Math.ceil((BIG_SIZE - 1) / LISTENER_PROCESSES);
  const first = SMALL_CHANNELS * SMALL_SIZE + 1; // the big channel's first member talks
  const children: { child: ChildProcess; results: Promise<Record<string, unknown>> }[] = [];
  const ready: Promise<void>[] = [];
  for (let p = 0; p < LISTENER_PROCESSES; p += 1) {
    const from = first + p * per;
    const count = Math.min(per, first + BIG_SIZE - 1 - from);
    let readyResolve: () => void = () => undefined;
    let doneResolve: (v: Record<string, unknown>) => void = () => undefined;
    ready.push(new Promise((r) => (readyResolve = r)));
    const results = new Promise<Record<string, unknown>>((r) => (doneResolve = r));
    const args = JSON.stringify({ urls, first: from, count, cid, frames });
    const child = helper('talkListeners.ts', [args], (line) => (line.ready ? readyResolve() : doneResolve(line)));
    children.push({ child, results });
  }
  await Promise.all(ready);
  return {
    /** Hands the talker's send times to the children; merges what they measured. */
    async finish(sent: Float64Array) {
      const line = `${JSON.stringify(Array.from(sent))}\n`;
      for (const { child } of children) child.stdin?.write(line);
      const histogram = new LatencyHistogram();
      let delivered = 0;
      for (const { results } of children) {
        const r = (await results) as { delivered: number; histogram: [number, number][] };
        delivered += r.delivered;
        histogram.mergePairs(r.histogram);
      }
      for (const { child } of children) child.kill();
      return { delivered, histogram };
    },
  };
}

function summary(values: number[]) {
  const sorted = [...values].sort((a, b) => a - b);
  const round = (n: number) => Math.round(n * 100) / 100;
  return { n: sorted.length, p50: round(percentile(sorted, 50)), p99: round(percentile(sorted, 99)) };
}

/** One run against `servers` (one, or two sharing a database and Redis): floor grants, then talk. */
async function scenario(label: string, servers: RunningServer[]) {
  const urls = servers.map((s) => `${s.url.replace('http', 'ws')}/terminal`);
  const local = SMALL_CHANNELS * SMALL_SIZE + 1; // the small channels' terminals and the big channel's talker
  const terminals: TerminalPeer[] = [];
  for (let i = 0; i < local; i += 50) {
    const batch = Array.from({ length: Math.min(50, local - i) }, (_, k) =>
      TerminalPeer.open(urls[(i + k) % urls.length] as string, {
        phone: terminalPhone(i + k),
        password: SEED_PASSWORD,
      }),
    );
    terminals.push(...(await Promise.all(batch)));
  }
  const cidOf = (i: number) => (i < SMALL_CHANNELS * SMALL_SIZE ? Math.floor(i / SMALL_SIZE) + 1 : SMALL_CHANNELS + 1);
  const bigCid = SMALL_CHANNELS + 1;
  for (let i = 0; i < local; i += 100) {
    await Promise.all(terminals.slice(i, i + 100).map((t, k) => t.request({ type: 'join', cid: cidOf(i + k) })));
  }
  const frames = SECONDS * 50;
  log(`${label}: ${local} terminals here, ${BIG_SIZE - 1} listeners in ${LISTENER_PROCESSES} processes`);
  const listeners = await startListeners(urls, bigCid, frames);

  // Floor grant: every small channel's first member asks for and releases the floor five times,
  // ten channels at a time (a burst of 200 at once would measure this process's queue, not the server).
  const grants: number[] = [];
  for (let round = 0; round < 5 * (SMALL_CHANNELS / 10); round += 1) {
    const first = (round % (SMALL_CHANNELS / 10)) * 10;
    await Promise.all(
      Array.from({ length: 10 }, async (_, k) => {
        const c = first + k;
        const t = terminals[c * SMALL_SIZE] as TerminalPeer;
        const started = performance.now();
        const reply = await t.request({ type: 'floorRequest', cid: c + 1 });
        if (reply.granted === true) grants.push(performance.now() - started);
        await t.request({ type: 'floorRelease', cid: c + 1 });
      }),
    );
    await sleep(5);
  }

  // Talk: talkers in channels spread over the 200, and one in the big channel, each 50 frames/s.
  const talkerIndexes = [
    ...Array.from({ length: TALKERS }, (_, k) => k * (SMALL_CHANNELS / TALKERS) * SMALL_SIZE),
    ...(BIG_TALKER ? [SMALL_CHANNELS * SMALL_SIZE] : []),
  ];
  const sentAt = new Map<number, Float64Array>();
  const latencies = new LatencyHistogram();
  const received = new Map<TerminalPeer, number>();
  for (const index of talkerIndexes) {
    const cid = cidOf(index);
    sentAt.set(cid, new Float64Array(frames));
    const reply = await (terminals[index] as TerminalPeer).request({ type: 'floorRequest', cid });
    if (reply.granted !== true) throw new Error(`talker ${index} not granted: ${JSON.stringify(reply)}`);
  }
  terminals.forEach((t, i) => {
    const cid = cidOf(i);
    if (!sentAt.has(cid) || talkerIndexes.includes(i) || cid === bigCid) return;
    received.set(t, 0);
    t.onFrame = (frame) => {
      const at = epochNow();
      received.set(t, (received.get(t) ?? 0) + 1);
      const down = decodeAudioDown(frame);
      const sent = down && sentAt.get(down.cid)?.[down.seq];
      if (sent) latencies.add(at - sent);
    };
  });
  const packets = speechPackets('unit-three');
  const pids = servers.map((s) => s.process.pid as number);
  const cpuOf = () => pids.reduce((sum, pid) => sum + cpuSeconds(pid), 0);
  const systemOf = () => pids.reduce((sum, pid) => sum + cpuParts(pid).system, 0);
  const cpuBefore = cpuOf();
  const systemBefore = systemOf();
  log(`${label}: ${talkerIndexes.length} talkers for ${SECONDS} s`);
  const start = performance.now();
  let skipped = 0;
  for (let seq = 0; seq < frames; seq += 1) {
    const wait = start + seq * 20 - performance.now();
    if (wait > 0) await sleep(wait);
    // This process fell behind (the machine is shared): a frame more than 100 ms late is skipped, as
    // a radio's encoder would not have produced it, rather than sent in a burst the server's flood
    // limit would rightly cut off. Expected counts follow the frames actually sent.
    if (wait < -100) {
      skipped += 1;
      continue;
    }
    for (const index of talkerIndexes) {
      const cid = cidOf(index);
      const packet = packets[seq % packets.length] as Buffer;
      const frame = encodeAudioUp({ cid, seq, opus: packet });
      (sentAt.get(cid) as Float64Array)[seq] = epochNow();
      (terminals[index] as TerminalPeer).sendFrame(frame);
    }
    // A heartbeat for the silent listeners now and then keeps them within the 90 s timeout.
    if (seq % 1500 === 0 && seq > 0) for (const t of terminals) t.heartbeat();
  }
  await sleep(1_000);
  const cpu = cpuOf() - cpuBefore;
  const system = systemOf() - systemBefore;
  const big = BIG_TALKER
    ? await listeners.finish(sentAt.get(bigCid) as Float64Array)
    : await listeners.finish(new Float64Array(frames));
  latencies.mergePairs(big.histogram.toJSON());
  const sentCount = (cid: number) => (sentAt.get(cid) ?? new Float64Array()).filter((t) => t > 0).length;
  const bigExpected = BIG_TALKER ? sentCount(bigCid) * (BIG_SIZE - 1) : 0;
  const smallExpected = terminals.reduce((n, t, i) => (received.has(t) ? n + sentCount(cidOf(i)) : n), 0);
  const smallDelivered = [...received.values()].reduce((a, b) => a + b, 0);
  const delivered = smallDelivered + big.delivered;
  for (const t of terminals) t.socket.terminate();
  const round = (n: number) => Math.round(n * 100) / 100;
  return {
    run: label,
    instances: servers.length,
    talkers: talkerIndexes.length,
    bigChannelTalks: BIG_TALKER,
    seconds: SECONDS,
    floorGrantMs: summary(grants),
    relayLatencyMs: { n: latencies.count, p50: latencies.percentile(50), p99: latencies.percentile(99) },
    bigChannelRelayLatencyMs: { p50: big.histogram.percentile(50), p99: big.histogram.percentile(99) },
    framesSent: (frames - skipped) * talkerIndexes.length,
    framesSkippedClientBehind: skipped * talkerIndexes.length,
    talkersRevoked: talkerIndexes.filter((i) =>
      (terminals[i] as TerminalPeer).pushes.some((m) => m.type === 'floorRevoked'),
    ).length,
    framesExpected: smallExpected + bigExpected,
    framesDelivered: delivered,
    framesLost: Math.max(0, smallExpected - smallDelivered) + Math.max(0, bigExpected - big.delivered),
    serverCpuSeconds: round(cpu),
    serverCpuMsPer1000Delivered: round((cpu * 1000 * 1000) / Math.max(1, delivered)),
    // The kernel's share: on loopback a socket write also runs the receiving side's TCP path.
    serverSystemCpuMsPer1000Delivered: round((system * 1000 * 1000) / Math.max(1, delivered)),
  };
}

async function seeded(target: SeedTarget): Promise<void> {
  log(`seeding ${TERMINALS} terminals and ${SMALL_CHANNELS + 1} channels`);
  await seedTerminals(target, TERMINALS, 0);
  await seedChannels(target);
}

async function main(): Promise<void> {
  const results: unknown[] = [];
  // BENCH_CPU_PROF=<dir>: the server writes a V8 CPU profile there when it stops.
  const profile = process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : [];
  const one = await startServer({}, profile);
  try {
    await seeded({ dataDir: one.dataDir });
    results.push(await scenario('one instance (SQLite)', [one]));
  } finally {
    await one.stop();
  }
  if (TWO) {
    const database = await createDatabase(ADMIN_DB);
    const env = { DATABASE_URL: database.url, REDIS_URL: REDIS };
    const a = await startServer(env);
    const b = await startServer(env);
    try {
      await seeded({ databaseUrl: database.url });
      results.push(await scenario('two instances (PostgreSQL + Redis)', [a, b]));
    } finally {
      await Promise.all([a.stop(), b.stop()]);
      await database.drop();
    }
  }
  const load = os.loadavg().map((n) => Math.round(n * 100) / 100);
  process.stdout.write(
    `${JSON.stringify({ bench: 'talk', terminals: TERMINALS, loadAverage: load, results }, null, 2)}\n`,
  );
}

await main();
