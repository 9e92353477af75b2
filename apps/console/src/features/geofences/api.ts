import type { GeofenceRow, GeofenceSave } from '@intercom/contract';
import { useQuery } from '@tanstack/react-query';
import { apiRequest, getList } from '../../shared/api/apiClient';
import { getAllPages } from '../../shared/api/getAllPages';
import { useResourceMutation } from '../../shared/api/useResourceMutation';
import { entityResource } from '../../shared/list/entityResource';

/** `/api/Geofence/QueryData`: the fences of the caller's scope, oldest first unless sorted. */
export const geofenceResource = entityResource<GeofenceRow>({
  name: 'Geofence',
  rowKey: 'GF_ID',
  defaultOrder: { field: 'GF_ID', desc: false },
});

/** What a fence change touches: the fence lists, the map layers and the system log. */
const GEOFENCE_RESOURCES = ['Geofence', 'SysLog'];

/** One fence (QueryData by GF_ID: there is no single-row call), fresh each time the form opens. */
export function useGeofence(id: number | undefined) {
  return useQuery({
    enabled: id !== undefined,
    queryKey: ['Geofence', 'QueryData', { GF_ID: id }],
    queryFn: async ({ signal }) => {
      const page = await getList<GeofenceRow>('/api/Geofence/QueryData', {
        query: { jsonCondition: JSON.stringify({ GF_ID: id }), pageIndex: 0, pageSize: 1 },
        signal,
      });
      // Deleted meanwhile, or not in scope: the form shows its load failure.
      return page.rows[0] ?? null;
    },
    staleTime: 0,
  });
}

/** Pages the map layer reads at most: 10 pages of the largest size. */
const LAYER_PAGES = 10;

/**
 * Every fence of the scope for the map layers (the live map and replay): read a page of the
 * largest size at a time. `enabled` false while the layer is hidden: nothing is fetched.
 */
export function useMapGeofences(enabled: boolean) {
  return useQuery({
    enabled,
    queryKey: ['Geofence', 'QueryData', { layer: true }],
    queryFn: ({ signal }) => getAllPages<GeofenceRow>('/api/Geofence/QueryData', { signal, maxPages: LAYER_PAGES }),
    staleTime: 60_000,
  });
}

/** `POST /api/Geofence/Save` (JSON): creates without GF_ID, else replaces; answers the GF_ID. */
export function useSaveGeofence() {
  return useResourceMutation(
    async (body: GeofenceSave) =>
      (await apiRequest<never, { GF_ID: number }>('POST', '/api/Geofence/Save', { json: body })).BaseData,
    GEOFENCE_RESOURCES,
  );
}

/** `POST /api/Geofence/Delete` `{ ids }`: all of them or none. */
export function useDeleteGeofences() {
  return useResourceMutation(
    (ids: number[]) => apiRequest('POST', '/api/Geofence/Delete', { json: { ids } }),
    GEOFENCE_RESOURCES,
  );
}
