import { execFileSync } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { login } from './support/login.js';
import { createDatabase } from './support/seedUsers.js';
import { BENCH_PASSWORD, rssMiB, startServer } from './support/startServer.js';

/**
 * Figures of issue 33: a 15,000-row CSV (departments Region/Team created by the import, two
 * channels each, one shared initial password) through POST /api/UserInfo/Import against the built
 * server: dry run, import, and re-import (all unchanged), with the server's RSS growth over its
 * idle RSS, on SQLite and on PostgreSQL. Goals: dry run <= 10 s, import <= 30 s, re-import <= 15 s,
 * RSS growth <= 200 MB.
 *
 *   node scripts/build.mjs && npx tsx bench/userImport.ts
 *   BENCH_IMPORT_ROWS (15000); BENCH_GENERATED=1 (empty Password cells); BENCH_PG_URL (postgres://postgres@127.0.0.1:5432/postgres; "none" skips PostgreSQL)
 */
const ROWS = Number(process.env.BENCH_IMPORT_ROWS ?? 15_000);
const PG_URL = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const CHANNELS = ['Ops A', 'Ops B'];
/** BENCH_GENERATED=1: every Password cell empty, so every new user gets a generated password (one full-cost hash each). */
const GENERATED = process.env.BENCH_GENERATED === '1';
const log = (line: string) => process.stderr.write(`[bench] ${line}\n`);

function importCsv(): string {
  const lines = ['UserName,MobilePhone,Password,ICCID,Department,UserType,Channels,Priority,Remark'];
  for (let i = 0; i < ROWS; i++) {
    const department = `Region ${i % 10}/Team ${i % 10}-${i % 7}`;
    lines.push(
      `Staff ${i},137${String(i).padStart(8, '0')},${GENERATED ? '' : 'bench-pass-1'},,${department},0,${CHANNELS.join(';')},${i % 8},`,
    );
  }
  return `\uFEFF${lines.join('\r\n')}\r\n`;
}

/** Quota for the import and the two channels, straight into the server's database. */
async function prepare(dataDir: string, databaseUrl: string | undefined): Promise<void> {
  const now = Date.now();
  const channel = `insert into channel ("E_ID", "CName", "CTypeID", "Note", "Priority", "VideoEnable", "Record", "CreatedAt")`;
  if (!databaseUrl) {
    const db = new SQLite(path.join(dataDir, 'intercom.sqlite'));
    db.pragma('busy_timeout = 10000');
    const { E_ID } = db.prepare(`select "E_ID" from enterprise where "E_Code" = 'DEMO'`).get() as { E_ID: number };
    db.prepare(`update enterprise set "Quota" = ? where "E_ID" = ?`).run(ROWS * 2, E_ID);
    for (const name of CHANNELS) db.prepare(`${channel} values (?, ?, 0, '', 0, 0, 0, ?)`).run(E_ID, name, now);
    db.close();
    return;
  }
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const e = await client.query<{ E_ID: number }>(`select "E_ID" from enterprise where "E_Code" = 'DEMO'`);
    const E_ID = Number(e.rows[0]?.E_ID);
    await client.query(`update enterprise set "Quota" = $1 where "E_ID" = $2`, [ROWS * 2, E_ID]);
    for (const name of CHANNELS)
      await client.query(`${channel} values ($1, $2, 0, '', 0, 0, 0, $3)`, [E_ID, name, now]);
  } finally {
    await client.end();
  }
}

const BOUNDARY = '----benchImport';

async function upload(url: string, token: string, query: string, file: Buffer, pid: number) {
  const body = Buffer.concat([
    Buffer.from(
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="staff.csv"\r\nContent-Type: text/csv\r\n\r\n`,
    ),
    file,
    Buffer.from(`\r\n--${BOUNDARY}--\r\n`),
  ]);
  let peak = rssMiB(pid);
  const sampler = setInterval(() => (peak = Math.max(peak, rssMiB(pid))), 20);
  const started = performance.now();
  const response = await fetch(`${url}/api/UserInfo/Import?${query}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
    body,
  });
  const text = await response.text();
  const seconds = Math.round((performance.now() - started) / 10) / 100;
  clearInterval(sampler);
  peak = Math.max(peak, rssMiB(pid));
  if (response.status !== 200) throw new Error(`import answered ${response.status}: ${text.slice(0, 300)}`);
  const {
    PasswordsCsv: _passwords,
    errors,
    ...counts
  } = (JSON.parse(text) as { BaseData: Record<string, unknown> }).BaseData as {
    PasswordsCsv: unknown;
    errors: unknown[];
  } & Record<string, unknown>;
  if (errors.length > 0) throw new Error(`import reported errors: ${JSON.stringify(errors.slice(0, 3))}`);
  return { seconds, peak_rss_mib: peak, ...counts };
}

async function run(dialect: 'sqlite' | 'postgres') {
  const database = dialect === 'postgres' ? await createDatabase(PG_URL) : undefined;
  const server = await startServer(database ? { DATABASE_URL: database.url } : {});
  try {
    await prepare(server.dataDir, database?.url);
    const pid = server.process.pid as number;
    const token = await login(server.url, 'admin', BENCH_PASSWORD, 'DEMO');
    const file = Buffer.from(importCsv(), 'utf8');
    const idle = rssMiB(pid);
    log(`${dialect}: ${ROWS} rows, ${(file.length / 1024 / 1024).toFixed(2)} MB, idle RSS ${idle} MiB`);
    const dryRun = await upload(server.url, token, 'dryRun=true&createDepartments=true', file, pid);
    log(`${dialect}: dry run ${dryRun.seconds} s`);
    const firstImport = await upload(server.url, token, 'createDepartments=true', file, pid);
    log(`${dialect}: import ${firstImport.seconds} s`);
    const reImport = await upload(server.url, token, 'createDepartments=true', file, pid);
    log(`${dialect}: re-import ${reImport.seconds} s`);
    const peak = Math.max(dryRun.peak_rss_mib, firstImport.peak_rss_mib, reImport.peak_rss_mib);
    return {
      idle_rss_mib: idle,
      dry_run: dryRun,
      import: firstImport,
      re_import: reImport,
      rss_growth_mib: Math.round((peak - idle) * 10) / 10,
    };
  } finally {
    await server.stop();
    await database?.drop();
  }
}

const cpu = os.cpus()[0]?.model ?? 'unknown';
const uptime = execFileSync('uptime', { encoding: 'utf8' }).trim();
const figures: Record<string, unknown> = {
  rows: ROWS,
  generated_passwords: GENERATED,
  cpu,
  cores: os.cpus().length,
  uptime_before: uptime,
};
figures.sqlite = await run('sqlite');
if (PG_URL !== 'none') figures.postgres = await run('postgres');
figures.uptime_after = execFileSync('uptime', { encoding: 'utf8' }).trim();
process.stdout.write(`${JSON.stringify(figures, null, 2)}\n`);
