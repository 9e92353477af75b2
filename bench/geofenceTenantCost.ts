// What one tenant's geofences cost the others (issue 48, finding 3): another enterprise's REST p99
// (`GET /api/UserInfo/QueryData`, sequential requests) while one enterprise runs its worst case:
// GEOFENCE_TENANT_FENCES (200) overlapping polygons of GEOFENCE_TENANT_POINTS (500) points, all
// applying to every user, and one terminal sending `positions` batches of 100 fixes that alternate
// inside and outside all of them. The fences are written straight into the database, past the caps a
// Save would enforce (50 a user by default), so this is worse than anything the API lets a tenant
// build. The built server in its own process, on SQLite and on PostgreSQL. Goal: p99 <= 200 ms.
//   node scripts/build.mjs && npx tsx bench/geofenceTenantCost.ts
// The terminal's last fix enters a small fence of its own far from the others: its row in
// geofence_state says the server has checked every fix (a user's fixes are checked in order). Also
// printed: the alarm rows written, the server's CPU seconds and its longest event-loop delay
// (prom-client's, between two scrapes of /metrics).
// GEOFENCE_TENANT_FENCES (200), GEOFENCE_TENANT_POINTS (500), GEOFENCE_TENANT_BATCHES (10 batches of
// 100 fixes), GEOFENCE_TENANT_DEADLINE_S (180: the most it waits for the server to check the fixes),
// BENCH_PG_URL (postgres://postgres@127.0.0.1:5432/postgres; "none" skips PostgreSQL).
import { execFileSync } from 'node:child_process';
import os from 'node:os';
import { sql } from 'kysely';
import { hashPassword } from '../apps/server/src/auth/passwords.js';
import { openDatabase, type Database } from '../apps/server/src/db/database.js';
import { insertAdminAccount } from './support/adminAccount.js';
import { login } from './support/login.js';
import { createDatabase } from './support/seedUsers.js';
import { percentile, startServer } from './support/startServer.js';
import { TerminalPeer, cpuSeconds } from './support/terminalPeer.js';

const FENCES = Number(process.env.GEOFENCE_TENANT_FENCES ?? 200);
const POINTS = Number(process.env.GEOFENCE_TENANT_POINTS ?? 500);
const BATCHES = Number(process.env.GEOFENCE_TENANT_BATCHES ?? 10);
const DEADLINE_MS = Number(process.env.GEOFENCE_TENANT_DEADLINE_S ?? 180) * 1000;
const PG_URL = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const FIXES_PER_BATCH = 100;
const GOAL_MS = 200;
const PASSWORD = 'Bench#2026';
const PHONE = '13500000001';
const CENTER = { lat: 22.5, lon: 114.0 };
/** About 5.5 km from the centre: outside every fence (the largest is about 1.4 km across) by far more than the margin. */
const OUTSIDE = { lat: CENTER.lat + 0.05, lon: CENTER.lon };
/** The last fix's fence: 100 m round, 5.5 km south of the others. */
const SENTINEL = { lat: CENTER.lat - 0.05, lon: CENTER.lon };
const log = (line: string) => process.stderr.write(`[bench] ${line}\n`);

/** A ring of POINTS corners around the centre, `radius` metres, a little uneven so no two fences are alike. */
function ring(radius: number, seed: number): [number, number][] {
  const points: [number, number][] = [];
  for (let k = 0; k < POINTS; k++) {
    const angle = (2 * Math.PI * k) / POINTS;
    const r = (radius * (1 + 0.05 * Math.sin(angle * 7 + seed))) / 111_195;
    points.push([
      CENTER.lat + r * Math.sin(angle),
      CENTER.lon + (r * Math.cos(angle)) / Math.cos(CENTER.lat * (Math.PI / 180)),
    ]);
  }
  return points;
}

