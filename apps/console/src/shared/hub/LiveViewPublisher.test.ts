import { describe, expect, test } from 'vitest';
import { USER_MAP_STATES } from './userMapState';
import { gpsRecordFixture as gps } from './gpsRecordFixture';
import type { LiveViewChanges } from './hubWorkerMessages';
import { LiveStore } from './LiveStore';
import type { HubMessage } from './liveSnapshot';
import { LiveViewPublisher } from './LiveViewPublisher';
import { sosAlarmFixture } from './sosAlarmFixture';

const sos = (U_ID: number) => sosAlarmFixture(U_ID);

/** A publisher over a store that flushes when the test says, its views collected in order. */
function setup() {
  const store = new LiveStore(() => () => undefined);
  const views: LiveViewChanges[] = [];
  const tasks: (() => void)[] = [];
  const publisher = new LiveViewPublisher(
    store,
    (changes) => views.push(changes),
    (task) => tasks.push(task),
  );
  /** Takes the messages as one burst and returns the view it produced (undefined: none sent). */
  const burst = (...messages: HubMessage[]): LiveViewChanges | undefined => {
    for (const message of messages) store.receive(message);
    store.flush();
    const before = views.length;
    while (tasks.length > 0) tasks.shift()!();
    return views.length > before ? views.at(-1) : undefined;
  };
  return { store, views, publisher, burst };
}

/** A view's state changes as [id, state] pairs. */
function statesOf(changes: LiveViewChanges | undefined): [number, string][] {
  const states = changes?.states;
  if (!states) return [];
  return [...states.ids].map((id, i) => [id, USER_MAP_STATES[states.codes[i]!]!]);
}

const snapshot = (...records: ReturnType<typeof gps>[]): HubMessage[] => [
  { type: 'GPSArray', data: records },
  { type: 'NumOnlineUser', data: records.length },
  { type: 'Notifys', data: [] },
];

describe('LiveViewPublisher', () => {
  test('the first view after a snapshot carries counts and every state; moves alone send nothing', () => {
    const { burst } = setup();
    const first = burst(...snapshot(gps(1), gps(2, { gpsOnline: false })));
    expect(first).toMatchObject({ onlineCount: 2, gpsOnlineCount: 1, alarms: [] });
    expect(first?.states?.replace).toBe(true);
    expect(statesOf(first)).toEqual([
      [1, 'online'],
      [2, 'stale'],
    ]);
    // 50,000 users moving every second: the page hears nothing while no state or count changed.
    expect(burst({ type: 'GPS', data: [gps(1, { lat: 23 }), gps(2, { lat: 24, gpsOnline: false })] })).toBeUndefined();
  });

  test('sends only the users whose state changed, and a user gone from a snapshot as offline', () => {
    const { burst } = setup();
    burst(...snapshot(gps(1), gps(2), gps(3)));
    const talking = burst({ type: 'GPS', data: [gps(1, { lat: 1 }), gps(2, { talking: true })] });
    expect(statesOf(talking)).toEqual([[2, 'chatting']]);
    expect(talking?.gpsOnlineCount).toBeUndefined();
    const alarm = burst({ type: 'Notify', data: [sos(3)] });
    expect(statesOf(alarm)).toEqual([[3, 'sos']]);
    expect(alarm).toMatchObject({ alarmPushed: true, alarms: [sos(3)] });
    const again = burst({ type: 'GPSArray', data: [gps(1)] }, { type: 'NumOnlineUser', data: 1 });
    expect(statesOf(again)).toEqual([
      [2, 'offline'],
      [3, 'offline'],
    ]);
    expect(again).toMatchObject({ onlineCount: 1, gpsOnlineCount: 1 });
  });

  test('a watched user is sent at once and with every change; an unwatched one no more', () => {
    const { burst, publisher, views } = setup();
    const heartRate = { E_ID: 1, U_ID: 1, Phone: gps(1).Phone, Value: 72, H_Time: 1_767_225_600_000 };
    burst(...snapshot(gps(1), gps(2)), { type: 'HeartRate', data: [heartRate] });
    publisher.watch([1, 99]);
    expect(views.at(-1)?.watched).toEqual([
      [1, { record: gps(1), heartRate }],
      [99, { record: null, heartRate: null }],
    ]);
    const moved = burst({ type: 'GPS', data: [gps(1, { lat: 30 }), gps(2, { lat: 31 })] });
    expect(moved?.watched).toEqual([[1, { record: gps(1, { lat: 30 }), heartRate }]]);
    publisher.watch([]);
    expect(burst({ type: 'GPS', data: [gps(1, { lat: 40 })] })).toBeUndefined();
  });

  test('sums the online deltas of a burst', () => {
    const { burst } = setup();
    burst(...snapshot(gps(1)));
    const online = (delta: number): HubMessage => ({ type: 'OnlineChange', data: { count: 5, delta, users: [] } });
    expect(burst(online(3), online(-1))).toMatchObject({ onlineDelta: 2, alarmPushed: false, onlineCount: 5 });
    expect(burst(online(2), online(-2))).toBeUndefined();
  });

  test('an Incident push is sent as incidentChanged, once per burst, and holds nothing', () => {
    const { burst, store } = setup();
    burst(...snapshot(gps(1)));
    const incident = (IN_ID: number): HubMessage => ({
      type: 'Incident',
      data: [{ IN_ID, E_ID: 1, change: 'members' }],
    });
    expect(burst(incident(7), incident(8))).toEqual({ onlineDelta: 0, alarmPushed: false, incidentChanged: true });
    expect(burst({ type: 'GPS', data: [gps(1, { lat: 23 })] })).toBeUndefined();
    expect(store.getSnapshot().positions.size).toBe(1);
  });

  test('search finds by name regardless of case and by phone, at most `max`, nothing for blank text', () => {
    const { burst, publisher } = setup();
    burst(...snapshot(gps(1, { UserName: 'Alpha One' }), gps(2, { UserName: 'alpha two' }), gps(3)));
    expect(publisher.search('  ALPHA ', 10).map((user) => user.U_ID)).toEqual([1, 2]);
    expect(publisher.search('alpha', 1)).toEqual([{ U_ID: 1, UserName: 'Alpha One', Phone: gps(1).Phone }]);
    expect(publisher.search(gps(3).Phone.slice(-4), 10).map((user) => user.U_ID)).toEqual([3]);
    expect(publisher.search('   ', 10)).toEqual([]);
    expect(publisher.search('nobody at all', 10)).toEqual([]);
  });

  test('a stopped hub says idle and that every user went offline', () => {
    const { burst, store } = setup();
    store.setStatus('connected');
    burst(...snapshot(gps(1)));
    store.reset('idle');
    const stopped = burst();
    expect(stopped).toMatchObject({ status: 'idle', onlineCount: undefined, gpsOnlineCount: 0 });
    expect(statesOf(stopped)).toEqual([[1, 'offline']]);
  });
});
