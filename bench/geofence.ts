// Geofence check cost per fix (issue 32): CPU time the GeofenceWatcher spends on one fix when the
// user's enterprise has 10,000 fences (circles of 50-500 m and polygons of 8-40 points packed over a
// 45 x 60 km city, so a fix lies in about one fence) against an enterprise with none. In process, on
// SQLite in memory: the watcher as TerminalService calls it after a fix is queued, with its real
// reads and writes of geofence_state at each crossing; the alarm itself is counted, not stored.
// The full ingest bench (bench/ingest.ts) is the cost a fix has without it.
//   npx tsc -b packages/contract apps/server && npx tsx bench/geofence.ts
// GEOFENCE_BENCH_FENCES (10000), GEOFENCE_BENCH_USERS (2000), GEOFENCE_BENCH_ROUNDS (20).
// Then, on the same fences, ours against @turf/* and cheap-ruler per shape test (issue 53; see
// bench/support/geodesyLibraries.ts), printed as `libraries`: GEOFENCE_BENCH_SAMPLE_MS (100) of CPU
// per sample, GEOFENCE_BENCH_SAMPLES (9), GEOFENCE_BENCH_PROBES (8 per fence), GEOFENCE_BENCH_BIG (50
// polygons of 500 points); GEOFENCE_BENCH_LIBRARIES=0 leaves the comparison out.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openDatabase } from '../apps/server/src/db/database.js';
import { migrateToLatest } from '../apps/server/src/db/migrate.js';
import { GeofenceWatcher } from '../apps/server/src/modules/geofence/index.js';
import { compareGeodesy } from './support/geodesyLibraries.js';

const FENCES = Number(process.env.GEOFENCE_BENCH_FENCES ?? 10_000);
const USERS = Number(process.env.GEOFENCE_BENCH_USERS ?? 2_000);
const ROUNDS = Number(process.env.GEOFENCE_BENCH_ROUNDS ?? 20);
const WITH_FENCES = 1;
const WITHOUT = 2;
const AREA = { lat: 22.4, lon: 113.8, dLat: 0.4, dLon: 0.6 };

/** A small deterministic generator, so every run draws the same city. */
let seed = 42;
const random = () => {
  seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
  return seed / 2_147_483_648;
};

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'geofence-bench-'));
const database = openDatabase({ databaseUrl: undefined, dataDir, sqliteFile: ':memory:' });
const { db } = database;
await migrateToLatest(db);

const now = Date.now();
const rows = Array.from({ length: FENCES }, (_, i) => {
  const lat = AREA.lat + random() * AREA.dLat;
  const lon = AREA.lon + random() * AREA.dLon;
  const radius = 50 + random() * 450;
  const polygon = i % 5 === 0;
  const n = 8 + Math.floor(random() * 33);
  const points = Array.from({ length: n }, (_, k) => {
    const angle = (2 * Math.PI * k) / n;
    const r = (radius * (0.7 + 0.3 * random())) / 111_195;
    return [lat + r * Math.sin(angle), lon + (r * Math.cos(angle)) / Math.cos((lat * Math.PI) / 180)];
  });
  return {
    E_ID: WITH_FENCES,
    Name: `Fence ${i}`,
    Kind: polygon ? 'polygon' : 'circle',
    CenterLat: polygon ? null : lat,
    CenterLon: polygon ? null : lon,
    Radius: polygon ? null : radius,
    Points: polygon ? JSON.stringify(points) : '',
    Enter: 1,
    Exit: 1,
    DwellMinutes: 10,
    CreatedAt: now,
    UpdatedAt: now,
  };
});
for (let i = 0; i < rows.length; i += 500)
  await db
    .insertInto('geofence')
    .values(rows.slice(i, i + 500))
    .execute();

let alarms = 0;
const watcher = new GeofenceWatcher(
  db,
  () => {
    alarms++;
    return Promise.resolve();
  },
  {
    onError: (error) => {
      throw error;
    },
  },
);

const users = Array.from({ length: USERS }, () => ({
  lat: AREA.lat + random() * AREA.dLat,
  lon: AREA.lon + random() * AREA.dLon,
}));

/**
 * One round: every user moves up to `step` degrees each way (0.0005: about 30 m, a walk that
 * crosses a fence edge every few fixes in a city this full of fences; 0.00003: GPS noise of a user
 * standing still) and reports; returns the CPU milliseconds until all are checked.
 */
async function round(E_ID: number, r: number, offset: number, step: number): Promise<number> {
  const started = process.cpuUsage();
  for (let i = 0; i < USERS; i++) {
    const user = users[i]!;
    user.lat += (random() - 0.5) * step;
    user.lon += (random() - 0.5) * step;
    const subject = { E_ID, U_ID: offset + i + 1, Phone: '' };
    watcher.check(subject, [{ lat: user.lat, lon: user.lon, time: now + r * 5000, accuracy: 8 }]);
  }
  await watcher.settle();
  const used = process.cpuUsage(started);
  return (used.user + used.system) / 1000;
}

let time = 0;
async function scenario(E_ID: number, offset: number, step: number) {
  const alarmsBefore = alarms;
  const firstRound = await round(E_ID, time++, offset, step); // loads the fences and every user's state
  const times: number[] = [];
  for (let r = 1; r <= ROUNDS; r++) times.push(await round(E_ID, time++, offset, step));
  times.sort((a, b) => a - b);
  const median = times[Math.floor(times.length / 2)]!;
  return {
    firstRoundMs: Math.round(firstRound),
    cpuMsPerRound: Math.round(median * 10) / 10,
    cpuMicrosecondsPerFix: Math.round((median * 1000 * 100) / USERS) / 100,
    alarms: alarms - alarmsBefore,
  };
}

const none = await scenario(WITHOUT, 0, 0.0005);
const walking = await scenario(WITH_FENCES, USERS, 0.0005);
const standing = await scenario(WITH_FENCES, USERS, 0.00003);
const libraries =
  process.env.GEOFENCE_BENCH_LIBRARIES === '0'
    ? undefined
    : compareGeodesy(rows, random, {
        sampleMs: Number(process.env.GEOFENCE_BENCH_SAMPLE_MS ?? 100),
        samples: Number(process.env.GEOFENCE_BENCH_SAMPLES ?? 9),
        probesPerFence: Number(process.env.GEOFENCE_BENCH_PROBES ?? 8),
        bigPolygons: Number(process.env.GEOFENCE_BENCH_BIG ?? 50),
        area: AREA,
      });
console.log(
  JSON.stringify(
    {
      fences: FENCES,
      users: USERS,
      rounds: ROUNDS,
      noFences: none,
      withFencesWalking: walking,
      withFencesStanding: standing,
      libraries,
    },
    null,
    2,
  ),
);
await database.close();
fs.rmSync(dataDir, { recursive: true, force: true });
