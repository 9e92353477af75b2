// Video figures (issue 14), on real WebSockets against the built server:
// - glass to glass (issue 34): the simulator's camera encoding live to H.264 with ffmpeg, the console
//   in Chromium decoding it with WebCodecs; capture time (before encoding) to the picture drawn on the
//   Video page (bench/support/videoGlass.ts). VIDEO_BENCH_GLASS_SECONDS (20); VIDEO_BENCH_GLASS_ONLY=1
//   runs this step alone;
// - one JPEG camera: the delay estimate of the pure-JS path, capture time to a viewer's picture
//   decoded, = the camera's JPEG encode + relay (camera send to viewer receive) + JPEG decode;
// - server CPU per relayed megabit (VIDEO_BENCH_VIEWERS viewers watching one 25 fps stream);
// - viewers per stream before frames drop: more and more viewers until one loses frames.
//   node scripts/build.mjs && npx tsx bench/video.ts
// VIDEO_BENCH_SECONDS (8) per step; VIDEO_BENCH_SIZE (640x480); VIDEO_BENCH_FPS (25). The camera and
// the viewers run in this process beside the server, on a shared machine: figures are upper bounds.
// VIDEO_BENCH_ACROSS=1: the camera on one instance, 1 then VIDEO_BENCH_VIEWERS viewers on another,
// both on PostgreSQL (DATABASE_URL, an admin URL; default postgres://postgres@127.0.0.1:5432/postgres)
// and Redis (REDIS_URL, default redis://127.0.0.1:6379): relay delay across the backplane and the CPU
// of both instances per megabit relayed to the viewers.
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import jpeg from 'jpeg-js';
import pg from 'pg';
import { TestPattern } from '../apps/simulator/src/testPattern.js';
import { VideoCodec } from '../packages/contract/src/index.js';
import { decodeVideoDown, encodeVideoUp } from '../packages/terminal-client/src/index.js';
import { login } from './support/login.js';
import { TerminalPeer, cpuSeconds } from './support/terminalPeer.js';
import { SEED_PASSWORD, seedTerminals, terminalPhone } from './support/seedTerminals.js';
import { createDatabase } from './support/seedUsers.js';
import { percentile, startServer, type RunningServer } from './support/startServer.js';
import { glassToGlass } from './support/videoGlass.js';

const SECONDS = Number(process.env.VIDEO_BENCH_SECONDS ?? 8);
const FPS = Number(process.env.VIDEO_BENCH_FPS ?? 25);
const [WIDTH, HEIGHT] = (process.env.VIDEO_BENCH_SIZE ?? '640x480').split('x').map(Number) as [number, number];
const CPU_VIEWERS = Number(process.env.VIDEO_BENCH_VIEWERS ?? 10);
const VIEWER_STEPS = [1, 10, 25, 50, 100, 200, 400];
const ACROSS = process.env.VIDEO_BENCH_ACROSS === '1';
const GLASS_SECONDS = Number(process.env.VIDEO_BENCH_GLASS_SECONDS ?? 20);
const GLASS_ONLY = process.env.VIDEO_BENCH_GLASS_ONLY === '1';
const ADMIN_DB = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const REDIS = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
/** Pictures the camera cycles through (pre-encoded, so the camera's own encoding does not limit the rate). */
const LOOP = 50;
const log = (line: string) => process.stderr.write(`[bench] ${line}\n`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** Milliseconds since a frame's capture time (epoch ms modulo 2^32). */
const age = (at: number, timestamp: number) => (at - timestamp + 2 ** 32) % 2 ** 32;

function summary(values: number[]) {
  const sorted = [...values].sort((a, b) => a - b);
  const round = (n: number) => Math.round(n * 100) / 100;
  return { n: sorted.length, p50: round(percentile(sorted, 50)), p99: round(percentile(sorted, 99)) };
}

/** VideoEnable TRUE and terminal 0 in a video channel: straight into the fresh database. */
function grantVideo(dataDir: string): number {
  const db = new SQLite(path.join(dataDir, 'intercom.sqlite'));
  db.pragma('busy_timeout = 10000');
  const user = db.prepare(`select "UserID" from terminal_user where "MobilePhone" = ?`).get(terminalPhone(0)) as {
    UserID: number;
  };
  db.prepare(
    `insert into sys_config ("E_ID","Code","Value") values (1,'VideoEnable','TRUE') on conflict do update set "Value"='TRUE'`,
  ).run();
  const cid = db
    .prepare(
      `insert into channel ("E_ID","CName","CTypeID","Note","Priority","VideoEnable","Record","CreatedAt") values (1,'BenchVideo',106,'',0,1,0,?)`,
    )
    .run(Date.now()).lastInsertRowid;
  db.prepare(`insert into channel_member ("CID","UserID","E_ID","Priority") values (?,?,1,0)`).run(cid, user.UserID);
  db.close();
  return user.UserID;
}

/** grantVideo on a PostgreSQL database (the instances share it). */
async function grantVideoPostgres(databaseUrl: string): Promise<number> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const user = await client.query<{ UserID: number }>(`select "UserID" from terminal_user where "MobilePhone" = $1`, [
      terminalPhone(0),
    ]);
    const uid = user.rows[0]?.UserID as number;
    await client.query(
      `insert into sys_config ("E_ID","Code","Value") values (1,'VideoEnable','TRUE') on conflict ("E_ID","Code") do update set "Value"='TRUE'`,
    );
    const channel = await client.query<{ CID: number }>(
      `insert into channel ("E_ID","CName","CTypeID","Note","Priority","VideoEnable","Record","CreatedAt") values (1,'BenchVideo',106,'',0,1,0,$1) returning "CID"`,
      [Date.now()],
    );
    await client.query(`insert into channel_member ("CID","UserID","E_ID","Priority") values ($1,$2,1,0)`, [
      channel.rows[0]?.CID,
      uid,
    ]);
    return uid;
  } finally {
    await client.end();
  }
}

