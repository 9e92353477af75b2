import { describe, expect, test, vi } from 'vitest';
import { USER_MAP_STATES, type UserMapState } from './userMapState';
import { gpsRecordFixture } from './gpsRecordFixture';
import type { StateChanges } from './hubWorkerMessages';
import { LiveView } from './LiveView';
import { sosAlarmFixture } from './sosAlarmFixture';

const code = (state: UserMapState) => USER_MAP_STATES.indexOf(state);
const states = (replace: boolean, ...pairs: [number, UserMapState][]): StateChanges => ({
  replace,
  ids: Float64Array.from(pairs.map(([id]) => id)),
  codes: Uint8Array.from(pairs.map(([, state]) => code(state))),
});
const alarm = (N_ID: number) => sosAlarmFixture(7, { N_ID });
const quiet = { onlineDelta: 0, alarmPushed: false };

describe('LiveView', () => {
  test('takes counts, alarms and states, keeping the maps a change did not touch', () => {
    const view = new LiveView();
    view.apply({ ...quiet, status: 'connected', onlineCount: 3, gpsOnlineCount: 2, alarms: [alarm(1)] });
    view.apply({ ...quiet, states: states(true, [1, 'online'], [2, 'stale'], [3, 'offline']) });
    const first = view.getSnapshot();
    expect(first).toMatchObject({ status: 'connected', onlineCount: 3, gpsOnlineCount: 2 });
    expect([...first.alarms.keys()]).toEqual([1]);
    // An offline user is kept as one the hub has no fix of: not in the map.
    expect([...first.states]).toEqual([
      [1, 'online'],
      [2, 'stale'],
    ]);

    view.apply({ ...quiet, states: states(false, [2, 'sos'], [1, 'offline']) });
    const second = view.getSnapshot();
    expect([...second.states]).toEqual([[2, 'sos']]);
    expect(second.alarms).toBe(first.alarms);
    expect(first.states.get(1)).toBe('online');

    view.apply({ ...quiet, onlineCount: undefined });
    expect(view.getSnapshot().onlineCount).toBeUndefined();
  });

  test('tells subscribers of every change and burst listeners of deltas and pushed alarms only', () => {
    const view = new LiveView();
    const changed = vi.fn();
    const bursts = vi.fn();
    view.subscribe(changed);
    const unsubscribe = view.subscribeBursts(bursts);
    view.apply({ ...quiet, gpsOnlineCount: 4 });
    view.apply({ onlineDelta: -2, alarmPushed: true });
    expect(changed).toHaveBeenCalledTimes(2);
    expect(bursts.mock.calls).toEqual([[{ onlineDelta: -2, alarmPushed: true }]]);
    unsubscribe();
    view.apply({ onlineDelta: 1, alarmPushed: false });
    expect(bursts).toHaveBeenCalledTimes(1);
  });

  test('hands an incident change on as a burst of its own', () => {
    const view = new LiveView();
    const bursts = vi.fn();
    view.subscribeBursts(bursts);
    view.apply({ ...quiet, incidentChanged: true });
    expect(bursts.mock.calls).toEqual([[{ onlineDelta: 0, alarmPushed: false, incidentChanged: true }]]);
  });

  test('keeps watched users until forgotten, and shows a failed worker as disconnected', () => {
    const view = new LiveView();
    const record = gpsRecordFixture(5);
    view.apply({ ...quiet, watched: [[5, { record, heartRate: null }]] });
    expect(view.getSnapshot().watched.get(5)?.record).toBe(record);
    view.forget(5);
    expect(view.getSnapshot().watched.has(5)).toBe(false);
    view.fail();
    expect(view.getSnapshot().status).toBe('disconnected');
  });
});
