import type { OrganDetail, OrganRow, OrganSave, OrgTreeNode } from '@intercom/contract';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRequest, getList, getObject } from '../../shared/api/apiClient';
import { invalidateResources } from '../../shared/api/invalidate';

/** A node of the organisation tree that can have children: an enterprise (id 0) or a department. */
export interface OrgParent {
  eid: number;
  /** 0: the enterprise itself; otherwise the department's OSID. */
  id: number;
}

/**
 * The enterprise and department children of one node (`GET /api/Organ/GetOrganizeList`), loaded
 * when the node opens so the tree stays fast whatever the number of users. Without a parent: the
 * working enterprise's node followed by its children. Users are not listed (the list beside the
 * tree shows them), so only one is asked for.
 */
export function orgChildrenQuery(parent: OrgParent | undefined) {
  return queryOptions({
    queryKey: ['Organ', 'GetOrganizeList', parent ?? 'root'],
    queryFn: async ({ signal }) => {
      const { rows } = await getList<OrgTreeNode>('/api/Organ/GetOrganizeList', {
        query: { eid: parent?.eid, id: parent?.id, limit: 1 },
        signal,
      });
      return rows.filter((node) => node.level !== 2);
    },
    staleTime: 60_000,
  });
}

export function useOrgan(id: number | undefined) {
  return useQuery({
    enabled: id !== undefined,
    queryKey: ['Organ', 'Entitys', id],
    queryFn: ({ signal }) => getObject<OrganDetail>(`/api/Organ/Entitys/${id}`, { signal }),
  });
}

/** What the department form sends (`POST /api/Organ/Save`, form body). */
export type OrganInput = Pick<OrganSave, 'OSID' | 'OSName'> & Partial<Omit<OrganSave, 'OSID' | 'OSName'>>;

/** Departments change the tree, the pickers and the department names shown in the user list. */
const ORGAN_RESOURCES = ['Organ', 'UserInfo', 'Device'];

export function useSaveOrgan() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: OrganInput) =>
      apiRequest<never, OrganRow>('POST', '/api/Organ/Save', {
        form: {
          OSID: input.OSID,
          E_ID: input.E_ID,
          OSParentID: input.OSParentID,
          OSName: input.OSName,
          U_TypeID: input.U_TypeID,
          PriorityLevel: input.PriorityLevel,
        },
      }),
    onSuccess: () => invalidateResources(queryClient, ...ORGAN_RESOURCES),
  });
}

/** `DELETE /api/Organ/Delete/{id}`: refused (4009) while the department has users or sub-departments. */
export function useDeleteOrgan() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => apiRequest('DELETE', `/api/Organ/Delete/${id}`),
    onSuccess: () => invalidateResources(queryClient, ...ORGAN_RESOURCES),
  });
}