/**
 * Viewer `n`: a seat of the seeded console account `bench<n>`, each its own session (a session
 * carries one seat: a second seat of one session replaces the first). Logged in at `serverUrl`.
 */
async function seat(serverUrl: string, wsUrl: string, n: number): Promise<TerminalPeer> {
  const token = await login(serverUrl, `bench${n}`, SEED_PASSWORD, 'DEMO');
  const res = await fetch(`${serverUrl}/api/Talk/AuthCode`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
  });
  const { BaseData } = (await res.json()) as { BaseData: { authCode: string } };
  return TerminalPeer.open(wsUrl, { authCode: BaseData.authCode });
}

/** Sends the looped pictures at FPS for `seconds`, each stamped with its capture time; returns frames sent. */
async function stream(camera: TerminalPeer, pictures: Uint8Array[], seconds: number): Promise<number> {
  const frames = seconds * FPS;
  const start = performance.now();
  for (let i = 0; i < frames; i += 1) {
    const wait = start + (i * 1000) / FPS - performance.now();
    if (wait > 0) await sleep(wait);
    const picture = pictures[i % pictures.length] as Uint8Array;
    camera.sendFrame(encodeVideoUp({ codec: VideoCodec.jpeg, timestamp: Date.now(), payload: picture }));
    // A heartbeat now and then keeps the camera within the heartbeat timeout.
    if (i % (FPS * 20) === 0) camera.heartbeat();
  }
  return frames;
}

