// Broadcast server for bench/ingest.ts, run as its own process:
//   tsx --conditions=development bench/support/broadcastServer.ts hub|socketio
// Prints `{"port":N}`, then on a line `go <seconds>` on stdin produces GPS updates of 1,000 users,
// 50 per event-loop turn, as fast as the server lets it, for that long, and prints `{"produced":N}`;
// `go <seconds> <rate>` produces that many updates a second instead.
// hub: the real /FuncService (buildApp) with pushIntervalMs 0, so every turn's changes are pushed
// at once; with a third argument (or BENCH_HUB_PUSH_MS), pushes at that interval instead, as the
// product does (50 ms: a push carries each user's newest of that time); socketio: socket.io 4 broadcasting the same GPS delta to every client. Both skip a turn
// while a client has more than 64 pushes waiting (the hub's held ones counted: see below).
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { Server } from 'socket.io';
import { buildApp } from '../../apps/server/src/app.js';
import { hashPassword } from '../../apps/server/src/auth/passwords.js';
import { loadConfig } from '../../apps/server/src/config.js';
import { createDeps } from '../../apps/server/src/createDeps.js';
import { seedFirstRun } from '../../apps/server/src/auth/seedFirstRun.js';
import { insertAdminAccount } from './adminAccount.js';
import { SEED_PASSWORD } from './seedTerminals.js';

const USERS = 1000;
const PER_TURN = 50;
const mode = process.argv[2];
let cursor = 0;

function record(i: number) {
  const U_ID = (i % USERS) + 1;
  return {
    U_ID,
    E_ID: 1,
    Phone: `136${String(U_ID).padStart(8, '0')}`,
    UserName: `Bench${U_ID}`,
    lat: 22.5 + (i % 997) / 1e4,
    lon: 114,
    time: Date.now(),
    speed: 30,
    course: 90,
  };
}

/** What the hub pushes for one of those updates (contract GpsRecord): socket.io sends the same. */
function gpsRecord(i: number) {
  return { ...record(i), battery: null, signal: null, online: false, talking: false, gpsOnline: true, interval: 1 };
}

/** The characters of one producer turn's push (PER_TURN records). */
const PUSH_CHARS = JSON.stringify({
  type: 'GPS',
  data: Array.from({ length: PER_TURN }, (_, i) => gpsRecord(i)),
}).length;

/**
 * Back-pressure, the same for both servers: a turn is skipped while some client has more than this
 * many pushes waiting, counted as waitingPushes does.
 */
const MAX_WAITING_PUSHES = 64;

/**
 * Pushes waiting for one client: those its server holds for it as pushes (socket.io's queue, the
 * hub's held ones), plus what waits in the client's socket, in pushes' worth of characters.
 * Before, the hub's held pushes were not counted, so its producer was never held back and its CPU
 * went on updates that conflation then dropped; nor did either count its socket's buffer.
 */
function waitingPushes(pushes: number, socketChars: number): number {
  return pushes + socketChars / PUSH_CHARS;
}

let produce: () => boolean;
// Stopped by the bench with SIGTERM: exit properly, so a --cpu-prof profile is written.
process.on('SIGTERM', () => process.exit(0));

