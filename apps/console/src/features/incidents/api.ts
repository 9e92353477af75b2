import { Limits, type IncidentCreate, type IncidentRow } from '@intercom/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRequest, getList } from '../../shared/api/apiClient';
import { invalidateResources } from '../../shared/api/invalidate';
import { pollWhileSignedIn } from '../../shared/api/pollWhileSignedIn';
import { useHubBursts } from '../../shared/hub/useHubBursts';
import { useHubSnapshot } from '../../shared/hub/useHubSnapshot';
import { useRefetchOnHubResync } from '../../shared/hub/useRefetchOnHubResync';

/**
 * How often the open incidents are read again while the hub is not connected, a safety net: while
 * it is, its `Incident` push says when an incident opened, closed or changed members.
 */
export const INCIDENT_POLL_MS = 30_000;

const OPEN_INCIDENTS_KEY = ['Incident', 'QueryData', { open: true }] as const;

/** What an incident change touches: the incident list, the channels (its channel) and the system log. */
const INCIDENT_RESOURCES = ['Incident', 'Channel', 'SysLog'];

/**
 * The open incidents of the scope, newest first, with their members: read again when the hub pushes
 * an incident change and after every reconnect; polled slowly only while the hub is not connected.
 */
export function useOpenIncidents(enabled: boolean) {
  const queryClient = useQueryClient();
  const hubConnected = useHubSnapshot((s) => s.status === 'connected');
  useRefetchOnHubResync(OPEN_INCIDENTS_KEY);
  useHubBursts(({ incidentChanged }) => {
    // Both screens of the map hold this hook: the second call joins the refetch the first started.
    if (incidentChanged) void queryClient.invalidateQueries({ queryKey: OPEN_INCIDENTS_KEY }, { cancelRefetch: false });
  });
  return useQuery({
    enabled,
    queryKey: OPEN_INCIDENTS_KEY,
    queryFn: async ({ signal }) => {
      const page = await getList<IncidentRow>('/api/Incident/QueryData', {
        query: { pageIndex: 0, pageSize: Limits.maxPageSize },
        signal,
      });
      return page.rows.filter((row) => row.ClosedAt === null);
    },
    refetchInterval: hubConnected ? false : pollWhileSignedIn(INCIDENT_POLL_MS),
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
