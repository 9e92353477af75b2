import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import WebSocket from 'ws';
import { TerminalSocket } from '@intercom/terminal-client';
import { afterAll, beforeAll } from 'vitest';
import { hashPassword } from '../../src/auth/passwords.js';
import { sleep } from '../hub/hubTestApp.js';

// The built server (apps/server/dist/main.js) as a child process on a data directory or a
// PostgreSQL database of its own, and terminals that drive it: for the tests that signal or kill it.
export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');
const PASSWORD = 'Term#2026';

/** Compiles the server (and the contract) so dist/ matches the sources under test. */
export function buildServer(): void {
  execFileSync(path.join(root, 'node_modules/.bin/tsc'), ['-b', 'packages/contract', 'apps/server'], {
    cwd: root,
    stdio: 'inherit',
  });
}

export interface Store {
  env: Record<string, string>;
  exec(sql: string, params: unknown[]): Promise<void>;
  rows(sql: string): Promise<{ U_ID: number; H_Time: number }[]>;
  drop(): Promise<void>;
}

/** SQLite in `dataDir`, or a fresh database on TEST_DATABASE_URL's server (`adminUrl` null: SQLite always). */
export async function store(
  dataDir: string,
  prefix = 'intercom_built',
  adminUrl: string | null = process.env.TEST_DATABASE_URL ?? null,
): Promise<Store> {
  if (!adminUrl) {
    const file = path.join(dataDir, 'intercom.sqlite');
    const open = () => {
      const db = new SQLite(file);
      db.pragma('busy_timeout = 10000');
      return db;
    };
    return {
      env: {},
      exec(sql, params) {
        const db = open();
        db.prepare(sql.replace(/\$\d+/g, '?')).run(...params);
        db.close();
        return Promise.resolve();
      },
      rows(sql) {
        const db = open();
        const rows = db.prepare(sql).all() as { U_ID: number; H_Time: number }[];
        db.close();
        return Promise.resolve(rows);
      },
      async drop() {},
    };
  }
  const name = `${prefix}_${process.pid}_${randomBytes(4).toString('hex')}`;
  const admin = async (sql: string) => {
    const client = new pg.Client({ connectionString: adminUrl });
    await client.connect();
    await client.query(sql).finally(() => client.end());
  };
  await admin(`create database "${name}"`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const query = async (sql: string, params: unknown[] = []) => {
    const client = new pg.Client({ connectionString: url.toString() });
    await client.connect();
    return client.query(sql, params).finally(() => client.end());
  };
  return {
    env: { DATABASE_URL: url.toString() },
    exec: async (sql, params) => void (await query(sql, params)),
    rows: async (sql) =>
      (await query(sql)).rows.map((r: { U_ID: unknown; H_Time: unknown }) => ({
        U_ID: Number(r.U_ID),
        H_Time: Number(r.H_Time),
      })),
    drop: () => admin(`drop database if exists "${name}" with (force)`),
  };
}

export function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

export interface BuiltServer {
  child: ChildProcess;
  port: number;
  url: string;
  exited: Promise<number | null>;
}

/** Starts dist/main.js on the store (on `port`, or a free one) and waits for /readyz. */
export async function startBuilt(
  dataDir: string,
  db: Store,
  env: Record<string, string> = {},
  port?: number,
  /** Where the server's standard output (its log) goes: a file descriptor, or nowhere. */
  stdout: number | 'ignore' = 'ignore',
): Promise<BuiltServer> {
  port ??= await freePort();
  // BUILT_SERVER_NODE_ARGS: flags for the servers' node only (e.g. `--cpu-prof --cpu-prof-dir=/tmp/p`,
  // which NODE_OPTIONS does not take).
  const nodeArgs = (process.env.BUILT_SERVER_NODE_ARGS ?? '').split(' ').filter(Boolean);
  const child = spawn(process.execPath, [...nodeArgs, path.join(root, 'apps/server/dist/main.js')], {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      ADMIN_PASSWORD: 'Admin#2026pw',
      LOG_LEVEL: 'warn',
      ...db.env,
      ...env,
    },
    stdio: ['ignore', stdout, 'inherit'],
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const url = `http://127.0.0.1:${port}`;
  await untilReady(child, url, 'server');
  return { child, port, url, exited };
}

/** Resolves once `${url}/readyz` answers 200; throws if `child` exits first. */
export async function untilReady(child: ChildProcess, url: string, name: string): Promise<void> {
  for (let ready = false; !ready; await sleep(50)) {
    if (child.exitCode !== null) throw new Error(`${name} exited with ${child.exitCode}`);
    ready = await fetch(`${url}/readyz`).then(
      (r) => r.ok,
      () => false,
    );
  }
}

/** Inserts `count` terminal users of enterprise 1; returns their phones and ids. */
export async function seedTerminalUsers(db: Store, count: number): Promise<{ phone: string; U_ID: number }[]> {
  const hash = await hashPassword(PASSWORD, 10);
  const phones: string[] = [];
  for (let i = 0; i < count; i++) {
    const phone = `1370000${String(i).padStart(4, '0')}`;
    await db.exec(
      `insert into terminal_user ("E_ID","UserName","MobilePhone","UType","PriorityLevel","IsLock","Caps","PasswordHash","GPSConfig","Remark","CreatedAt") values (1,$1,$2,0,0,0,6,$3,'','',$4)`,
      [`S${i}`, phone, hash, Date.now()],
    );
    phones.push(phone);
  }
  const ids = await db.rows(`select "UserID" as "U_ID", 0 as "H_Time" from terminal_user order by "MobilePhone"`);
  return phones.map((phone, i) => ({ phone, U_ID: ids[i]?.U_ID ?? 0 }));
}

/** Fix times are unique across every terminal and every run of one test process. */
let fixTime = Date.now() - 3_600_000;

export interface DriveOptions {
  /** The login was acknowledged; `resumed`: with the token of `resumes` (the ack handed out no new one). */
  onLogin?: (resumed: boolean) => void;
  /** Wait this long after each ack before sending the next fix (default: at once). */
  paceMs?: number;
  /**
   * Each terminal's `resume` token by U_ID, kept across drives: a drive logs in with the one there
   * (a terminal reconnecting, as TerminalSocket does across reconnects) and stores the one its ack gives.
   */
  resumes?: Map<number, string>;
}

/**
 * One terminal that keeps `window` fixes in flight and adds `U_ID:time` of each acknowledged one to
 * `acked`; resolves when its socket closes (or `stop` is called). No timeouts and no heartbeats: a
 * fix waits for its ack as long as the server lives, and the fixes keep the connection alive.
 */
export function drive(
  url: string,
  terminal: { phone: string; U_ID: number },
  acked: Set<string>,
  window: number,
  options: DriveOptions = {},
): { done: Promise<void>; stop(): void } {
  const socket = new WebSocket(url);
  const client = new TerminalSocket({ connect: () => socket, heartbeatMs: false, requestTimeoutMs: false });
  let inFlight = 0;
  const next = () => (options.paceMs ? setTimeout(pump, options.paceMs) : pump());
  const pump = () => {
    while (inFlight < window && client.isOpen) {
      fixTime += 1;
      const time = fixTime;
      inFlight += 1;
      client
        .request({ type: 'position', lat: 22.5, lon: 114, time })
        .then(() => acked.add(`${terminal.U_ID}:${time}`))
        // A refused fix is not counted; a closed socket ends the drive.
        .catch(() => undefined)
        .finally(() => {
          inFlight -= 1;
          next();
        });
    }
  };
  const start = async () => {
    const resume = options.resumes?.get(terminal.U_ID);
    const ack = await client.login({ phone: terminal.phone, password: PASSWORD, ...(resume ? { resume } : {}) });
    if (typeof ack.resume === 'string') options.resumes?.set(terminal.U_ID, ack.resume);
    options.onLogin?.(resume !== undefined && ack.resume === undefined);
    next();
  };
  // A refused login sends nothing more; the server closes and `done` resolves.
  client.on('open', () => void start().catch(() => undefined));
  const done = new Promise<void>((resolve) => client.on('close', () => resolve()));
  return { done, stop: () => socket.terminate() };
}

/** Acknowledged fixes that are not in location_history (the acks as they are when it is called). */
export async function missingAcked(db: Store, acked: Set<string>): Promise<{ missing: string[]; stored: number }> {
  // Taken before the query: an ack that arrives while it runs may be of a row committed after its snapshot.
  const wanted = [...acked];
  const stored = new Set(
    (await db.rows(`select "U_ID", "H_Time" from location_history`)).map((r) => `${r.U_ID}:${r.H_Time}`),
  );
  return { missing: wanted.filter((key) => !stored.has(key)), stored: stored.size };
}

/** What a test file that runs the built server on its own store gets from `builtSuite`. */
export interface BuiltSuite {
  dataDir: string;
  db: Store;
  /** Killed (SIGKILL) after the file if still running. */
  servers: BuiltServer[];
}

/**
 * Registers the file's beforeAll (build the server, a data directory, a store) and afterAll (kill
 * what still runs, drop the store, remove the directory); the fields are set once beforeAll ran.
 * `adminUrl` as for `store`: null keeps the file on SQLite whatever TEST_DATABASE_URL says.
 */
export function builtSuite(name: string, adminUrl?: string | null): BuiltSuite {
  const suite = { servers: [] } as unknown as BuiltSuite;
  beforeAll(async () => {
    buildServer();
    suite.dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `intercom-${name}-`));
    suite.db = await store(suite.dataDir, `intercom_${name}`, adminUrl);
  }, 180_000);
  afterAll(async () => {
    for (const server of suite.servers) if (server.child.exitCode === null) server.child.kill('SIGKILL');
    await suite.db?.drop();
    if (suite.dataDir) fs.rmSync(suite.dataDir, { recursive: true, force: true });
  });
  return suite;
}
