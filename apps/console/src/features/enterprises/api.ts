import type { EnterpriseDetail, EnterpriseRow, WorkingEnterprise } from '@intercom/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRequest, getObject, type QueryValues } from '../../shared/api/apiClient';
import { invalidateResources } from '../../shared/api/invalidate';
import { entityResource } from '../../shared/list/entityResource';
import { useEntity } from '../../shared/api/useEntity';

/** `/api/Enterprise/QueryData` (admin): the enterprises of the scope. */
export const enterpriseResource = entityResource<EnterpriseRow>({
  name: 'Enterprise',
  rowKey: 'E_ID',
  defaultOrder: { field: 'E_ID', desc: false },
});

export const workingKey = ['Enterprise', 'Working'] as const;

/** The own and the working enterprise, and the ones the account may switch to. */
export function useWorkingEnterprise(enabled = true) {
  return useQuery({
    enabled,
    queryKey: workingKey,
    queryFn: ({ signal }) => getObject<WorkingEnterprise>('/api/Enterprise/Working', { signal }),
    staleTime: 5 * 60_000,
  });
}

/** One enterprise with its users, licences left (Balance) and sub-enterprises. */
export function useEnterprise(id: number | undefined) {
  return useEntity<EnterpriseDetail>('Enterprise', id);
}

/** `POST /api/Enterprise/Save` (form): E_ID 0 creates a sub-enterprise of the working one. */
export function useSaveEnterprise() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (form: QueryValues) => apiRequest<never, EnterpriseRow>('POST', '/api/Enterprise/Save', { form }),
    onSuccess: () => invalidateResources(queryClient, 'Enterprise', 'Organ', 'Account'),
  });
}

/**
 * `POST /api/Enterprise/SwitchWorking`: from the next request on, this session works in another
 * enterprise. Everything cached belongs to the previous one, so every query is refetched.
 */
export function useSwitchWorking() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (enterpriseId: number) =>
      (
        await apiRequest<never, WorkingEnterprise>('POST', '/api/Enterprise/SwitchWorking', {
          form: { E_ID: enterpriseId },
        })
      ).BaseData,
    onSuccess: async (working) => {
      if (working) queryClient.setQueryData(workingKey, working);
      await queryClient.invalidateQueries();
    },
  });
}
