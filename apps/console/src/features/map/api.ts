import type { OrgTreeNode, ReverseGeocode } from '@intercom/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { getList, getObject } from '../../shared/api/apiClient';

/** Moves smaller than this (about 10 m) keep the address already fetched. */
const ADDRESS_PRECISION = 4;

/** The address of a user's latest fix (`address` null: it could not be resolved), asked of the server's geocoder proxy (cached there too). */
export function useReverseGeocode(userId: number | undefined, lat: number | undefined, lon: number | undefined) {
  const place =
    lat !== undefined && lon !== undefined ? [lat.toFixed(ADDRESS_PRECISION), lon.toFixed(ADDRESS_PRECISION)] : [];
  return useQuery({
    enabled: userId !== undefined && place.length === 2,
    queryKey: ['Map', 'ReverseGeocode', userId, ...place],
    queryFn: ({ signal }) =>
      getObject<ReverseGeocode>('/api/Map/ReverseGeocode', {
        query: { U_ID: userId, lat: place[0], lon: place[1] },
        signal,
      }),
    staleTime: 5 * 60_000,
    meta: { errorToast: false },
  });
}

/** Users shown per opened tree node (the API allows 500). */
export const ORG_USERS_PAGE = 500;

/**
 * One level of the organisation tree with its users (`GET /api/Organ/GetOrganizeList`), loaded
 * when the node opens. Without a parent: the working enterprise and its children.
 */
export function orgLevelQuery(parent: { eid: number; id: number } | undefined) {
  return queryOptions({
    queryKey: ['Organ', 'GetOrganizeList', 'withUsers', parent ?? 'root'],
    queryFn: async ({ signal }) => {
      const { rows, total } = await getList<OrgTreeNode>('/api/Organ/GetOrganizeList', {
        query: { eid: parent?.eid, id: parent?.id, limit: ORG_USERS_PAGE },
        signal,
      });
      return { rows, total };
    },
    staleTime: 60_000,
  });
}
