import type { Notification, OnlineUser } from '@intercom/contract';
import { describe, expect, test, vi } from 'vitest';
import { sosAlarmFixture } from './sosAlarmFixture';
import { LiveStore, MAX_PENDING_MESSAGES, type Scheduler } from './LiveStore';
import { gpsRecordFixture } from './gpsRecordFixture';
import { applyHubMessage, emptyDraft, type HubMessage } from './liveSnapshot';

/** A scheduler the test runs by hand: flushes wait until `run()`. */
function manualScheduler() {
  const queue: (() => void)[] = [];
  const schedule: Scheduler = (flush) => {
    queue.push(flush);
    return () => queue.splice(queue.indexOf(flush), 1);
  };
  return {
    schedule,
    get waiting() {
      return queue.length;
    },
    run() {
      for (const flush of queue.splice(0)) flush();
    },
  };
}

const gps = (U_ID: number, lat = 22.5) => gpsRecordFixture(U_ID, { lat });
const user = (U_ID: number, online = true): OnlineUser => ({
  U_ID,
  E_ID: 1,
  Phone: `1380000000${U_ID}`,
  UserName: `Patrol ${U_ID}`,
  online,
  time: 1_767_225_600_000,
});
const alarm = (N_ID: number, State: Notification['State'] = 'new') =>
  sosAlarmFixture(1, { N_ID, Phone: '13800000001', State });

const snapshot: HubMessage[] = [
  { type: 'GPSArray', data: [gps(1), gps(2)] },
  { type: 'NumOnlineUser', data: 2 },
  { type: 'OnlineUser', data: [user(1), user(2)] },
  { type: 'Notifys', data: [alarm(7)] },
  { type: 'HeartRate', data: [{ E_ID: 1, U_ID: 1, Phone: '13800000001', Value: 72, H_Time: 1 }] },
  { type: 'Videos', data: [{ uid: 1, E_ID: 1, name: 'Unit 1', codecs: ['jpeg'] }] },
];

/** The kinds of message a replay of the held state holds, in its order. */
const REPLAY_ORDER = ['GPSArray', 'NumOnlineUser', 'OnlineUser', 'Notifys', 'HeartRate', 'Videos'];

/** A store on a hand-run scheduler that has received the snapshot and published it. */
function storeWithSnapshot() {
  const timer = manualScheduler();
  const store = new LiveStore(timer.schedule);
  for (const message of snapshot) store.receive(message);
  timer.run();
  return { timer, store };
}

