import { NotificationStates, NotificationTypes } from '@intercom/contract';
import { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { MemoryAlarmEpisodes, RedisAlarmEpisodes } from '../../src/bus/alarmEpisodes.js';
import { insertNotification, unhandledEpisodeAlarms } from '../../src/modules/notify/index.js';
import { authed, loginAdmin } from '../helper.js';
import { until } from '../hub/hubTestApp.js';
import { REDIS_URL, startScaleOut } from './scaleOutApps.js';
import { FAST_TERMINALS, fix, loggedIn, type TerminalTestApp } from './terminalTestApp.js';
import { useTestApp } from '../useTestApp.js';

// State that used to live in one instance's memory: the GPS-online count and the alarm episodes
// (low battery, heart rate) are the same whichever instance a terminal or a console reaches.
const s = useTestApp(() => startScaleOut(FAST_TERMINALS));

const quiet = { warn: () => undefined, info: () => undefined };

async function gpsOnline(t: TerminalTestApp): Promise<number> {
  const res = await authed(t.app, await loginAdmin(t)).get('/api/GISLocation/OnlineSummary');
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ BaseData: { GpsOnline: number } }>().BaseData.GpsOnline;
}

/** Alarms of `NType` for the user, in both databases when each instance has its own. */
async function alarmsOf(U_ID: number, NType: string): Promise<string[]> {
  await Promise.all([s.a.terminals.service.alarms.settle(), s.b.terminals.service.alarms.settle()]);
  const dbs = s.shared ? [s.a.db] : [s.a.db, s.b.db];
  const rows = await Promise.all(
    dbs.map((db) =>
      db
        .selectFrom('notification')
        .select(['Content', 'N_ID'])
        .where('U_ID', '=', U_ID)
        .where('NType', '=', NType)
        // In the order they were raised: PostgreSQL returns rows in no set order (an updated row
        // may come last; CI of 7 Dec 07:02 read 'Battery 9%' before 'Battery 12%').
        .orderBy('N_ID')
        .execute(),
    ),
  );
  return rows.flat().map((row) => row.Content);
}

describe('GPS-online count', () => {
  it('is the same on both instances whichever one the terminal reports to', async () => {
    const before = await gpsOnline(s.b);
    const { phone } = await s.user();
    const onA = await loggedIn(s.a, phone);
    expect((await onA.request({ type: 'position', ...fix() })).type).toBe('ack');
    await until(() => s.b.live.gpsOnlineCount([s.b.demo.E_ID]) === before + 1, 'B to count the fix made on A');
    expect(await gpsOnline(s.b)).toBe(before + 1);
    expect(await gpsOnline(s.a)).toBe(before + 1);
    // A stale fix (ten minutes old) is not GPS-online anywhere.
    const other = await s.user();
    const onB = await loggedIn(s.b, other.phone);
    expect((await onB.request({ type: 'position', ...fix(Date.now() - 600_000) })).type).toBe('ack');
    await until(() => s.a.live.user(s.a.demo.E_ID, other.U_ID) !== undefined, 'A to hear of the stale fix');
    expect(await gpsOnline(s.a)).toBe(before + 1);
    onA.close();
    onB.close();
  });
});

describe('a starting instance', () => {
  it('gets the users connected to the others at once, not at their next report', async () => {
    const { phone, U_ID, E_ID } = await s.user();
    const onA = await loggedIn(s.a, phone);
    expect((await onA.request({ type: 'position', ...fix() })).type).toBe('ack');
    expect((await onA.request({ type: 'status', battery: 63, signal: 80 })).type).toBe('ack');
    await until(() => s.b.live.user(E_ID, U_ID)?.battery === 63, 'B to hear of the report');
    // The terminal beats, as a real one does: starting an instance can take longer than this file's
    // 2 s heartbeat timeout on a loaded machine, and A would then rightly mark the user offline.
    const beat = setInterval(() => onA.send({ type: 'heartbeat' }), 500);
    const c = await s.another();
    try {
      // Only the hand-over can tell C the battery (the terminal reports nothing more here), so a long
      // wait cannot pass through a later report: 5 s was too short beside CI's other passes (7 Dec 04:12).
      await until(() => c.live.user(E_ID, U_ID)?.battery === 63, 'the new instance to be handed the user', 20_000);
      const user = c.live.user(E_ID, U_ID);
      expect(user?.online).toBe(true);
      expect(user?.position?.lat).toBeCloseTo(22.54);
      expect(c.live.onlineCount([E_ID])).toBeGreaterThanOrEqual(1);
    } finally {
      clearInterval(beat);
      onA.close();
      await c.close();
    }
  });
});

