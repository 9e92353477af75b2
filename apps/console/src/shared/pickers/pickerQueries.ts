import type { OrganRow, UserType } from '@intercom/contract';
import { useQuery } from '@tanstack/react-query';
import { getList } from '../api/apiClient';

// The lists the shared pickers offer. Their query keys are those of the features that own the
// data (Organ, UserInfo), so an edit there invalidates the pickers too.

/** The most departments one page of Organ/QueryData brings (the API's cap). */
const ORGAN_PAGE = 500;

/**
 * Every department of one enterprise (for pickers, which need every name at once). Departments
 * are few beside users; they come 500 at a time until all are there.
 */
export function useDepartments(enterpriseId: number | undefined) {
  return useQuery({
    enabled: enterpriseId !== undefined,
    queryKey: ['Organ', 'QueryData', { E_ID: enterpriseId, all: true }],
    queryFn: async ({ signal }) => {
      const all: OrganRow[] = [];
      for (let pageIndex = 0; ; pageIndex++) {
        const { rows, total } = await getList<OrganRow>('/api/Organ/QueryData', {
          query: {
            jsonCondition: JSON.stringify({ E_ID: enterpriseId }),
            pageIndex,
            pageSize: ORGAN_PAGE,
            orderField: 'OSName',
          },
          signal,
        });
        all.push(...rows);
        if (rows.length < ORGAN_PAGE || all.length >= total) return all;
      }
    },
    staleTime: 60_000,
  });
}

/** User types of an enterprise (`GET /api/UserInfo/GetMyType`); ID 0 is the built-in default. */
export function useUserTypes(enterpriseId?: number) {
  return useQuery({
    queryKey: ['UserInfo', 'GetMyType', enterpriseId ?? 'working'],
    queryFn: async ({ signal }) =>
      (await getList<UserType>('/api/UserInfo/GetMyType', { query: { eID: enterpriseId }, signal })).rows,
    staleTime: 5 * 60_000,
  });
}