/** The hostile enterprise (its fences and one terminal user) and the other one (an admin and 300 users). */
async function seed(database: Database): Promise<{ hostile: number; sentinel: number }> {
  const { db } = database;
  const now = Date.now();
  const hash = await hashPassword(PASSWORD, 10);
  const enterprise = (code: string) =>
    db
      .insertInto('enterprise')
      .values({
        E_Code: code,
        E_Name: code,
        P_ID: null,
        A_ID: null,
        Quota: 10_000,
        ExpireAt: null,
        Disabled: 0,
        CreatedAt: now,
      })
      .returning('E_ID')
      .executeTakeFirstOrThrow();
  const hostile = (await enterprise('GEOHOSTILE')).E_ID;
  const other = (await enterprise('GEOOTHER')).E_ID;
  await insertAdminAccount(db, {
    E_ID: other,
    LoginName: 'other',
    Name: 'Other tenant',
    PasswordHash: hash,
    CreatedAt: now,
  });
  const user = (E_ID: number, i: number, phone: string) => ({
    E_ID,
    OS_ID: null,
    ICCID: null,
    ExpireAt: null,
    UserName: `User ${E_ID}-${i}`,
    MobilePhone: phone,
    UType: 0,
    PriorityLevel: 0,
    IsLock: 0,
    Caps: 6,
    PasswordHash: hash,
    GPSConfig: '',
    Remark: '',
    CreatedAt: now,
  });
  await db
    .insertInto('terminal_user')
    .values(user(hostile, 0, PHONE))
    .execute();
  const others = Array.from({ length: 300 }, (_, i) => user(other, i, `137${String(i).padStart(8, '0')}`));
  await db.insertInto('terminal_user').values(others).execute();
  for (let i = 0; i < FENCES; i += 20) {
    const rows = Array.from({ length: Math.min(20, FENCES - i) }, (_, k) => ({
      E_ID: hostile,
      Name: `Fence ${i + k}`,
      Kind: 'polygon',
      CenterLat: null,
      CenterLon: null,
      Radius: null,
      Points: JSON.stringify(ring(500 + 1.0 * (i + k), i + k)),
      Enter: 1,
      Exit: 1,
      DwellMinutes: 0,
      CreatedAt: now,
      UpdatedAt: now,
    }));
    await db.insertInto('geofence').values(rows).execute();
  }
  const sentinel = await db
    .insertInto('geofence')
    .values({
      E_ID: hostile,
      Name: 'Sentinel',
      Kind: 'circle',
      CenterLat: SENTINEL.lat,
      CenterLon: SENTINEL.lon,
      Radius: 100,
      Points: '',
      Enter: 1,
      Exit: 1,
      DwellMinutes: 0,
      CreatedAt: now,
      UpdatedAt: now,
    })
    .returning('GF_ID')
    .executeTakeFirstOrThrow();
  return { hostile, sentinel: sentinel.GF_ID };
}

