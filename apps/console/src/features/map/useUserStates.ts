import { useMemo } from 'react';
import { sosUserIds, type UserMapState } from '../../shared/hub/userMapState';
import { useHubSnapshot } from '../../shared/hub/useHubSnapshot';

/**
 * The state of any user by U_ID from the hub's latest data; a user the hub has no fix of is offline
 * (or SOS, with an unhandled SOS alarm). Re-renders on a change of state, not on every burst of
 * positions: the hub worker sends only the states that changed (LiveViewPublisher).
 */
export function useUserStates(): (userId: number) => UserMapState {
  const states = useHubSnapshot((snapshot) => snapshot.states);
  const alarms = useHubSnapshot((snapshot) => snapshot.alarms);
  const sos = useMemo(() => sosUserIds(alarms.values()), [alarms]);
  return useMemo(() => (userId: number) => states.get(userId) ?? (sos.has(userId) ? 'sos' : 'offline'), [states, sos]);
}
