import { execFileSync } from 'node:child_process';
import os from 'node:os';
import { login } from './support/login.js';
import { BENCH_PASSWORD, percentile, rssMiB, startServer, type RunningServer } from './support/startServer.js';
import { createDatabase, iccidOf, phoneOf, seedPostgres, seedSqlite, type Seeded } from './support/seedUsers.js';

/**
 * Figures of issue 3 with 100,000 users in one enterprise, on SQLite and on PostgreSQL: the
 * user-list query (p50/p99), the organisation tree's first load, a 10,000-line ICCID import and a
 * CSV export of every user (time and the server's peak RSS).
 *
 *   npx tsc -b packages/contract apps/server && npx tsx bench/users.ts
 *   BENCH_PG_URL=postgres://postgres@127.0.0.1:5432/postgres (default; "none" skips PostgreSQL)
 */
const USERS = Number(process.env.BENCH_USERS ?? 100_000);
const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 300);
const PG_URL = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

const round = (ms: number) => Math.round(ms * 100) / 100;

async function timed(
  url: string,
  token: string,
  init: RequestInit = {},
): Promise<{ ms: number; status: number; body: string }> {
  const started = performance.now();
  const response = await fetch(url, { ...init, headers: { ...init.headers, authorization: `Bearer ${token}` } });
  const body = await response.text();
  return { ms: performance.now() - started, status: response.status, body };
}

/** p50/p99 of `SAMPLES` sequential requests after 20 warm-up ones; any non-200 aborts the bench. */
async function latency(makeUrl: (i: number) => string, token: string, samples = SAMPLES) {
  for (let i = 0; i < 20; i++) await timed(makeUrl(i), token);
  const times: number[] = [];
  for (let i = 0; i < samples; i++) {
    const r = await timed(makeUrl(i), token);
    if (r.status !== 200) throw new Error(`${makeUrl(i)} answered ${r.status}: ${r.body.slice(0, 200)}`);
    times.push(r.ms);
  }
  times.sort((a, b) => a - b);
  return { p50_ms: percentile(times, 50), p99_ms: percentile(times, 99) };
}

const q = (condition: object) => encodeURIComponent(JSON.stringify(condition));

async function userList(url: string, token: string, seeded: Seeded) {
  const base = `${url}/api/UserInfo/QueryData`;
  const pages = Math.floor(USERS / 10);
  const pick = (i: number, n: number) => (i * 7919) % n;
  return {
    first_pages: await latency((i) => `${base}?pageIndex=${i % 10}&pageSize=10`, token),
    any_page: await latency((i) => `${base}?pageIndex=${pick(i, pages)}&pageSize=10`, token),
    sorted_by_name_desc: await latency(
      (i) => `${base}?pageIndex=${i % 10}&pageSize=10&orderField=UserName&desc=true`,
      token,
    ),
    department_subtree: await latency(
      (i) =>
        `${base}?pageSize=10&jsonCondition=${q({ OSUnder: seeded.topDepartments[i % seeded.topDepartments.length] })}`,
      token,
    ),
    search_phone: await latency(
      (i) => `${base}?pageSize=10&jsonCondition=${q({ Search: phoneOf(pick(i, USERS)).slice(3) })}`,
      token,
    ),
    // A search that most users match (every phone starts so): the index lists them all first.
    search_matching_most: await latency(
      () => `${base}?pageSize=10&jsonCondition=${q({ Search: phoneOf(0).slice(0, 3) })}`,
      token,
      50,
    ),
    state_locked: await latency(
      (i) => `${base}?pageIndex=${i % 10}&pageSize=10&jsonCondition=${q({ State: 'locked' })}`,
      token,
    ),
  };
}

async function orgTree(url: string, token: string, seeded: Seeded) {
  const first = await timed(`${url}/api/Organ/GetOrganizeList`, token);
  if (first.status !== 200) throw new Error(`tree answered ${first.status}`);
  const leaf = seeded.leafDepartments[0] as number;
  return {
    first_load_cold_ms: round(first.ms),
    first_load: await latency(() => `${url}/api/Organ/GetOrganizeList`, token),
    expand_department_of_1000_users: await latency(
      () => `${url}/api/Organ/GetOrganizeList?eid=${seeded.enterpriseId}&id=${leaf}&limit=200`,
      token,
    ),
  };
}

async function iccidImport(url: string, token: string) {
  const lines: string[] = [];
  for (let i = 0; i < 10_000; i++) {
    if (i % 2000 === 1)
      lines.push(iccidOf(i)); // already held by a seeded user
    else if (i % 3333 === 2) lines.push('not an iccid');
    else lines.push(`8987${String(i).padStart(15, '0')}`);
  }
  const r = await timed(`${url}/api/UserInfo/ImportICCID?fileName=bench.txt`, token, {
    method: 'POST',
    headers: { 'content-type': 'text/plain' },
    body: `${lines.join('\r\n')}\r\n`,
  });
  if (r.status !== 200) throw new Error(`import answered ${r.status}: ${r.body.slice(0, 200)}`);
  const { accepted, duplicateCount, invalidCount } = (
    JSON.parse(r.body) as { BaseData: { accepted: number; duplicateCount: number; invalidCount: number } }
  ).BaseData;
  return { lines: lines.length, ms: round(r.ms), accepted, duplicates: duplicateCount, invalid: invalidCount };
}

async function csvExport(url: string, token: string, server: RunningServer) {
  const pid = server.process.pid ?? 0;
  const before = rssMiB(pid);
  let peak = before;
  const sampler = setInterval(() => (peak = Math.max(peak, rssMiB(pid))), 10);
  const started = performance.now();
  const response = await fetch(`${url}/api/UserInfo/ExportData`, { headers: { authorization: `Bearer ${token}` } });
  let bytes = 0;
  let rows = 0;
  for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
    bytes += chunk.length;
    for (const b of chunk) if (b === 10) rows++;
  }
  const ms = performance.now() - started;
  clearInterval(sampler);
  peak = Math.max(peak, rssMiB(pid));
  return {
    ms: round(ms),
    data_rows: rows - 1,
    mib: round(bytes / 1048576),
    rss_before_mib: before,
    rss_peak_mib: peak,
  };
}

async function run(dialect: 'sqlite' | 'postgres'): Promise<Record<string, unknown>> {
  const database = dialect === 'postgres' ? await createDatabase(PG_URL) : undefined;
  const server = await startServer(database ? { DATABASE_URL: database.url } : {});
  try {
    const seedStarted = performance.now();
    const seeded = database ? await seedPostgres(database.url, USERS) : seedSqlite(server.dataDir, USERS);
    const seedMs = round(performance.now() - seedStarted);
    const token = await login(server.url, 'admin', BENCH_PASSWORD, 'DEMO');
    return {
      seed_ms: seedMs,
      user_list: await userList(server.url, token, seeded),
      org_tree: await orgTree(server.url, token, seeded),
      iccid_import_10000_lines: await iccidImport(server.url, token),
      csv_export_all_users: await csvExport(server.url, token, server),
    };
  } finally {
    await server.stop();
    await database?.drop();
  }
}

const figures: Record<string, unknown> = {
  bench: 'users',
  machine: `${execFileSync('nproc').toString().trim()} cores, node ${process.version}`,
  load_average_at_start: os.loadavg().map((l) => Math.round(l * 100) / 100),
  users: USERS,
  samples_per_figure: SAMPLES,
  sqlite: await run('sqlite'),
};
if (PG_URL !== 'none') figures.postgres = await run('postgres');
process.stdout.write(`${JSON.stringify(figures, null, 2)}\n`);
