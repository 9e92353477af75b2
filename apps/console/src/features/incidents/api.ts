import { Limits, type IncidentCreate, type IncidentRow } from '@intercom/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRequest, getList } from '../../shared/api/apiClient';
import { invalidateResources } from '../../shared/api/invalidate';

/** How often the panel reads the open incidents again: their members follow the terminals' fixes. */
export const INCIDENT_POLL_MS = 3_000;

/** What an incident change touches: the incident list, the channels (its channel) and the system log. */
const INCIDENT_RESOURCES = ['Incident', 'Channel', 'SysLog'];

/** The open incidents of the scope, newest first, with their members (polled while shown). */
export function useOpenIncidents(enabled: boolean) {
  return useQuery({
    enabled,
    queryKey: ['Incident', 'QueryData', { open: true }],
    queryFn: async ({ signal }) => {
      const page = await getList<IncidentRow>('/api/Incident/QueryData', {
        query: { pageIndex: 0, pageSize: Limits.maxPageSize },
        signal,
      });
      return page.rows.filter((row) => row.ClosedAt === null);
    },
    refetchInterval: INCIDENT_POLL_MS,
  });
}

/** `POST /api/Incident/Create`: answers the incident's id and its channel. */
export function useCreateIncident() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (body: IncidentCreate) =>
      (await apiRequest<never, { IN_ID: number; CID: number }>('POST', '/api/Incident/Create', { json: body }))
        .BaseData,
    onSuccess: () => invalidateResources(queryClient, ...INCIDENT_RESOURCES),
  });
}

/** `POST /api/Incident/Close` `{ IN_ID }`. */
export function useCloseIncident() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (IN_ID: number) => apiRequest('POST', '/api/Incident/Close', { json: { IN_ID } }),
    onSuccess: () => invalidateResources(queryClient, ...INCIDENT_RESOURCES),
  });
}

/** The names of an incident's members now, from its timeline. */
export function memberNames(row: IncidentRow): { U_ID: number; name: string }[] {
  const names = new Map(row.Timeline.map((e) => [e.U_ID, e.UserName]));
  return row.MemberIds.map((U_ID) => ({ U_ID, name: names.get(U_ID) || `#${U_ID}` }));
}
