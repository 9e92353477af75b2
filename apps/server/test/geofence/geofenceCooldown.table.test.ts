import { describe, expect, it } from 'vitest';
import { FakeClock } from '../../src/core/clock.js';
import { GeofenceWatcher } from '../../src/modules/geofence/index.js';
import { data, insertUsers, org } from '../channelFixtures.js';
import { useTestApp } from '../useTestApp.js';

// Issue 50, goal 2: the geofence alarm cooldown as a table in fake time (GEOFENCE_ALARM_COOLDOWN_SECONDS,
// docs/safety.md): at most one entry-or-exit alarm, and one dwell alarm, per user and fence a cooldown,
// timed by the server's clock (a FakeClock here); the crossings inside it are recorded all the same.
// The watcher checks fixes against two fences of the test database, 1 km apart. Each row: fixes of
// users A and B at times (ms from the start; the fix's time is the clock's), the alarms raised, when,
// and where each user is inside at the end (geofence_state).
const t = useTestApp();

const DEPOT = [22.54, 114.05] as const;
/** A place `metres` north of the depot's centre. */
const north = (metres: number) => ({ lat: DEPOT[0] + metres / 111_195, lon: DEPOT[1] });
const PLACES = { depot: north(20), out: north(300), yard: north(1_000) };
type Place = keyof typeof PLACES;
type User = 'A' | 'B';

interface Row {
  name: string;
  cooldownMs?: number;
  /** The depot's dwell alarm, in minutes (0: none). */
  dwellMinutes?: number;
  fixes: [at: number, user: User, place: Place][];
  alarms: [number, string][];
  inside: string[];
}

/** In and out of the depot every 5 s for a minute, starting inside at 5 s and ending outside. */
const flapping = Array.from({ length: 12 }, (_, i): [number, User, Place] => [
  (i + 1) * 5_000,
  'A',
  i % 2 ? 'out' : 'depot',
]);

const TABLE: Row[] = [
  {
    name: 'one entry alarm; the exit within the cooldown is recorded, not alarmed',
    fixes: [
      [0, 'A', 'out'],
      [1_000, 'A', 'depot'],
      [30_000, 'A', 'out'],
    ],
    alarms: [[1_000, 'A GeofenceEnter Depot']],
    inside: [],
  },
  {
    name: 'a crossing a cooldown after the last alarm alarms',
    fixes: [
      [0, 'A', 'out'],
      [1_000, 'A', 'depot'],
      [61_000, 'A', 'out'],
    ],
    alarms: [
      [1_000, 'A GeofenceEnter Depot'],
      [61_000, 'A GeofenceExit Depot'],
    ],
    inside: [],
  },
  {
    name: 'a millisecond before the cooldown ends, it does not',
    fixes: [
      [0, 'A', 'out'],
      [1_000, 'A', 'depot'],
      [60_999, 'A', 'out'],
      [61_500, 'A', 'depot'],
    ],
    alarms: [
      [1_000, 'A GeofenceEnter Depot'],
      [61_500, 'A GeofenceEnter Depot'],
    ],
    inside: ['A Depot'],
  },
  {
    name: 'in and out every 5 s for a minute: one alarm, then the first crossing after the cooldown',
    fixes: [[0, 'A', 'out'], ...flapping, [65_000, 'A', 'depot']],
    alarms: [
      [5_000, 'A GeofenceEnter Depot'],
      [65_000, 'A GeofenceEnter Depot'],
    ],
    inside: ['A Depot'],
  },
  {
    name: 'each user has a cooldown of its own',
    fixes: [
      [0, 'A', 'out'],
      [0, 'B', 'out'],
      [1_000, 'A', 'depot'],
      [2_000, 'B', 'depot'],
      [3_000, 'A', 'out'],
      [4_000, 'B', 'out'],
      [5_000, 'B', 'depot'],
    ],
    alarms: [
      [1_000, 'A GeofenceEnter Depot'],
      [2_000, 'B GeofenceEnter Depot'],
    ],
    inside: ['B Depot'],
  },
  {
    name: 'each fence has a cooldown of its own: leaving one for the other alarms the entry only',
    fixes: [
      [0, 'A', 'out'],
      [1_000, 'A', 'depot'],
      [2_000, 'A', 'yard'],
    ],
    alarms: [
      [1_000, 'A GeofenceEnter Depot'],
      [2_000, 'A GeofenceEnter Yard'],
    ],
    inside: ['A Yard'],
  },
  {
    name: 'a dwell alarm has a cooldown of its own, apart from entry and exit',
    cooldownMs: 120_000,
    dwellMinutes: 1,
    fixes: [
      [0, 'A', 'out'],
      [1_000, 'A', 'depot'],
      [61_000, 'A', 'depot'],
      [90_000, 'A', 'out'],
      [121_000, 'A', 'depot'],
    ],
    alarms: [
      [1_000, 'A GeofenceEnter Depot'],
      [61_000, 'A GeofenceDwell Depot (1 min)'],
      [121_000, 'A GeofenceEnter Depot'],
    ],
    inside: ['A Depot'],
  },
  {
    name: 'no cooldown (0): every crossing alarms',
    cooldownMs: 0,
    fixes: [
      [0, 'A', 'out'],
      [1_000, 'A', 'depot'],
      [2_000, 'A', 'out'],
      [3_000, 'A', 'depot'],
    ],
    alarms: [
      [1_000, 'A GeofenceEnter Depot'],
      [2_000, 'A GeofenceExit Depot'],
      [3_000, 'A GeofenceEnter Depot'],
    ],
    inside: ['A Depot'],
  },
];