describe('alarm episodes', () => {
  it('raises one low-battery alarm per episode when the terminal moves to the other instance', async () => {
    const { phone, U_ID } = await s.user();
    const onA = await loggedIn(s.a, phone);
    expect((await onA.request({ type: 'status', battery: 12, signal: 70 })).type).toBe('ack');
    await s.a.terminals.service.alarms.settle();
    onA.close();
    await onA.closed;
    const onB = await loggedIn(s.b, phone);
    for (const battery of [10, 8, 40, 9]) {
      expect((await onB.request({ type: 'status', battery, signal: 70 })).type).toBe('ack');
      await s.b.terminals.service.alarms.settle();
    }
    // 12 begins the episode (on A); 10 and 8 on B are inside it; 40 ends it; 9 begins the next.
    expect(await alarmsOf(U_ID, NotificationTypes.lowBattery)).toEqual(['Battery 12%', 'Battery 9%']);
    onB.close();
  });

  it('raises one alarm when both instances see the same crossing at once', async () => {
    const { phone, U_ID, E_ID } = await s.user();
    const subject = { E_ID, U_ID, Phone: phone };
    for (const t of [s.a, s.b]) t.terminals.service.alarms.battery(subject, 11);
    for (const t of [s.a, s.b]) t.terminals.service.alarms.heartRate(subject, 190);
    expect(await alarmsOf(U_ID, NotificationTypes.lowBattery)).toHaveLength(1);
    expect(await alarmsOf(U_ID, NotificationTypes.heartRate)).toHaveLength(1);
  });

  it('keeps a running episode for a new instance (a restart) on the same Redis', async () => {
    const { phone, U_ID, E_ID } = await s.user();
    s.a.terminals.service.alarms.heartRate({ E_ID, U_ID, Phone: phone }, 30);
    expect(await alarmsOf(U_ID, NotificationTypes.heartRate)).toHaveLength(1);
    const redis = new Redis(REDIS_URL);
    try {
      const key = `${s.prefix}:alarm:${NotificationTypes.heartRate}:${U_ID}`;
      expect(await redis.pttl(key)).toBeGreaterThan(0);
      const restarted = new RedisAlarmEpisodes(redis, `${s.prefix}:alarm`, quiet);
      expect(await restarted.begin(NotificationTypes.heartRate, U_ID)).toBe(false);
      // Back in range on the other instance ends the episode for everyone.
      s.b.terminals.service.alarms.heartRate({ E_ID, U_ID, Phone: phone }, 80);
      await s.b.terminals.service.alarms.settle();
      expect(await redis.exists(key)).toBe(0);
    } finally {
      await redis.quit();
    }
  });
});

describe('alarm episodes on Redis: cost of in-range reports', () => {
  it('ends an episode with one DEL, not one per in-range report, and again after a new episode', async () => {
    const redis = new Redis(REDIS_URL);
    await redis.ping(); // connected, so the episodes use Redis rather than their in-memory fallback
    let dels = 0;
    const counted = Object.assign(Object.create(redis) as Redis, {
      del: (key: string) => {
        dels += 1;
        return redis.del(key);
      },
    });
    try {
      const episodes = new RedisAlarmEpisodes(counted, `${s.prefix}:alarm-cost`, quiet);
      const kind = NotificationTypes.heartRate;
      for (let i = 0; i < 100; i++) await episodes.end(kind, 7, 1_000 + i);
      expect(dels).toBe(1);
      expect(await episodes.begin(kind, 7)).toBe(true);
      await episodes.end(kind, 7, 2_000);
      expect(dels).toBe(2);
      expect(await redis.exists(`${s.prefix}:alarm-cost:${kind}:7`)).toBe(0);
      // Still in range a minute later: ended again, in case another instance began one meanwhile.
      await episodes.end(kind, 7, 62_001);
      expect(dels).toBe(3);
    } finally {
      await redis.quit();
    }
  });
});

describe('alarm episodes without Redis', () => {
  it('a restarted instance does not raise again while the alarm is unhandled', async () => {
    const { phone, U_ID, E_ID } = await s.user();
    const row = await insertNotification(s.a.db, {
      E_ID,
      U_ID,
      Phone: phone,
      NType: NotificationTypes.lowBattery,
      Content: 'Battery 10%',
      Latitude: null,
      Longitude: null,
      CreatedAt: Date.now(),
    });
    const restarted = new MemoryAlarmEpisodes();
    restarted.loadUnhandled(await unhandledEpisodeAlarms(s.a.db));
    expect(await restarted.begin(NotificationTypes.lowBattery, U_ID)).toBe(false);
    expect(await restarted.begin(NotificationTypes.heartRate, U_ID)).toBe(true);
    await s.a.db
      .updateTable('notification')
      .set({ State: NotificationStates.handled })
      .where('N_ID', '=', row.N_ID)
      .execute();
    const later = new MemoryAlarmEpisodes();
    later.loadUnhandled(await unhandledEpisodeAlarms(s.a.db));
    expect(await later.begin(NotificationTypes.lowBattery, U_ID)).toBe(true);
  });
});
