// Load generator for bench/map.ts, run as its own process:
//   tsx bench/support/busLoad.ts '<json options>'
// Moves `count` seeded terminal users of one enterprise, each once a second, by publishing `users`
// events (batches of whole live entries) on the server's Redis event bus, as another server
// instance with those terminals connected would. It needs no socket per terminal, so one process on
// a small machine can move 50,000 users, where logging 50,000 terminals in over /terminal cannot.
// The positions still reach the browser through the real server: its LiveState, scope feed and hub.
// Prints a JSON line once every user has been published once ({ ready }), then one a second.
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Redis } from 'ioredis';
import type { LiveUser } from '../../apps/server/src/bus/eventBus.js';
import { encodeUsersFrame } from '../../apps/server/src/bus/usersFrame.js';

interface BusLoadOptions {
  redisUrl: string;
  /** The server's bus channel: `<REDIS_PREFIX>:realtime`. */
  channel: string;
  /** The server's SQLite data directory, to read the seeded users' ids, phones and names. */
  dataDir: string;
  count: number;
  /** Users in one bus message. */
  batch?: number;
  /** Report interval the fixes claim, s: they stay GPS-online while the load keeps up. */
  interval?: number;
  /**
   * How the batches travel: `binary` (default) as instances publish them, users frames on
   * `<channel>:users` (apps/server/src/bus/usersFrame.ts); `json` as JSON envelopes on the channel,
   * as instances did before the frames (both are read).
   */
  frame?: 'binary' | 'json';
}

const options = JSON.parse(process.argv[2] ?? '{}') as BusLoadOptions;
const BATCH = options.batch ?? 500;
const TICK_MS = 50;
const E_ID = 1;
const origin = `bench-bus-load-${process.pid}`;

const db = new SQLite(path.join(options.dataDir, 'intercom.sqlite'), { readonly: true });
const rows = db
  .prepare(`select "UserID", "MobilePhone", "UserName" from terminal_user where "E_ID" = ? order by "UserID" limit ?`)
  .all(E_ID, options.count) as { UserID: number; MobilePhone: string; UserName: string }[];
db.close();

const now = Date.now();
const users: LiveUser[] = rows.map((row) => ({
  E_ID,
  U_ID: row.UserID,
  Phone: row.MobilePhone,
  UserName: row.UserName,
  position: {
    lat: 22.5 + Math.random() * 0.1,
    lon: 114 + Math.random() * 0.1,
    time: now,
    speed: 30,
    course: 0,
    interval: options.interval ?? 10,
  },
  battery: 80,
  signal: 70,
  online: true,
  onlineAt: now,
  talking: false,
}));

const redis = new Redis(options.redisUrl, { maxRetriesPerRequest: null });
let published = 0;
let next = 0;
let ready = false;
let lastReport = Date.now();
let lastPublished = 0;

let credit = 0;
let lastTick = Date.now();

/** Publishes the users due since the last tick (a busy machine delays ticks), so each moves once a second. */
function tick(): void {
  const at0 = Date.now();
  credit = Math.min(credit + (users.length * (at0 - lastTick)) / 1000, users.length);
  lastTick = at0;
  let due = Math.floor(credit);
  credit -= due;
  while (due > 0) {
    const batch: LiveUser[] = [];
    while (batch.length < Math.min(BATCH, due)) {
      const user = users[next]!;
      const position = user.position!;
      // Strictly increasing fix times: the page measures fix-to-frame against this stamp.
      position.time = Math.max(Date.now(), position.time + 1);
      position.lat += 0.00001;
      batch.push(user);
      next = (next + 1) % users.length;
      if (next === 0) ready = true;
    }
    due -= batch.length;
    published += batch.length;
    if (options.frame === 'json') {
      void redis.publish(options.channel, JSON.stringify({ o: origin, e: { kind: 'users', E_ID, users: batch } }));
    } else {
      void redis.publish(`${options.channel}:users`, encodeUsersFrame(origin, E_ID, batch));
    }
  }
  const at = Date.now();
  if (ready && at - lastReport >= 1000) {
    const perSecond = Math.round(((published - lastPublished) * 1000) / (at - lastReport));
    process.stdout.write(`${JSON.stringify({ ready: true, users: users.length, perSecond })}\n`);
    lastReport = at;
    lastPublished = published;
  }
}

const timer = setInterval(tick, TICK_MS);
process.on('SIGTERM', () => {
  clearInterval(timer);
  void redis.quit().finally(() => process.exit(0));
});