if (mode === 'hub') {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'intercom-broadcast-'));
  process.on('exit', () => fs.rmSync(dataDir, { recursive: true, force: true }));
  const config = loadConfig({
    DATA_DIR: dataDir,
    ADMIN_PASSWORD: SEED_PASSWORD,
    LOG_LEVEL: 'silent',
    LOGIN_IP_LIMIT_PER_MINUTE: '100000',
  });
  const { deps } = await createDeps(config, { sqliteFile: ':memory:', passwordLogN: 10 });
  await seedFirstRun(deps.db, config.adminPassword, 10);
  const hash = await hashPassword(SEED_PASSWORD, 10);
  for (const name of ['bench1', 'bench2', 'bench3']) {
    await insertAdminAccount(deps.db, {
      E_ID: 1,
      LoginName: name,
      Name: name,
      PasswordHash: hash,
      CreatedAt: Date.now(),
    });
  }
  const pushIntervalMs = Number(process.argv[3] ?? process.env.BENCH_HUB_PUSH_MS ?? 0);
  const app = await buildApp(deps, { hub: { pushIntervalMs } });
  await app.listen({ port: 0, host: '127.0.0.1' });
  process.stdout.write(`${JSON.stringify({ port: (app.server.address() as { port: number }).port })}\n`);
  const { live } = deps.realtime;
  // The hub queues at most one push per connection and merges the rest into what it holds for it
  // (conflation): a push held counts as waiting (waitingPushes). A producer turn is one push
  // (pushIntervalMs 0), and a connection not ready for pushes at a turn has that turn's push held.
  const heldPushes = new Map<object, number>();
  produce = () => {
    const connections = app.hub.connections();
    for (const connection of connections) {
      if (connection.readyForPushes) heldPushes.set(connection, 0);
      else if (waitingPushes(heldPushes.get(connection) ?? 0, connection.pendingChars) > MAX_WAITING_PUSHES) {
        return false;
      }
    }
    for (let j = 0; j < PER_TURN; j++) live.reportPosition(record(cursor++));
    // This turn's push is held (merged) for every connection not ready for it.
    for (const connection of connections) {
      if (!connection.readyForPushes) heldPushes.set(connection, (heldPushes.get(connection) ?? 0) + 1);
    }
    return true;
  };
} else if (mode === 'socketio') {
  const server = http.createServer();
  const io = new Server(server, { transports: ['websocket'], serveClient: false });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  process.stdout.write(`${JSON.stringify({ port: (server.address() as { port: number }).port })}\n`);
  produce = () => {
    for (const socket of io.of('/').sockets.values()) {
      const engine = socket.conn as unknown as {
        writeBuffer: unknown[];
        transport: { socket?: { bufferedAmount: number } };
      };
      const socketChars = engine.transport.socket?.bufferedAmount ?? 0;
      if (waitingPushes(engine.writeBuffer.length, socketChars) > MAX_WAITING_PUSHES) return false;
    }
    const data = Array.from({ length: PER_TURN }, () => gpsRecord(cursor++));
    io.emit('pushMsg', { type: 'GPS', data });
    return true;
  };
} else {
  throw new Error('usage: broadcastServer.ts hub|socketio');
}

/** As fast as the clients take it: a turn of PER_TURN updates per event-loop turn, or a 1 ms wait while gated. */
function saturate(seconds: number): Promise<number> {
  const until = Date.now() + seconds * 1000;
  let produced = 0;
  return new Promise((resolve) => {
    const turn = () => {
      if (Date.now() >= until) return resolve(produced);
      // Held back: look again in a millisecond rather than spin, which would charge each server
      // for its gate's checks instead of its fan-out.
      if (produce()) {
        produced += PER_TURN;
        setImmediate(turn);
      } else setTimeout(turn, 1);
    };
    turn();
  });
}

/** A fixed rate, in turns of PER_TURN every 10 ms: the same work for both servers, so CPU compares. */
function paced(seconds: number, perSecond: number): Promise<number> {
  const turnsPerTick = Math.max(1, Math.round(perSecond / 100 / PER_TURN));
  const until = Date.now() + seconds * 1000;
  let produced = 0;
  return new Promise((resolve) => {
    const timer = setInterval(() => {
      if (Date.now() >= until) {
        clearInterval(timer);
        resolve(produced);
        return;
      }
      for (let k = 0; k < turnsPerTick; k++) if (produce()) produced += PER_TURN;
    }, 10);
  });
}

// `go <seconds>` saturates; `go <seconds> <updates per second>` paces.
for await (const line of readline.createInterface({ input: process.stdin })) {
  const match = /^go (\d+)(?: (\d+))?/.exec(line);
  if (!match) continue;
  const seconds = Number(match[1]);
  const produced = match[2] ? await paced(seconds, Number(match[2])) : await saturate(seconds);
  process.stdout.write(`${JSON.stringify({ produced })}\n`);
}
