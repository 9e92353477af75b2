import type { GpsRecord, Notification } from '@intercom/contract';
import type { LiveSnapshot } from './liveSnapshot';
import { recordState } from './recordState';
import { sosUserIds, type UserMapState } from './userMapState';

let cached:
  | {
      positions: ReadonlyMap<number, GpsRecord>;
      version: number;
      alarms: ReadonlyMap<number, Notification>;
      sos: ReadonlySet<number>;
      states: ReadonlyMap<number, UserMapState>;
    }
  | undefined;

type StatesInput = Pick<
  LiveSnapshot,
  'positions' | 'positionsVersion' | 'positionsChanged' | 'positionsChangedSince' | 'alarms'
>;

/**
 * The state of every user with a position, as one map that stays the same object while no state
 * changed. Users move every second but change state seldom: only a change of state is sent to
 * the page (LiveViewPublisher), not every burst of positions. Cached for the one live store; after
 * a burst of positions only the users it moved are looked at again (a pass over 50,000 users per
 * burst was the next cost in the profile).
 */
export function userStatesOf(snapshot: StatesInput): ReadonlyMap<number, UserMapState> {
  const { positions, positionsVersion: version, alarms } = snapshot;
  if (cached?.positions === positions && cached.version === version && cached.alarms === alarms) return cached.states;
  const changed = snapshot.positionsChanged;
  if (
    cached?.positions === positions &&
    cached.alarms === alarms &&
    changed &&
    cached.version === snapshot.positionsChangedSince
  ) {
    let states = cached.states;
    for (const id of changed) {
      const record = positions.get(id);
      const state = record ? recordState(record, cached.sos) : undefined;
      if (state === states.get(id)) continue;
      if (states === cached.states) states = new Map(states);
      if (state) (states as Map<number, UserMapState>).set(id, state);
      else (states as Map<number, UserMapState>).delete(id);
    }
    cached = { ...cached, version, states };
    return states;
  }
  const sos = sosUserIds(alarms.values());
  const previous = cached?.states;
  let same = previous?.size === positions.size;
  const next = new Map<number, UserMapState>();
  for (const record of positions.values()) {
    const state = recordState(record, sos);
    next.set(record.U_ID, state);
    if (same && previous?.get(record.U_ID) !== state) same = false;
  }
  const states = same && previous ? previous : next;
  cached = { positions, version, alarms, sos, states };
  return states;
}
