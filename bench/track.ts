// Track history figures (issue 11): one day of a terminal reporting every second (86,400 fixes)
// through GET /api/GISLocation/Track on SQLite and PostgreSQL: time to the whole answer, its
// size, and the GPX export.
//   node scripts/build.mjs && npx tsx bench/track.ts
// TRACK_BENCH_RUNS (timed calls after one warm-up, 10), BENCH_PG_URL (admin URL of a PostgreSQL
// server; default postgres://postgres@127.0.0.1:5432/postgres, "" skips it). Prints one JSON object.
import os from 'node:os';
import { login } from './support/login.js';
import { createDatabase } from './support/seedUsers.js';
import { SEED_PASSWORD, seedTerminals, terminalPhone, type SeedTarget } from './support/seedTerminals.js';
import { percentile, startServer } from './support/startServer.js';
import { dayOfFixes, insertFixes, userIdOf } from './support/trackDay.js';

const RUNS = Number(process.env.TRACK_BENCH_RUNS ?? 10);
const PG_URL = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const DAY_START = Date.UTC(2026, 10, 22, 0, 0, 0);
const log = (line: string) => process.stderr.write(`[track] ${line}\n`);
const round = (value: number) => Math.round(value * 10) / 10;

/** Seeds a terminal with a day at 1 Hz into a running server; returns a token and the user. */
export async function seedDay(
  url: string,
  target: SeedTarget,
): Promise<{ token: string; userId: number; fixes: number }> {
  await seedTerminals(target, 1, 1);
  const userId = await userIdOf(target, terminalPhone(0));
  const fixes = dayOfFixes(DAY_START);
  await insertFixes(target, { E_ID: 1, U_ID: userId }, fixes);
  return { token: await login(url, 'bench1', SEED_PASSWORD, 'DEMO'), userId, fixes: fixes.length };
}

async function timed(url: string, token: string): Promise<{ ms: number; bytes: number; body: string }> {
  const started = performance.now();
  const response = await fetch(url, { headers: { authorization: `Bearer ${token}`, 'accept-encoding': 'gzip' } });
  const body = await response.text();
  const ms = performance.now() - started;
  if (!response.ok) throw new Error(`${response.status} ${body.slice(0, 200)}`);
  return { ms, bytes: Buffer.byteLength(body), body };
}

async function measure(label: string, databaseUrl?: string) {
  const database = databaseUrl ? await createDatabase(databaseUrl) : undefined;
  const server = await startServer(database ? { DATABASE_URL: database.url } : {});
  const target: SeedTarget = database ? { databaseUrl: database.url } : { dataDir: server.dataDir };
  try {
    const { token, userId, fixes } = await seedDay(server.url, target);
    const range = `U_ID=${userId}&H_Time1=${DAY_START}&H_Time2=${DAY_START + 86_400_000 - 1}`;
    const trackUrl = `${server.url}/api/GISLocation/Track?${range}`;
    const first = await timed(trackUrl, token);
    const track = JSON.parse(first.body).BaseData as { t: number[]; stops: unknown[]; distance: number };
    const times: number[] = [];
    for (let i = 0; i < RUNS; i++) times.push((await timed(trackUrl, token)).ms);
    times.sort((a, b) => a - b);
    const gpx = await timed(`${server.url}/api/GISLocation/ExportTrack?${range}&format=gpx&utcOffset=480`, token);
    const result = {
      fixes,
      points_after_merge: track.t.length,
      stops: track.stops.length,
      distance_km: round(track.distance / 1000),
      first_call_ms: round(first.ms),
      p50_ms: round(percentile(times, 50)),
      max_ms: round(times.at(-1) ?? Number.NaN),
      json_mib: round(first.bytes / 1048576),
      gpx_ms: round(gpx.ms),
      gpx_mib: round(gpx.bytes / 1048576),
    };
    log(`${label}: ${JSON.stringify(result)}`);
    return result;
  } finally {
    await server.stop();
    await database?.drop();
  }
}

const loadBefore = os.loadavg()[0];
const sqlite = await measure('SQLite');
const postgres = PG_URL ? await measure('PostgreSQL', PG_URL) : undefined;
process.stdout.write(
  `${JSON.stringify({ load_average: [round(loadBefore ?? 0), round(os.loadavg()[0] ?? 0)], sqlite, postgres }, null, 2)}\n`,
);