describe('LiveStore', () => {
  test('a burst of messages reaches subscribers as one change, after it settled', () => {
    const timer = manualScheduler();
    const store = new LiveStore(timer.schedule);
    const changed = vi.fn();
    const bursts: (readonly HubMessage[])[] = [];
    store.subscribe(changed);
    store.subscribeMessages((messages) => bursts.push(messages));
    const before = store.getSnapshot();

    for (const message of snapshot) store.receive(message);
    store.receive({ type: 'OnlineChange', data: { count: 3, delta: 1, users: [user(3)] } });
    expect(timer.waiting).toBe(1);
    expect(changed).not.toHaveBeenCalled();
    expect(store.getSnapshot()).toBe(before);

    timer.run();
    expect(changed).toHaveBeenCalledTimes(1);
    expect(bursts).toHaveLength(1);
    expect(bursts[0]).toHaveLength(snapshot.length + 1);
    const after = store.getSnapshot();
    expect(after.onlineCount).toBe(3);
    expect([...after.onlineUsers.keys()]).toEqual([1, 2, 3]);
    expect(after.positions.size).toBe(2);
    // What React held before is never changed in place.
    expect(before.positions.size).toBe(0);
  });

  test('deltas keep the latest entry per key; handled alarms and users gone offline leave', () => {
    const { timer, store } = storeWithSnapshot();
    store.receive({ type: 'GPS', data: [gps(2, 23)] });
    store.receive({ type: 'GPS', data: [gps(2, 24)] });
    store.receive({ type: 'OnlineChange', data: { count: 1, delta: -1, users: [user(1, false)] } });
    store.receive({ type: 'Notify', data: [alarm(7, 'handled'), alarm(8)] });
    timer.run();
    const state = store.getSnapshot();
    expect(state.positions.get(2)?.lat).toBe(24);
    expect(state.onlineCount).toBe(1);
    expect([...state.onlineUsers.keys()]).toEqual([2]);
    expect([...state.alarms.keys()]).toEqual([8]);
  });

  test('a burst copies only the maps it changes; the others stay the objects React holds', () => {
    const { timer, store } = storeWithSnapshot();
    const before = store.getSnapshot();
    store.receive({ type: 'OnlineChange', data: { count: 3, delta: 1, users: [user(3)] } });
    timer.run();
    const after = store.getSnapshot();
    expect(after.onlineUsers).not.toBe(before.onlineUsers);
    expect([...before.onlineUsers.keys()]).toEqual([1, 2]);
    expect(after.alarms).toBe(before.alarms);
    expect(after.heartRates).toBe(before.heartRates);
    expect(after.videos).toBe(before.videos);
    expect(after.positionsVersion).toBe(before.positionsVersion);
    expect(Object.keys(after).sort()).toEqual(
      [
        'alarms',
        'gpsOnlineCount',
        'heartRates',
        'onlineCount',
        'onlineUsers',
        'positions',
        'positionsChanged',
        'positionsChangedSince',
        'positionsVersion',
        'status',
        'videos',
      ].sort(),
    );
  });

  test('positions change in place with a new version, the users moved since the last one, and the GPS-online count', () => {
    const { timer, store } = storeWithSnapshot();
    const before = store.getSnapshot();
    expect(before.positionsChanged).toBeUndefined();
    expect(before.gpsOnlineCount).toBe(2);
    store.receive({ type: 'GPS', data: [gps(2, 23)] });
    store.receive({ type: 'GPS', data: [{ ...gps(3, 24), gpsOnline: false }] });
    timer.run();
    const after = store.getSnapshot();
    expect(after.positions).toBe(before.positions);
    expect(after.positions.get(2)?.lat).toBe(23);
    expect(after.positionsVersion).toBeGreaterThan(before.positionsVersion);
    expect(after.positionsChangedSince).toBe(before.positionsVersion);
    expect([...(after.positionsChanged ?? [])]).toEqual([2, 3]);
    expect(after.gpsOnlineCount).toBe(2);
    store.receive({ type: 'GPS', data: [{ ...gps(1), gpsOnline: false }, gps(3, 25)] });
    timer.run();
    const last = store.getSnapshot();
    expect(last.gpsOnlineCount).toBe(2);
    expect(last.positionsChangedSince).toBe(after.positionsVersion);
    expect([...(last.positionsChanged ?? [])]).toEqual([1, 3]);
    // A snapshot brings a new map and says any user may have changed.
    store.receive({ type: 'GPSArray', data: [gps(4)] });
    timer.run();
    const fresh = store.getSnapshot();
    expect(fresh.positions).not.toBe(last.positions);
    expect(fresh.positionsChanged).toBeUndefined();
    expect(fresh.gpsOnlineCount).toBe(1);
    // A reset never reuses a version a cache may hold.
    store.reset();
    expect(store.getSnapshot().positionsVersion).toBeGreaterThan(fresh.positionsVersion);
  });

  test('a late subscriber gets the held state replayed as a snapshot, then the same deltas', () => {
    const timer = manualScheduler();
    const store = new LiveStore(timer.schedule);
    const early: HubMessage[] = [];
    store.subscribeMessages((messages) => early.push(...messages));
    for (const message of snapshot) store.receive(message);
    store.receive({ type: 'GPS', data: [gps(3)] });
    timer.run();

    const late: HubMessage[] = [];
    store.subscribeMessages((messages) => late.push(...messages));
    expect(late.map((m) => m.type)).toEqual(REPLAY_ORDER);
    const positions = late[0]?.type === 'GPSArray' ? late[0].data.map((r) => r.U_ID) : [];
    expect(positions).toEqual([1, 2, 3]);
    expect(late[1]).toEqual({ type: 'NumOnlineUser', data: 2 });
    expect(late[3]).toEqual({ type: 'Notifys', data: [alarm(7)] });

    // From now on both hear the same.
    store.receive({ type: 'NumOnlineUser', data: 4 });
    timer.run();
    expect(late.at(-1)).toEqual({ type: 'NumOnlineUser', data: 4 });
    expect(early.at(-1)).toEqual({ type: 'NumOnlineUser', data: 4 });
  });

  test('nothing is replayed before the first snapshot', () => {
    const store = new LiveStore(manualScheduler().schedule);
    const listener = vi.fn();
    store.subscribeMessages(listener);
    expect(listener).not.toHaveBeenCalled();
  });

  test('a status change is published at once, with the messages still waiting', () => {
    const timer = manualScheduler();
    const store = new LiveStore(timer.schedule);
    store.receive({ type: 'NumOnlineUser', data: 5 });
    store.setStatus('connected');
    expect(store.getSnapshot()).toMatchObject({ status: 'connected', onlineCount: 5 });
    expect(timer.waiting).toBe(0);
  });

  test('too long a backlog becomes one replay of the state instead of every message', () => {
    const timer = manualScheduler();
    const store = new LiveStore(timer.schedule);
    const bursts: (readonly HubMessage[])[] = [];
    store.subscribeMessages((messages) => bursts.push(messages));
    for (let i = 0; i <= MAX_PENDING_MESSAGES + 50; i++) store.receive({ type: 'NumOnlineUser', data: i });
    timer.run();
    expect(bursts).toHaveLength(1);
    expect(bursts[0]?.map((m) => m.type)).toEqual(REPLAY_ORDER);
    expect(bursts[0]?.[1]).toEqual({ type: 'NumOnlineUser', data: MAX_PENDING_MESSAGES + 50 });
  });

  test('reset forgets the data of the previous scope', () => {
    const timer = manualScheduler();
    const store = new LiveStore(timer.schedule);
    for (const message of snapshot) store.receive(message);
    store.reset('connecting');
    timer.run();
    expect(store.getSnapshot()).toMatchObject({ status: 'connecting', onlineCount: undefined });
    expect(store.getSnapshot().positions.size).toBe(0);
  });
});

describe('the video list', () => {
  test('Videos replaces the list, Video adds and removes entries', () => {
    const draft = emptyDraft();
    applyHubMessage(draft, { type: 'Videos', data: [{ uid: 1, E_ID: 1, name: 'A', codecs: ['jpeg'] }] });
    applyHubMessage(draft, {
      type: 'Video',
      data: [
        { uid: 2, E_ID: 1, name: 'B', codecs: ['h264'], online: true },
        { uid: 1, E_ID: 1, name: 'A', codecs: ['jpeg'], online: false },
      ],
    });
    expect([...draft.videos.values()]).toEqual([{ uid: 2, E_ID: 1, name: 'B', codecs: ['h264'] }]);
    applyHubMessage(draft, { type: 'Videos', data: [] });
    expect(draft.videos.size).toBe(0);
  });
});
