import { queryOptions, useQuery } from '@tanstack/react-query';
import { getObject } from '../shared/api/apiClient';
import type { Basemap } from '@intercom/contract';
import { OFFLINE_BASEMAP } from './basemapStyle';

/** The query of `useBasemap`; the map routes also fetch it before their page renders. */
export const basemapQuery = queryOptions({
  queryKey: ['Map', 'Basemap'],
  queryFn: async ({ signal }) => {
    try {
      return await getObject<Basemap>('/api/Map/Basemap', { signal, connectionToast: false });
    } catch {
      return OFFLINE_BASEMAP;
    }
  },
  staleTime: 5 * 60_000,
  meta: { errorToast: false },
});

/**
 * The basemap the DefaultMap setting chose (`GET /api/Map/Basemap`). When the server cannot say,
 * the map still shows with the offline outlines rather than not at all.
 */
export function useBasemap() {
  return useQuery(basemapQuery);
}
