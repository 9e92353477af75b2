// The server's live state applying moves (issue 10): CPU time per 50,000 users' fixes arriving
// as `users` batches from the event bus (as the load process and other instances publish them),
// through LiveState to the GPS texts the hub pushes. No network, no database: the share of the
// server that grows with the number of moving users.
//   npx tsc -b packages/contract apps/server && npx tsx bench/liveState.ts
// LIVE_BENCH_USERS (50000), LIVE_BENCH_ROUNDS (30: every user moves once per round).
import { InProcessEventBus, type LiveUser } from '../apps/server/src/bus/eventBus.js';
import { gpsJsonOfFix } from '../apps/server/src/live/liveRecords.js';
import { LiveState } from '../apps/server/src/live/liveState.js';

const USERS = Number(process.env.LIVE_BENCH_USERS ?? 50_000);
const ROUNDS = Number(process.env.LIVE_BENCH_ROUNDS ?? 30);
const BATCH = 1000;
const E_ID = 1;

const bus = new InProcessEventBus((error) => {
  throw error;
});
const live = new LiveState(bus, { staleSweepMs: 60_000 });
let texts = 0;
let bytes = 0;
live.onChange((change) => {
  if (change.kind !== 'gps') return;
  texts++;
  // The text a JSON connection's push writes for it (MessagePack connections never make it).
  bytes += gpsJsonOfFix(change.fix).length;
});

const now = Date.now();
const user = (U_ID: number, round: number): LiveUser => ({
  E_ID,
  U_ID,
  Phone: `136${String(U_ID).padStart(8, '0')}`,
  UserName: `Patrol ${U_ID}`,
  position: {
    lat: 22.5 + ((U_ID % 500) + round * 0.37) * 1e-4,
    lon: 114 + (Math.floor(U_ID / 500) + round * 0.41) * 1e-4,
    time: now + round * 1000,
    speed: 12.5 + (round % 7),
    course: (U_ID * 7 + round * 11) % 360,
    interval: 5,
  },
  battery: 80 - (round % 20),
  signal: 4,
  online: true,
  onlineAt: now,
  talking: false,
});

/** One round: every user's move, published in batches as the bus delivers them. */
function round(r: number): number {
  // The batches are built outside the timing: on a server they arrive parsed from Redis.
  const batches: LiveUser[][] = [];
  for (let first = 1; first <= USERS; first += BATCH) {
    const users: LiveUser[] = [];
    for (let U_ID = first; U_ID < first + BATCH && U_ID <= USERS; U_ID++) users.push(user(U_ID, r));
    batches.push(users);
  }
  const started = process.cpuUsage();
  for (const users of batches) bus.publish({ kind: 'users', E_ID, users });
  const used = process.cpuUsage(started);
  return (used.user + used.system) / 1000;
}

round(0); // every user arrives once (the snapshot's entries are made)
const times: number[] = [];
for (let r = 1; r <= ROUNDS; r++) times.push(round(r));
times.sort((a, b) => a - b);
const median = times[Math.floor(times.length / 2)]!;
const result = {
  users: USERS,
  rounds: ROUNDS,
  cpuMsPerRound: {
    median: Math.round(median * 10) / 10,
    min: Math.round(times[0]! * 10) / 10,
    max: Math.round(times.at(-1)! * 10) / 10,
  },
  gpsTexts: texts,
  bytesPerText: Math.round(bytes / Math.max(1, texts)),
  gpsOnline: live.gpsOnlineCount([E_ID]),
};
console.log(JSON.stringify(result, null, 2));
live.close();