async function alarmRows(database: Database, E_ID: number): Promise<number> {
  const row = await database.db
    .selectFrom('notification')
    .select(sql<number>`count(*)`.as('n'))
    .where('E_ID', '=', E_ID)
    .where('NType', 'like', 'Geofence%')
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Rows of geofence_state of the enterprise: of the sentinel, and of the other fences. */
async function insideRows(database: Database, E_ID: number, sentinel: number) {
  const rows = await database.db.selectFrom('geofence_state').select('GF_ID').where('E_ID', '=', E_ID).execute();
  return { sentinel: rows.some((r) => r.GF_ID === sentinel), others: rows.filter((r) => r.GF_ID !== sentinel).length };
}

/** The server's event-loop delay since the previous scrape (prom-client resets it at each one), in ms. */
async function eventLoopDelay(url: string) {
  const text = await (await fetch(`${url}/metrics`)).text();
  const value = (name: string) => Number(new RegExp(`^${name} (\\S+)$`, 'm').exec(text)?.[1] ?? NaN);
  const ms = (seconds: number) => Math.round(seconds * 1000 * 10) / 10;
  return {
    maxMs: ms(value('intercom_nodejs_eventloop_lag_max_seconds')),
    p99Ms: ms(value('intercom_nodejs_eventloop_lag_p99_seconds')),
  };
}

/** Sequential QueryData requests of the other tenant until `stop` says so; their times in ms. */
async function probe(url: string, token: string, stop: () => boolean): Promise<number[]> {
  const times: number[] = [];
  while (!stop()) {
    const started = performance.now();
    const response = await fetch(`${url}/api/UserInfo/QueryData?pageIndex=0&pageSize=20`, {
      headers: { authorization: `Bearer ${token}` },
    });
    const body = await response.text();
    if (response.status !== 200) throw new Error(`QueryData answered ${response.status}: ${body.slice(0, 200)}`);
    times.push(performance.now() - started);
  }
  return times;
}

const summary = (times: number[]) => {
  const sorted = [...times].sort((a, b) => a - b);
  return {
    requests: sorted.length,
    p50Ms: percentile(sorted, 50),
    p99Ms: percentile(sorted, 99),
    maxMs: Math.round((sorted.at(-1) ?? 0) * 100) / 100,
  };
};

async function run(dialect: 'sqlite' | 'postgres') {
  const created = dialect === 'postgres' ? await createDatabase(PG_URL) : undefined;
  const server = await startServer(created ? { DATABASE_URL: created.url } : {});
  const database = openDatabase({ databaseUrl: created?.url, dataDir: server.dataDir, sqliteFile: 'intercom.sqlite' });
  const pid = server.process.pid as number;
  try {
    const { hostile, sentinel } = await seed(database);
    const token = await login(server.url, 'other', PASSWORD, 'GEOOTHER');
    let idleDone = false;
    setTimeout(() => (idleDone = true), 3000);
    await probe(server.url, token, () => idleDone); // warm-up
    let quietDone = false;
    setTimeout(() => (quietDone = true), 5000);
    await eventLoopDelay(server.url);
    const idle = summary(await probe(server.url, token, () => quietDone));
    const idleDelay = await eventLoopDelay(server.url);
    log(`${dialect}: idle QueryData p99 ${idle.p99Ms} ms over ${idle.requests} requests`);

    const peer = await TerminalPeer.open(`${server.url.replace('http', 'ws')}/terminal`, {
      phone: PHONE,
      password: PASSWORD,
    });
    await eventLoopDelay(server.url);
    const cpuBefore = cpuSeconds(pid);
    const started = performance.now();
    let loadDone = false;
    const probing = probe(server.url, token, () => loadDone);
    let time = Date.now() - 3 * 3_600_000;
    const acks: number[] = [];
    for (let b = 0; b < BATCHES; b++) {
      const fixes = Array.from({ length: FIXES_PER_BATCH }, (_, i) => {
        time += 1000;
        const at = i % 2 === 0 ? CENTER : OUTSIDE;
        return { lat: at.lat, lon: at.lon, time, accuracy: 5 };
      });
      const sent = performance.now();
      const reply = await peer.request({ type: 'positions', fixes });
      if (reply.type !== 'ack') throw new Error(`positions refused: ${JSON.stringify(reply)}`);
      acks.push(performance.now() - sent);
    }
    const last = await peer.request({ type: 'position', lat: SENTINEL.lat, lon: SENTINEL.lon, time: time + 1000 });
    if (last.type !== 'ack') throw new Error(`position refused: ${JSON.stringify(last)}`);
    const sentMs = performance.now() - started;
    log(`${dialect}: ${BATCHES} batches acknowledged in ${Math.round(sentMs)} ms`);
    // The checks run after the acks: wait until the last fix has entered the sentinel.
    let settledMs: number | null = null;
    while (performance.now() - started < DEADLINE_MS) {
      if ((await insideRows(database, hostile, sentinel)).sentinel) {
        settledMs = Math.round(performance.now() - started);
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    loadDone = true;
    const underLoad = summary(await probing);
    const cpu = Math.round((cpuSeconds(pid) - cpuBefore) * 100) / 100;
    const delay = await eventLoopDelay(server.url);
    peer.close();
    const alarms = await alarmRows(database, hostile);
    const inside = await insideRows(database, hostile, sentinel);
    log(`${dialect}: p99 ${underLoad.p99Ms} ms, ${alarms} alarm rows, settled after ${settledMs} ms`);
    return {
      value: underLoad.p99Ms,
      goal: GOAL_MS,
      met: underLoad.p99Ms <= GOAL_MS,
      otherTenantIdle: { ...idle, serverEventLoopDelay: idleDelay },
      otherTenantUnderLoad: underLoad,
      batchAckMs: { max: Math.round(Math.max(...acks)), total: Math.round(sentMs) },
      fixes: BATCHES * FIXES_PER_BATCH + 1,
      alarmRows: alarms,
      // The last fix is in the sentinel alone: no row of the other fences is left, whatever the alarms.
      insideRowsAtEnd: inside.others,
      settledMs,
      serverCpuSeconds: cpu,
      serverEventLoopDelay: delay,
    };
  } finally {
    await database.close();
    await server.stop();
    await created?.drop();
  }
}

const figures: Record<string, unknown> = {
  fences: FENCES,
  pointsPerFence: POINTS,
  batches: BATCHES,
  fixesPerBatch: FIXES_PER_BATCH,
  cpu: os.cpus()[0]?.model ?? 'unknown',
  cores: os.cpus().length,
  uptimeBefore: execFileSync('uptime', { encoding: 'utf8' }).trim(),
};
const results: { value: number; met: boolean }[] = [];
const sqlite = await run('sqlite');
figures.sqlite = sqlite;
results.push(sqlite);
if (PG_URL !== 'none') {
  const postgres = await run('postgres');
  figures.postgres = postgres;
  results.push(postgres);
}
const worst = Math.max(...results.map((r) => r.value));
figures.value = worst;
figures.goal = GOAL_MS;
figures.met = results.every((r) => r.met);
figures.uptimeAfter = execFileSync('uptime', { encoding: 'utf8' }).trim();
process.stdout.write(`${JSON.stringify(figures, null, 2)}\n`);
