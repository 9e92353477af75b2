import { useCallback, useState } from 'react';
import type { CameraTarget } from '../../map/MapCamera';
import { recordState } from '../../shared/hub/recordState';
import { sosUserIds } from '../../shared/hub/userMapState';
import { useHubSnapshot } from '../../shared/hub/useHubSnapshot';
import { useWatchedUser } from '../../shared/hub/useWatchedUser';

/**
 * The selected user, the camera's target and whether the map follows it. Selecting flies to the
 * user's latest fix (a user without one is selected but the camera stays).
 */
export function useMapSelection() {
  const [selectedId, setSelectedId] = useState<number | undefined>(undefined);
  const [request, setRequest] = useState(0);
  const [follow, setFollow] = useState(false);
  const watched = useWatchedUser(selectedId);
  const record = watched?.record ?? undefined;
  const alarms = useHubSnapshot((snapshot) => snapshot.alarms);
  const selected = record && {
    record,
    heartRate: watched?.heartRate ?? undefined,
    state: recordState(record, sosUserIds(alarms.values())),
  };
  const target: CameraTarget | undefined =
    record && request > 0 ? { lon: record.lon, lat: record.lat, request } : undefined;

  const select = useCallback((userId: number) => {
    setSelectedId(userId);
    setRequest((value) => value + 1);
  }, []);
  const clear = useCallback(() => {
    setSelectedId(undefined);
    setFollow(false);
  }, []);
  return { selectedId, selected, target, follow, setFollow, select, clear };
}
