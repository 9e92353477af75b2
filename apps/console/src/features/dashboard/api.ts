import type { Statistics } from '@intercom/contract';
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { getObject } from '../../shared/api/apiClient';
import { pollWhileSignedIn } from '../../shared/api/pollWhileSignedIn';
import { useHubSnapshot } from '../../shared/hub/useHubSnapshot';
import { useRefetchOnHubResync } from '../../shared/hub/useRefetchOnHubResync';

export const statisticsKey = ['Enterprise', 'Statistics'] as const;

/** Counts of the caller's scope for the dashboard. */
export function useStatistics() {
  return useQuery({
    queryKey: statisticsKey,
    queryFn: ({ signal }) => getObject<Statistics>('/api/Enterprise/Statistics', { signal }),
    refetchInterval: pollWhileSignedIn(60_000),
  });
}

/**
 * The statistics with the online count the hub pushes (NumOnlineUser, Online, OnlineChange).
 * `live` is false while the hub is not connected: the count is then the last one fetched, and the
 * whole statistics are fetched again once the hub is back.
 */
export function useLiveStatistics() {
  const statistics = useStatistics();
  useRefetchOnHubResync(statisticsKey);
  const online = useHubSnapshot((s) => (s.status === 'connected' ? s.onlineCount : undefined));
  const fetched = statistics.data;
  const data = useMemo<Statistics | undefined>(
    () => (fetched && online !== undefined && online !== fetched.Online ? { ...fetched, Online: online } : fetched),
    [fetched, online],
  );
  return { statistics, data, live: fetched !== undefined && online !== undefined };
}