/** One step: the camera streams for SECONDS to `viewers`; what they got and what it cost the servers `pids`. */
async function measure(
  camera: TerminalPeer,
  pictures: Uint8Array[],
  viewers: TerminalPeer[],
  pids: number[],
  frameBytes: number,
) {
  const received = viewers.map(() => 0);
  const late: number[] = [];
  viewers.forEach((viewer, i) => {
    viewer.onFrame = (frame, at) => {
      received[i] = (received[i] as number) + 1;
      const timestamp = decodeVideoDown(frame)?.timestamp;
      if (timestamp !== undefined) late.push(age(at, timestamp));
    };
  });
  // Each step starts at a fresh key frame for everyone: every JPEG is one.
  const cpuBefore = pids.map(cpuSeconds);
  const sent = await stream(camera, pictures, SECONDS);
  await sleep(1_000);
  const cpuEach = pids.map((pid, i) => cpuSeconds(pid) - (cpuBefore[i] as number));
  const cpu = cpuEach.reduce((a, b) => a + b, 0);
  const delivered = received.reduce((a, b) => a + b, 0);
  const megabits = (delivered * (frameBytes + 10) * 8) / 1e6;
  return {
    viewers: viewers.length,
    framesSent: sent,
    framesDelivered: delivered,
    framesLost: sent * viewers.length - delivered,
    viewersLosing: received.filter((n) => n < sent).length,
    relayedMbitPerSecond: Math.round((megabits / SECONDS) * 10) / 10,
    serverCpuPercent: Math.round((cpu / (SECONDS + 1)) * 100),
    serverCpuPercentEach: cpuEach.map((c) => Math.round((c / (SECONDS + 1)) * 100)),
    serverCpuMsPerMbit: Math.round(((cpu * 1000) / Math.max(1, megabits)) * 100) / 100,
    relayMs: summary(late),
  };
}

/** The camera's pictures: the simulator's test pattern encoded with jpeg-js, with the time each took. */
function cameraPictures() {
  const pattern = new TestPattern(WIDTH, HEIGHT, 70);
  const encodeMs: number[] = [];
  const pictures: Uint8Array[] = [];
  for (let i = 0; i < LOOP; i += 1) {
    const t0 = performance.now();
    pictures.push(pattern.frame(i, Date.now(), 'bench'));
    encodeMs.push(performance.now() - t0);
  }
  const frameBytes = Math.round(pictures.reduce((n, p) => n + p.length, 0) / pictures.length);
  log(`${WIDTH}x${HEIGHT} JPEG, ${frameBytes} bytes a frame, ${FPS} fps`);
  return { pictures, encodeMs, frameBytes };
}

const wsOf = (server: RunningServer) => `${server.url.replace('http', 'ws')}/terminal`;

/** The camera on instance A, the viewers on instance B: frames cross the Redis backplane. */
async function across(): Promise<void> {
  const database = await createDatabase(ADMIN_DB);
  const env = { DATABASE_URL: database.url, REDIS_URL: REDIS };
  const [a, b] = [await startServer(env), await startServer(env)];
  const peers: TerminalPeer[] = [];
  try {
    await seedTerminals({ databaseUrl: database.url }, 1, CPU_VIEWERS);
    const uid = await grantVideoPostgres(database.url);
    const camera = await TerminalPeer.open(wsOf(a), { phone: terminalPhone(0), password: SEED_PASSWORD });
    peers.push(camera);
    const caps = await camera.request({ type: 'videoCaps', codecs: ['jpeg'] });
    if (caps.type !== 'ack') throw new Error(`videoCaps refused: ${JSON.stringify(caps)}`);
    const { pictures, frameBytes } = cameraPictures();
    const pids = [a.process.pid as number, b.process.pid as number];
    const steps = [];
    for (const count of [1, CPU_VIEWERS]) {
      while (peers.length - 1 < count) {
        const viewer = await seat(a.url, wsOf(b), peers.length);
        const applied = await viewer.request({ type: 'videoApply', uid });
        if (applied.type !== 'ack') throw new Error(`videoApply refused: ${JSON.stringify(applied)}`);
        peers.push(viewer);
      }
      const step = await measure(camera, pictures, peers.slice(1), pids, frameBytes);
      log(JSON.stringify(step));
      steps.push(step);
    }
    const result = {
      bench: 'video',
      mode: 'camera on instance A, viewers on instance B (PostgreSQL + Redis); serverCpu of A and B',
      picture: `${WIDTH}x${HEIGHT} JPEG q70, ${frameBytes} bytes, ${FPS} fps`,
      seconds: SECONDS,
      loadAverage: os.loadavg().map((n) => Math.round(n * 10) / 10),
      relayMs: steps[0]?.relayMs,
      serverCpuMsPerRelayedMbit: steps[steps.length - 1]?.serverCpuMsPerMbit,
      steps,
    };
    process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
  } finally {
    for (const peer of peers) peer.socket.terminate();
    await Promise.all([a.stop(), b.stop()]);
    await database.drop();
  }
}

