import type { SafetySettingRow, SafetySettings, SafetySettingsSave } from '@intercom/contract';
import { useQuery } from '@tanstack/react-query';
import { apiRequest, getList } from '../../shared/api/apiClient';
import { useResourceMutation } from '../../shared/api/useResourceMutation';
import { entityResource } from '../../shared/list/entityResource';

/** `/api/Safety/QueryData`: the stored settings rows of the scope, newest first unless sorted. */
export const safetyResource = entityResource<SafetySettingRow>({
  name: 'Safety',
  rowKey: 'Key',
  defaultOrder: { field: 'UpdatedAt', desc: true },
});

/** What a settings change touches: the list, every "in force" answer and the system log. */
const SAFETY_RESOURCES = ['Safety', 'SysLog'];

/** One stored row by its key (`enterprise:3`), as the server has it now; null when there is none. */
export async function fetchSafetySetting(
  key: { kind: string; id: number },
  signal?: AbortSignal,
): Promise<SafetySettingRow | null> {
  const condition = { TargetKind: key.kind, TargetID: key.id };
  const page = await getList<SafetySettingRow>('/api/Safety/QueryData', {
    query: { jsonCondition: JSON.stringify(condition), pageIndex: 0, pageSize: 1 },
    signal,
  });
  return page.rows[0] ?? null;
}

/** One stored row by its key (`user:12`), fresh each time the form opens; null when gone. */
export function useSafetySetting(key: { kind: string; id: number } | undefined) {
  return useQuery({
    enabled: key !== undefined,
    queryKey: ['Safety', 'QueryData', { key }],
    queryFn: ({ signal }) => (key ? fetchSafetySetting(key, signal) : null),
    staleTime: 0,
  });
}

/** `GET /api/Safety/Settings?U_ID=`: the settings in force for one user and where they come from. */
export function useSafetyInForce(U_ID: number | undefined) {
  return useQuery({
    enabled: U_ID !== undefined,
    queryKey: ['Safety', 'Settings', { U_ID }],
    queryFn: async ({ signal }) =>
      (await apiRequest<never, SafetySettings>('GET', '/api/Safety/Settings', { query: { U_ID }, signal })).BaseData,
    staleTime: 0,
  });
}

/** `POST /api/Safety/Settings`: the same settings for the named users and departments, or the enterprise. */
export function useSaveSafety() {
  return useResourceMutation(
    (body: SafetySettingsSave) => apiRequest('POST', '/api/Safety/Settings', { json: body }),
    SAFETY_RESOURCES,
  );
}

/** `POST /api/Safety/Delete` `{ ids }` (row keys): all of them or none. */
export function useDeleteSafety() {
  return useResourceMutation(
    (ids: string[]) => apiRequest('POST', '/api/Safety/Delete', { json: { ids } }),
    SAFETY_RESOURCES,
  );
}
