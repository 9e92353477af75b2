import type { GpsRecord, Notification } from '@intercom/contract';
import { useMemo } from 'react';
import { recordState } from '../../map/recordState';
import { sosUserIds, type UserMapState } from '../../map/userMapState';
import type { LiveSnapshot } from '../../shared/hub/liveSnapshot';
import { useHubSnapshot } from '../../shared/hub/useHubSnapshot';

let cached:
  | {
      positions: ReadonlyMap<number, GpsRecord>;
      alarms: ReadonlyMap<number, Notification>;
      states: ReadonlyMap<number, UserMapState>;
    }
  | undefined;

/**
 * The state of every user with a position, as one map that stays the same object while no state
 * changed. Users move every second but change state seldom: the trees re-render on a change of
 * state, not on every burst of positions (at 50,000 users a re-render per burst cost more than
 * the map). Cached for the one live store, by the identity of its positions and alarms.
 */
export function userStatesOf(snapshot: Pick<LiveSnapshot, 'positions' | 'alarms'>): ReadonlyMap<number, UserMapState> {
  if (cached?.positions === snapshot.positions && cached.alarms === snapshot.alarms) return cached.states;
  const sos = sosUserIds(snapshot.alarms.values());
  const previous = cached?.states;
  let same = previous?.size === snapshot.positions.size;
  const next = new Map<number, UserMapState>();
  for (const record of snapshot.positions.values()) {
    const state = recordState(record, sos);
    next.set(record.U_ID, state);
    if (same && previous?.get(record.U_ID) !== state) same = false;
  }
  const states = same && previous ? previous : next;
  cached = { positions: snapshot.positions, alarms: snapshot.alarms, states };
  return states;
}

/** The state of any user by U_ID from the hub's latest data; a user the hub has no fix of is offline. */
export function useUserStates(): (userId: number) => UserMapState {
  const states = useHubSnapshot(userStatesOf);
  const alarms = useHubSnapshot((snapshot) => snapshot.alarms);
  const sos = useMemo(() => sosUserIds(alarms.values()), [alarms]);
  return useMemo(() => (userId: number) => states.get(userId) ?? (sos.has(userId) ? 'sos' : 'offline'), [states, sos]);
}
