import type { Statistics } from '@intercom/contract';
import { useQuery } from '@tanstack/react-query';
import { getObject } from '../../shared/api/apiClient';

/** Counts of the caller's scope for the dashboard. */
export function useStatistics() {
  return useQuery({
    queryKey: ['Enterprise', 'Statistics'],
    queryFn: ({ signal }) => getObject<Statistics>('/api/Enterprise/Statistics', { signal }),
    refetchInterval: 60_000,
  });
}
