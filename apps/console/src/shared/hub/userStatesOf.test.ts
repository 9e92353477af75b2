import type { GpsRecord } from '@intercom/contract';
import { describe, expect, test } from 'vitest';
import { LiveStore, type Scheduler } from './LiveStore';
import { gpsRecordFixture } from './gpsRecordFixture';
import type { HubMessage } from './liveSnapshot';
import { sosAlarmFixture } from './sosAlarmFixture';
import { userStatesOf } from './userStatesOf';

/** Flushes wait for the test's `settle` (one burst each). */
const never: Scheduler = () => () => undefined;

function settle(store: LiveStore, ...messages: HubMessage[]): LiveStore {
  for (const message of messages) store.receive(message);
  store.flush();
  return store;
}

const gps = gpsRecordFixture;

const sos = (U_ID: number) => sosAlarmFixture(U_ID);

function storeWith(records: GpsRecord[]): LiveStore {
  return settle(new LiveStore(never), { type: 'GPSArray', data: records }, { type: 'Notifys', data: [] });
}

describe('userStatesOf', () => {
  test('stays the same map while users only move, and changes for the user whose state changed', () => {
    const store = storeWith([gps(1), gps(2), gps(3, { gpsOnline: false })]);
    const first = userStatesOf(store.getSnapshot());
    expect([...first]).toEqual([
      [1, 'online'],
      [2, 'online'],
      [3, 'stale'],
    ]);
    settle(store, { type: 'GPS', data: [gps(1, { lat: 23 }), gps(2, { lat: 23 })] });
    expect(userStatesOf(store.getSnapshot())).toBe(first);

    settle(store, { type: 'GPS', data: [gps(2, { talking: true }), gps(3)] });
    const second = userStatesOf(store.getSnapshot());
    expect(second).not.toBe(first);
    expect([...second]).toEqual([
      [1, 'online'],
      [2, 'chatting'],
      [3, 'online'],
    ]);
    expect(first.get(2)).toBe('online');
  });

  test('an SOS, a burst missed by the cache and a new snapshot all give the right states', () => {
    const store = storeWith([gps(1), gps(2)]);
    userStatesOf(store.getSnapshot());
    settle(store, { type: 'Notify', data: [sos(2)] });
    expect(userStatesOf(store.getSnapshot()).get(2)).toBe('sos');
    // Two bursts without a look in between: the second's changes are not relative to the cache.
    settle(store, { type: 'GPS', data: [gps(1, { online: false })] });
    settle(store, { type: 'GPS', data: [gps(2, { lat: 1 })] });
    expect([...userStatesOf(store.getSnapshot())]).toEqual([
      [1, 'offline'],
      [2, 'sos'],
    ]);
    settle(store, { type: 'GPSArray', data: [gps(5, { talking: true })] });
    expect([...userStatesOf(store.getSnapshot())]).toEqual([[5, 'chatting']]);
  });
});
