import type { PluginInfo } from '@intercom/contract';
import { useQuery } from '@tanstack/react-query';
import { getObject } from '../../shared/api/apiClient';

/** `GET /api/Plugin/Info` (any role): the talk-agent package, its ports and whether it can be downloaded. */
export function usePluginInfo() {
  return useQuery({
    queryKey: ['Plugin', 'Info'],
    queryFn: ({ signal }) => getObject<PluginInfo>('/api/Plugin/Info', { signal }),
    staleTime: 5 * 60_000,
  });
}