async function run(row: Row): Promise<{ alarms: [number, string][]; inside: string[] }> {
  const o = await org(t);
  const fence = async (Name: string, center: { lat: number; lon: number }, DwellMinutes: number) => {
    const body = { Name, Kind: 'circle', Center: [center.lat, center.lon], Radius: 100, Enter: true, Exit: true };
    const saved = await o.api.postJson('/api/Geofence/Save', { ...body, DwellMinutes });
    return data<{ GF_ID: number }>(saved).GF_ID;
  };
  const fences = new Map([
    [await fence('Depot', north(0), row.dwellMinutes ?? 0), 'Depot'],
    [await fence('Yard', PLACES.yard, 0), 'Yard'],
  ]);
  const [a, b] = await insertUsers(t, o.E_ID, 2);
  const users = new Map<number, User>([
    [a!, 'A'],
    [b!, 'B'],
  ]);
  const clock = new FakeClock();
  const start = clock.now();
  const alarms: [number, string][] = [];
  const watcher = new GeofenceWatcher(
    t.db,
    (subject, NType, Content) => {
      alarms.push([
        clock.now() - start,
        `${users.get(subject.U_ID)} ${NType} ${typeof Content === 'string' ? Content : Content.text}`,
      ]);
      return Promise.resolve();
    },
    {
      onError: (error) => {
        throw error;
      },
      clock,
      alarmCooldownMs: row.cooldownMs ?? 60_000,
    },
  );
  for (const [at, user, place] of row.fixes) {
    await clock.advance(start + at - clock.now());
    const U_ID = user === 'A' ? a! : b!;
    watcher.check({ E_ID: o.E_ID, U_ID, Phone: '' }, [{ ...PLACES[place], time: clock.now(), accuracy: 5 }]);
    await watcher.settle();
  }
  const rows = await t.db
    .selectFrom('geofence_state')
    .select(['U_ID', 'GF_ID'])
    .where('U_ID', 'in', [a!, b!])
    .execute();
  const inside = rows.map((r) => `${users.get(r.U_ID)} ${fences.get(r.GF_ID)}`).sort();
  return { alarms, inside };
}

describe('the geofence alarm cooldown, in fake time', () => {
  it.each(TABLE)('$name', async (row) => {
    expect(await run(row)).toEqual({ alarms: row.alarms, inside: row.inside });
  });
});
