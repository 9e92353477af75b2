import { useMemo } from 'react';
import { recordState } from '../../map/recordState';
import { sosUserIds, type UserMapState } from '../../map/userMapState';
import { useHubSnapshot } from '../../shared/hub/useHubSnapshot';

/** The state of any user by U_ID from the hub's latest data; a user the hub has no fix of is offline. */
export function useUserStates(): (userId: number) => UserMapState {
  const positions = useHubSnapshot((snapshot) => snapshot.positions);
  const alarms = useHubSnapshot((snapshot) => snapshot.alarms);
  const sos = useMemo(() => sosUserIds(alarms.values()), [alarms]);
  return useMemo(
    () => (userId: number) => {
      const record = positions.get(userId);
      if (record) return recordState(record, sos);
      return sos.has(userId) ? 'sos' : 'offline';
    },
    [positions, sos],
  );
}
