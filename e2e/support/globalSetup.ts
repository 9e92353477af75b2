import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import Database from 'better-sqlite3';
import type { TestProject } from 'vitest/node';
import { freePort } from './freePort.js';

export const ADMIN_PASSWORD = 'E2e-Admin-2026!';
/** The PMTiles archive the server serves at /basemap/tiles.pmtiles, inside the data directory. */
export const PMTILES_FILE = 'basemap.pmtiles';
const root = path.resolve(new URL('.', import.meta.url).pathname, '../..');

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
    dataDir: string;
    adminPassword: string;
    /** The server build the tests run (for its password hashing). */
    serverDist: string;
  }
}

async function waitReady(url: string, server: ChildProcess): Promise<void> {
  for (let i = 0; i < 150; i++) {
    if (server.exitCode !== null) throw new Error(`server exited with ${server.exitCode}`);
    try {
      if ((await fetch(`${url}/readyz`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error('server did not become ready');
}

/**
 * A copy of the server and console builds for this run. Others may rebuild the checkout while
 * the tests run (Vite empties apps/console/dist first); the copy keeps every file in place. It
 * lives inside the repository (git-ignored .e2e/) so the server still finds node_modules.
 */
async function snapshotBuild(): Promise<string> {
  for (const file of ['apps/server/dist/main.js', 'apps/console/dist/index.html']) {
    if (!fs.existsSync(path.join(root, file))) {
      throw new Error(`${file} is missing: run \`node scripts/build.mjs\` first`);
    }
  }
  removeStaleSnapshots();
  const dir = path.join(root, '.e2e', `run-${process.pid}`);
  for (let attempt = 0; attempt < 60; attempt++) {
    fs.rmSync(dir, { recursive: true, force: true });
    try {
      for (const part of ['apps/server/dist', 'apps/console/dist', 'apps/server/package.json']) {
        fs.cpSync(path.join(root, part), path.join(dir, part), { recursive: true });
      }
      // The talk agent's bundle, which the server offers at /api/Plugin/Package (four levels above its dist).
      const agent = path.join(root, 'apps/talk-agent/dist');
      if (fs.existsSync(agent)) fs.cpSync(agent, path.join(dir, 'apps/talk-agent/dist'), { recursive: true });
      // The field app, which the server serves at /field when its build is there.
      const field = path.join(root, 'apps/field/dist');
      if (fs.existsSync(field)) fs.cpSync(field, path.join(dir, 'apps/field/dist'), { recursive: true });
      if (consoleCopyComplete(path.join(dir, 'apps/console/dist'))) break;
    } catch {
      // A file vanished while copying: a build is running.
    }
    if (attempt === 59) throw new Error('apps/console/dist stayed incomplete (a build running?)');
    await new Promise((r) => setTimeout(r, 1000));
  }
  // Packages only the server's workspace holds (its own ws version, for one), and the sources its
  // source maps name (Vitest reads them when a test imports the server's password hashing).
  for (const part of ['apps/server/node_modules', 'apps/server/src']) {
    if (fs.existsSync(path.join(root, part))) fs.symlinkSync(path.join(root, part), path.join(dir, part), 'dir');
  }
  return dir;
}

/** Copies left by runs that were killed (their process is gone). */
function removeStaleSnapshots(): void {
  const parent = path.join(root, '.e2e');
  if (!fs.existsSync(parent)) return;
  for (const name of fs.readdirSync(parent)) {
    const pid = Number(/^run-(\d+)$/.exec(name)?.[1]);
    if (!pid || pid === process.pid) continue;
    try {
      process.kill(pid, 0);
    } catch {
      fs.rmSync(path.join(parent, name), { recursive: true, force: true });
    }
  }
}

/** Whether every asset index.html names was copied (not so while Vite is writing the build). */
function consoleCopyComplete(consoleDist: string): boolean {
  const index = path.join(consoleDist, 'index.html');
  if (!fs.existsSync(index)) return false;
  const assets = [...fs.readFileSync(index, 'utf8').matchAll(/(?:src|href)="\/(assets\/[^"]+)"/g)].map(
    (m) => m[1] ?? '',
  );
  return assets.length > 0 && assets.every((asset) => fs.existsSync(path.join(consoleDist, asset)));
}

/** scrypt cost of the test accounts (see cheapenAdminHash). */
const TEST_SCRYPT_LOG_N = 12;

/**
 * Re-hashes admin's (unchanged) password at a lower scrypt cost. The server stores the cost with
 * each hash and verifies with the same code, but at N=2^17 every one of the run's many admin
 * logins costs half a second of a busy two-core machine. API tests and the benchmark keep the
 * real cost.
 */
async function cheapenAdminHash(build: string, dataDir: string): Promise<void> {
  const passwords = pathToFileURL(path.join(build, 'apps/server/dist/auth/passwords.js')).href;
  const { hashPassword } = (await import(passwords)) as { hashPassword: (p: string, logN: number) => Promise<string> };
  const hash = await hashPassword(ADMIN_PASSWORD, TEST_SCRYPT_LOG_N);
  const db = new Database(path.join(dataDir, 'intercom.sqlite'), { timeout: 10_000 });
  try {
    const changed = db
      .prepare(
        `UPDATE account SET PasswordHash = ? WHERE LoginName = 'admin'
         AND E_ID = (SELECT E_ID FROM enterprise WHERE E_Code = 'DEMO')`,
      )
      .run(hash).changes;
    if (changed !== 1) throw new Error('first-run account admin of DEMO not found');
  } finally {
    db.close();
  }
}

/** Starts (a copy of) the built server on a free port with an empty data directory; stops it afterwards. */
export default async function setup(project: TestProject) {
  // Failure screenshots of an earlier run would only mislead.
  const screenshots = path.join(root, 'e2e/screenshots');
  if (fs.existsSync(screenshots)) {
    for (const name of fs.readdirSync(screenshots)) {
      if (name.startsWith('failed-')) fs.rmSync(path.join(screenshots, name));
    }
  }
  const build = await snapshotBuild();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'intercom-e2e-'));
  const port = await freePort();
  const server = spawn(process.execPath, [path.join(build, 'apps/server/dist/main.js')], {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      ADMIN_PASSWORD,
      LOG_LEVEL: 'warn',
      LOGIN_IP_LIMIT_PER_MINUTE: '1000',
      // Every terminal user the tests make and every login of one cost a full scrypt (2^17, about
      // 0.3 CPU s here) on the shared server; the tests check logins, not the hash's cost.
      PASSWORD_HASH_LOG_N: '12',
      DATABASE_URL: '',
      // Absent until a test writes an archive there (the server opens it per request).
      BASEMAP_PMTILES: path.join(dataDir, PMTILES_FILE),
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const stop = async () => {
    if (server.exitCode === null && server.signalCode === null) {
      server.kill('SIGTERM');
      await new Promise((r) => server.once('exit', r));
    }
    fs.rmSync(dataDir, { recursive: true, force: true });
    fs.rmSync(build, { recursive: true, force: true });
  };
  const baseUrl = `http://127.0.0.1:${port}`;
  try {
    await waitReady(baseUrl, server);
  } catch (error) {
    await stop();
    throw error;
  }
  await cheapenAdminHash(build, dataDir);
  project.provide('baseUrl', baseUrl);
  project.provide('dataDir', dataDir);
  project.provide('adminPassword', ADMIN_PASSWORD);
  project.provide('serverDist', path.join(build, 'apps/server/dist'));
  return stop;
}