async function main(): Promise<void> {
  const server = await startServer();
  const pid = server.process.pid as number;
  try {
    await seedTerminals({ dataDir: server.dataDir }, 1, VIEWER_STEPS[VIEWER_STEPS.length - 1] as number);
    const uid = grantVideo(server.dataDir);
    // Glass to glass first, on a machine not yet warmed by the viewer steps' hundreds of sockets.
    const glass = await glassToGlass({
      serverUrl: server.url,
      phone: terminalPhone(0),
      password: SEED_PASSWORD,
      name: 'Bench0',
      width: WIDTH,
      height: HEIGHT,
      fps: FPS,
      seconds: GLASS_SECONDS,
      log,
    });
    log(JSON.stringify(glass));
    if (GLASS_ONLY) {
      const only = { bench: 'video', loadAverage: os.loadavg().map((n) => Math.round(n * 10) / 10), glass };
      process.stdout.write(`${JSON.stringify(only, null, 2)}\n`);
      return;
    }
    const wsUrl = `${server.url.replace('http', 'ws')}/terminal`;
    const camera = await TerminalPeer.open(wsUrl, { phone: terminalPhone(0), password: SEED_PASSWORD });
    const caps = await camera.request({ type: 'videoCaps', codecs: ['jpeg'] });
    if (caps.type !== 'ack') throw new Error(`videoCaps refused: ${JSON.stringify(caps)}`);

    // The camera's cost: the simulator's test pattern encoded with jpeg-js, and decoding it again.
    const { pictures, encodeMs, frameBytes } = cameraPictures();
    const decodeMs: number[] = [];
    for (const picture of pictures.slice(0, 20)) {
      const t0 = performance.now();
      jpeg.decode(picture);
      decodeMs.push(performance.now() - t0);
    }

    // Delay: one viewer.
    const viewers: TerminalPeer[] = [await seat(server.url, wsUrl, 1)];
    const relayMs: number[] = [];
    (viewers[0] as TerminalPeer).onFrame = (frame, at) => {
      const decoded = decodeVideoDown(frame);
      if (decoded) relayMs.push(age(at, decoded.timestamp));
    };
    await (viewers[0] as TerminalPeer).request({ type: 'videoApply', uid });
    await stream(camera, pictures, SECONDS);
    await sleep(500);
    const relay = summary(relayMs);
    const encode = summary(encodeMs);
    const decode = summary(decodeMs);

    // Viewers per stream, and the CPU per megabit at CPU_VIEWERS.
    const steps: Record<string, unknown>[] = [];
    let cpuPerMbit: number | null = null;
    for (const count of VIEWER_STEPS) {
      while (viewers.length < count) {
        const viewer = await seat(server.url, wsUrl, viewers.length + 1);
        await viewer.request({ type: 'videoApply', uid });
        viewers.push(viewer);
      }
      const step = await measure(camera, pictures, viewers, [pid], frameBytes);
      log(JSON.stringify(step));
      steps.push(step);
      if (count === CPU_VIEWERS) cpuPerMbit = step.serverCpuMsPerMbit;
      if (step.framesLost > step.framesSent * count * 0.01) break;
    }
    const lastClean = [...steps].reverse().find((s) => (s.framesLost as number) === 0);
    const result = {
      bench: 'video',
      picture: `${WIDTH}x${HEIGHT} JPEG q70, ${frameBytes} bytes, ${FPS} fps`,
      seconds: SECONDS,
      loadAverage: os.loadavg().map((n) => Math.round(n * 10) / 10),
      glassToGlassMs: glass.glassToGlassMs,
      glass,
      cameraEncodeMs: encode,
      relayMs: relay,
      viewerDecodeMs: decode,
      jpegJsEstimateMs: { p50: encode.p50 + relay.p50 + decode.p50, p99: encode.p99 + relay.p99 + decode.p99 },
      serverCpuMsPerRelayedMbit: cpuPerMbit,
      viewersPerStreamWithoutLoss: lastClean?.viewers ?? 0,
      steps,
    };
    process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
    for (const peer of [camera, ...viewers]) peer.socket.terminate();
  } finally {
    await server.stop();
  }
}

await (ACROSS ? across() : main());
