import { NotificationStates, type Notification } from '@intercom/contract';
import { describe, expect, it } from 'vitest';
import { InProcessEventBus, type LiveUser } from '../../src/bus/eventBus.js';
import { gpsJsonOf, gpsJsonOfFix, type LiveChange, type LiveSnapshot } from '../../src/live/liveRecords.js';
import { FakeClock } from '../../src/core/clock.js';
import { LiveState, type LiveStateOptions } from '../../src/live/liveState.js';
import { unhandledAlarms } from '../../src/modules/notify/index.js';
import { useTestApp } from '../useTestApp.js';

const failOnError = (error: unknown) => {
  throw error;
};

/** The GpsRecord text of a gps change, as a JSON connection gets it. */
const gpsText = (change: LiveChange) => (change.kind === 'gps' ? gpsJsonOfFix(change.fix) : '');

/** The GpsRecord texts of a snapshot's users. */
const gpsTexts = (snapshot: LiveSnapshot) => snapshot.fixes.map(gpsJsonOfFix);

function setup(options: LiveStateOptions = {}) {
  const bus = new InProcessEventBus(failOnError);
  const live = new LiveState(bus, options);
  const changes: LiveChange[] = [];
  live.onChange((change) => changes.push(change));
  return { bus, live, changes };
}

function alarm(N_ID: number, E_ID = 1, State: string = NotificationStates.new): Notification {
  return {
    N_ID,
    E_ID,
    U_ID: null,
    Phone: `p${N_ID}`,
    NType: 'SOS',
    Content: '',
    Latitude: null,
    Longitude: null,
    State,
    CreatedAt: N_ID,
  };
}

