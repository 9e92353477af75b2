import { useEffect } from 'react';
import type { WatchedUser } from './hubWorkerMessages';
import { liveHub } from './liveHub';
import { useHubSnapshot } from './useHubSnapshot';

/**
 * The latest hub record and heart rate of one user (the selected one), kept current while mounted;
 * undefined until the hub worker has answered, or with no user.
 */
export function useWatchedUser(userId: number | undefined): WatchedUser | undefined {
  useEffect(() => (userId === undefined ? undefined : liveHub.watch(userId)), [userId]);
  return useHubSnapshot((snapshot) => (userId === undefined ? undefined : snapshot.watched.get(userId)));
}
