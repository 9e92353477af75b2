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
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../../src/auth/passwords.js';
import { sleep } from '../realtime/hubTestApp.js';

// SIGTERM during ingest: every fix the server acknowledged is in the database afterwards.
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');
const TERMINALS = 20;
const WINDOW = 20;
const PASSWORD = 'Term#2026';

interface Store {
  env: Record<string, string>;
  exec(sql: string, params: unknown[]): Promise<void>;
  rows(sql: string): Promise<{ U_ID: number; H_Time: number }[]>;
  drop(): Promise<void>;
}

async function store(dataDir: string): Promise<Store> {
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) {
    const file = path.join(dataDir, 'intercom.sqlite');
    const open = () => {
      const db = new SQLite(file);
      db.pragma('busy_timeout = 10000');
      return db;
    };
    return {
      env: {},
      async exec(sql, params) {
        const db = open();
        db.prepare(sql.replace(/\$\d+/g, '?')).run(...params);
        db.close();
      },
      async rows(sql) {
        const db = open();
        const rows = db.prepare(sql).all() as { U_ID: number; H_Time: number }[];
        db.close();
        return rows;
      },
      async drop() {},
    };
  }
  const name = `intercom_sigterm_${process.pid}_${randomBytes(4).toString('hex')}`;
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

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** One terminal that keeps WINDOW fixes in flight and records which were acknowledged. */
function drive(url: string, phone: string, U_ID: number, acked: Set<string>): Promise<void> {
  return new Promise((resolve) => {
    const socket = new WebSocket(url);
    const sent = new Map<number, number>();
    let seq = 0;
    let time = Date.now() - 3_600_000;
    const pump = () => {
      while (sent.size < WINDOW && socket.readyState === WebSocket.OPEN) {
        seq += 1;
        time += 1;
        sent.set(seq, time);
        socket.send(JSON.stringify({ seq, type: 'position', lat: 22.5, lon: 114, time }));
      }
    };
    socket.on('open', () => socket.send(JSON.stringify({ seq: 0, type: 'login', phone, password: PASSWORD })));
    socket.on('message', (data) => {
      const message = JSON.parse(String(data)) as { type: string; seq: number };
      if (message.type === 'ack' && message.seq !== 0) acked.add(`${U_ID}:${sent.get(message.seq)}`);
      if (message.type === 'ack' || message.type === 'error') sent.delete(message.seq);
      pump();
    });
    socket.on('close', () => resolve());
    socket.on('error', () => undefined);
  });
}

let server: ChildProcess | undefined;
let dataDir: string;
let db: Store;

beforeAll(async () => {
  execFileSync(path.join(root, 'node_modules/.bin/tsc'), ['-b', 'packages/contract', 'apps/server'], {
    cwd: root,
    stdio: 'inherit',
  });
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'intercom-sigterm-'));
  db = await store(dataDir);
}, 180_000);
afterAll(async () => {
  if (server && server.exitCode === null) server.kill('SIGKILL');
  await db.drop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('shutdown', () => {
  it('writes every acknowledged fix when SIGTERM arrives during ingest', async () => {
    const port = await freePort();
    const env = {
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      ADMIN_PASSWORD: 'Admin#2026pw',
      LOG_LEVEL: 'warn',
      ...db.env,
    };
    const child = spawn(process.execPath, [path.join(root, 'apps/server/dist/main.js')], {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    server = child;
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    for (let ready = false; !ready; await sleep(50)) {
      ready = await fetch(`http://127.0.0.1:${port}/readyz`).then(
        (r) => r.ok,
        () => false,
      );
    }
    const hash = await hashPassword(PASSWORD, 10);
    const phones: string[] = [];
    for (let i = 0; i < TERMINALS; i++) {
      const phone = `1370000${String(i).padStart(4, '0')}`;
      await db.exec(
        `insert into terminal_user ("E_ID","UserName","MobilePhone","UType","PriorityLevel","IsLock","Caps","PasswordHash","GPSConfig","Remark","CreatedAt") values (1,$1,$2,0,0,0,6,$3,'','',$4)`,
        [`S${i}`, phone, hash, Date.now()],
      );
      phones.push(phone);
    }
    const ids = await db.rows(`select "UserID" as "U_ID", 0 as "H_Time" from terminal_user order by "MobilePhone"`);
    const acked = new Set<string>();
    const drivers = phones.map((phone, i) => drive(`ws://127.0.0.1:${port}/terminal`, phone, ids[i]?.U_ID ?? 0, acked));
    await sleep(1500);
    const ackedBeforeSignal = acked.size;
    child.kill('SIGTERM');
    await Promise.all(drivers);
    expect(await exited).toBe(0);
    expect(ackedBeforeSignal).toBeGreaterThan(100);

    const stored = new Set(
      (await db.rows(`select "U_ID", "H_Time" from location_history`)).map((r) => `${r.U_ID}:${r.H_Time}`),
    );
    const missing = [...acked].filter((key) => !stored.has(key));
    expect(missing).toEqual([]);
    expect(stored.size).toBeGreaterThanOrEqual(acked.size);
  }, 60_000);
});