describe('LiveState', () => {
  it('applies a `users` batch from the bus as that many users: the hub sees each move', () => {
    const { bus, live, changes } = setup();
    const user = (U_ID: number, E_ID = 1) => ({
      E_ID,
      U_ID,
      Phone: `p${U_ID}`,
      UserName: `User "${U_ID}"`,
      position: { lat: 22.5, lon: 114, time: 1_000 + U_ID, speed: null, course: 90, interval: 60 },
      battery: 80,
      signal: null,
      online: true,
      onlineAt: 1,
      talking: false,
    });
    // A user of another enterprise inside the batch is not taken: the event names one enterprise.
    bus.publish({ kind: 'users', E_ID: 1, users: [user(1), user(2), user(3, 2)] });
    expect(live.user(1, 2)?.position).toMatchObject({ lat: 22.5, time: 1_002 });
    expect(live.user(2, 3)).toBeUndefined();
    expect(live.onlineCount([1])).toBe(2);
    const gps = changes.filter((c) => c.kind === 'gps');
    expect(gps.map((c) => c.key)).toEqual([1, 2]);
    expect(JSON.parse(gpsText(gps[0]!))).toMatchObject({ U_ID: 1, UserName: 'User "1"', speed: null, course: 90 });
  });

  it('pushes a user again only when its GpsRecord text would change', () => {
    const { bus, live, changes } = setup();
    const base: LiveUser = {
      E_ID: 1,
      U_ID: 5,
      Phone: '135',
      UserName: 'Five',
      position: { lat: 22.5, lon: 114, time: 1_000, speed: null, course: Number.NaN, interval: 10 },
      battery: 80,
      signal: 3,
      online: true,
      onlineAt: 1,
      talking: false,
    };
    const send = (user: LiveUser) => bus.publish({ kind: 'user', E_ID: 1, user });
    const texts = () => changes.filter((c) => c.kind === 'gps').map(gpsText);
    send(base);
    // The same record again, a NaN course written `null` as the Infinity after it, and onlineAt
    // (not in the record): nothing new to push.
    send(structuredClone(base));
    send({ ...base, onlineAt: 2, position: { ...base.position!, course: Number.POSITIVE_INFINITY } });
    expect(texts()).toHaveLength(1);
    // Each field of the record, changed alone, is pushed once.
    const changed: Partial<LiveUser>[] = [
      { Phone: '136' },
      { UserName: 'Five again' },
      { battery: 79 },
      { signal: null },
      { talking: true },
      { online: false },
      { position: { ...base.position!, lat: 22.6 } },
      { position: { ...base.position!, lon: 114.1 } },
      { position: { ...base.position!, time: 2_000 } },
      { position: { ...base.position!, speed: 3 } },
      { position: { ...base.position!, course: 90 } },
      { position: { ...base.position!, interval: 60 } },
    ];
    for (const change of changed) {
      send({ ...base, ...change });
      send(base);
    }
    expect(texts()).toHaveLength(1 + 2 * changed.length);
    expect(new Set(texts()).size).toBe(1 + changed.length);
    expect(texts().at(-1)).toBe(texts()[0]);
    live.close();
  });

  it('writes a record as JSON.stringify would, byte for byte', () => {
    const record = {
      U_ID: 7,
      E_ID: 2,
      Phone: '13600000007',
      UserName: 'Zoë "the \\ driver"\n',
      lat: -22.123456789,
      lon: 114.5,
      time: 1_790_000_000_123,
      speed: null,
      course: Number.NaN,
      battery: 0,
      signal: 100,
      online: true,
      talking: false,
      gpsOnline: false,
      interval: 60,
    };
    expect(gpsJsonOf(record)).toBe(JSON.stringify(record));
  });

  it('keeps the latest fix per user; a late older fix does not replace it', () => {
    const { live, changes } = setup();
    live.reportPosition({ E_ID: 1, U_ID: 7, Phone: '7', lat: 1, lon: 1, time: 200 });
    live.reportPosition({ E_ID: 1, U_ID: 7, lat: 2, lon: 2, time: 100 });
    expect(live.user(1, 7)?.position).toMatchObject({ lat: 1, time: 200 });
    expect(changes.filter((c) => c.kind === 'gps')).toHaveLength(1);
    expect(() => live.reportPosition({ E_ID: 1, U_ID: 7, lat: Number.NaN, lon: 1, time: 300 })).toThrow(RangeError);
  });

  it('merges status into the record and publishes nothing when nothing changed', () => {
    const { live, changes } = setup();
    live.reportPosition({ E_ID: 1, U_ID: 7, lat: 1, lon: 1, time: 1 });
    live.reportStatus({ E_ID: 1, U_ID: 7, battery: 50 });
    live.reportStatus({ E_ID: 1, U_ID: 7, battery: 50 });
    live.reportStatus({ E_ID: 1, U_ID: 7, talking: true });
    const gps = changes.filter((c) => c.kind === 'gps').map((c) => JSON.parse(gpsText(c)) as Record<string, unknown>);
    expect(gps.map((g) => [g.battery, g.talking])).toEqual([
      [null, false],
      [50, false],
      [50, true],
    ]);
  });

  it('carries GPS-online and the report interval, and pushes a user turning stale as a delta', () => {
    const clock = new FakeClock(1_000_000);
    const { live, changes } = setup({ clock, staleSweepMs: 60_000 });
    const gpsOf = () =>
      changes
        .filter((c) => c.kind === 'gps')
        .map((c) => JSON.parse(gpsText(c)) as { gpsOnline: boolean; interval: number });
    live.reportPosition({ E_ID: 1, U_ID: 7, lat: 1, lon: 1, time: clock.now() - 1_000, interval: 10 });
    live.reportPosition({ E_ID: 1, U_ID: 8, lat: 1, lon: 1, time: clock.now(), interval: 60 });
    expect(gpsOf()).toMatchObject([
      { gpsOnline: true, interval: 10 },
      { gpsOnline: true, interval: 60 },
    ]);
    clock.stall(13_999); // user 7's fix is 14.999 s old: 1.5 x 10 s not yet passed
    live.sweepStale();
    expect(gpsOf()).toHaveLength(2);
    clock.stall(2);
    live.sweepStale();
    expect(changes.at(-1)).toMatchObject({ kind: 'gps', key: 7 });
    expect(gpsOf().at(-1)).toEqual(expect.objectContaining({ gpsOnline: false, interval: 10 }));
    live.sweepStale();
    expect(gpsOf()).toHaveLength(3);
    // The snapshot holds the stale state too, and a new fix makes the user fresh again.
    expect(JSON.parse(gpsTexts(live.snapshot([1]))[0]!)).toMatchObject({ U_ID: 7, gpsOnline: false });
    live.reportPosition({ E_ID: 1, U_ID: 7, lat: 2, lon: 2, time: clock.now() });
    expect(gpsOf().at(-1)).toMatchObject({ gpsOnline: true, interval: 10 });
  });

  it('a snapshot taken after a fix went stale says so even before the sweep timer ran', () => {
    const clock = new FakeClock(5_000_000);
    const { live } = setup({ clock, staleSweepMs: 60_000 });
    live.reportPosition({ E_ID: 1, U_ID: 7, lat: 1, lon: 1, time: clock.now(), interval: 1 });
    expect(JSON.parse(gpsTexts(live.snapshot([1]))[0]!)).toMatchObject({ gpsOnline: true, interval: 1 });
    clock.stall(1_501);
    expect(JSON.parse(gpsTexts(live.snapshot([1]))[0]!)).toMatchObject({ gpsOnline: false, interval: 1 });
  });

  it('counts GPS-online users per enterprise: a new fix, turning stale, a new interval', () => {
    const clock = new FakeClock(1_000_000);
    const { live } = setup({ clock, staleSweepMs: 60_000 });
    live.reportPosition({ E_ID: 1, U_ID: 1, lat: 1, lon: 1, time: clock.now(), interval: 10 });
    live.reportPosition({ E_ID: 1, U_ID: 2, lat: 1, lon: 1, time: clock.now() - 20_000, interval: 10 });
    live.reportPosition({ E_ID: 2, U_ID: 3, lat: 1, lon: 1, time: clock.now(), interval: 60 });
    expect(live.gpsOnlineCount([1])).toBe(1);
    expect(live.gpsOnlineCount([1, 2])).toBe(2);
    // A newer fix of the same user counts once.
    live.reportPosition({ E_ID: 1, U_ID: 1, lat: 2, lon: 2, time: clock.now() + 1000, interval: 10 });
    expect(live.gpsOnlineCount([1])).toBe(1);
    clock.stall(16_001);
    // User 1's fix is 15 s old at an interval of 10 s: stale, counted out before the sweep timer ran.
    expect(live.gpsOnlineCount([1, 2])).toBe(1);
    // A longer interval (configuration push) makes the same fix GPS-online again.
    live.setInterval({ E_ID: 1, U_ID: 1 }, 30);
    expect(live.gpsOnlineCount([1])).toBe(1);
    expect(live.user(1, 1)?.position?.interval).toBe(30);
    live.close();
  });

  it('keeps the GPS-online count right while the same users move, go stale and move again', () => {
    const clock = new FakeClock(1_000_000);
    const { live, changes } = setup({ clock, staleSweepMs: 60_000 });
    const move = (U_ID: number) =>
      live.reportPosition({ E_ID: 1, U_ID, lat: 1, lon: clock.now() / 1e6, time: clock.now(), interval: 10 });
    for (let round = 0; round < 3; round++) {
      for (const U_ID of [1, 2, 3]) move(U_ID);
      clock.stall(1000);
    }
    expect(live.gpsOnlineCount([1])).toBe(3);
    clock.stall(16_001);
    expect(live.gpsOnlineCount([1])).toBe(0);
    // Each user turned stale once: one delta each saying so.
    const stale = () => changes.filter((c) => c.kind === 'gps' && gpsText(c).includes('"gpsOnline":false'));
    expect(stale().map((c) => c.key)).toEqual([1, 2, 3]);
    move(1);
    move(1);
    expect(live.gpsOnlineCount([1])).toBe(1);
    clock.stall(16_001);
    // Swept again and again: counted out once, never below zero.
    expect(live.gpsOnlineCount([1])).toBe(0);
    expect(live.gpsOnlineCount([1])).toBe(0);
    expect(stale().map((c) => c.key)).toEqual([1, 2, 3, 1]);
    move(2);
    expect(live.gpsOnlineCount([1])).toBe(1);
    expect(gpsTexts(live.snapshot([1])).filter((json) => json.includes('"gpsOnline":true'))).toHaveLength(1);
    live.close();
  });

  it('counts chat-online users per enterprise and reports only real changes', () => {
    const { live, changes } = setup();
    live.setOnline({ E_ID: 1, U_ID: 1 }, true);
    live.setOnline({ E_ID: 1, U_ID: 1 }, true);
    live.setOnline({ E_ID: 1, U_ID: 2 }, true);
    live.setOnline({ E_ID: 2, U_ID: 3 }, true);
    live.setOnline({ E_ID: 1, U_ID: 4 }, false);
    expect(live.onlineCount([1])).toBe(2);
    expect(live.onlineCount([1, 2])).toBe(3);
    live.setOnline({ E_ID: 1, U_ID: 1 }, false);
    expect(live.onlineCount([1])).toBe(1);
    expect(changes.filter((c) => c.kind === 'online')).toHaveLength(4);
    // Users without a fix are online but have no GPS record.
    expect(live.snapshot([1]).fixes).toEqual([]);
    expect(live.snapshot([1]).online).toHaveLength(1);
  });

  it('keeps unhandled alarms per enterprise, drops handled ones and caps the oldest', () => {
    const { live } = setup({ maxNotificationsPerEnterprise: 3 });
    for (const id of [1, 2, 3, 4]) live.raiseNotification(alarm(id));
    live.raiseNotification(alarm(3, 1, NotificationStates.handled));
    live.raiseNotification(alarm(9, 2));
    const ids = (E_ID: number) =>
      live.snapshot([E_ID]).notifications.map((json) => (JSON.parse(json) as Notification).N_ID);
    expect(ids(1)).toEqual([2, 4]);
    expect(ids(2)).toEqual([9]);
  });

  it('keeps the latest heart rate per phone', () => {
    const { live } = setup();
    live.reportHeartRate({ E_ID: 1, U_ID: 1, Phone: 'a', Value: 70, H_Time: 10 });
    live.reportHeartRate({ E_ID: 1, U_ID: 1, Phone: 'a', Value: 90, H_Time: 5 });
    live.reportHeartRate({ E_ID: 1, U_ID: 2, Phone: 'b', Value: 60, H_Time: 1 });
    expect(live.snapshot([1]).heartRates.map((json) => JSON.parse(json) as { Value: number })).toEqual([
      expect.objectContaining({ Phone: 'a', Value: 70 }),
      expect.objectContaining({ Phone: 'b', Value: 60 }),
    ]);
  });

  describe('on a database', () => {
    const t = useTestApp();

    it('loads unhandled alarms from the database on start', async () => {
      const base = {
        U_ID: null,
        Content: '',
        Latitude: null,
        Longitude: null,
        HandledBy: null,
        HandledAt: null,
        Comment: '',
      };
      await t.db
        .insertInto('notification')
        .values([
          { ...base, E_ID: t.demo.E_ID, Phone: '1', NType: 'SOS', State: 'new', CreatedAt: 1 },
          { ...base, E_ID: t.demo.E_ID, Phone: '2', NType: 'SOS', State: 'handled', CreatedAt: 2 },
        ])
        .execute();
      const { live } = setup();
      expect(live.showUnhandled(await unhandledAlarms(t.db))).toBe(1);
      expect(
        live.snapshot([t.demo.E_ID]).notifications.map((json) => (JSON.parse(json) as Notification).Phone),
      ).toEqual(['1']);
    });
  });
});
