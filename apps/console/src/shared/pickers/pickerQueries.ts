import type { ChannelRow, OrganRow, UserRow, UserType } from '@intercom/contract';
import { useQuery } from '@tanstack/react-query';
import { getList } from '../api/apiClient';
import { useEntity } from '../api/useEntity';

// The lists the shared pickers offer. Their query keys are those of the features that own the
// data (Organ, UserInfo, Channel), so an edit there invalidates the pickers too.

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

/** One user by id (`GET /api/UserInfo/Entitys/{id}`), as a form or a picker shows it. */
export function useUser(id: number | undefined) {
  return useEntity<UserRow>('UserInfo', id);
}

/** Users (of one enterprise, if given) whose name, phone or ICCID contains the text: a picker's choices, 20 at most. */
export function useUserSearch(text: string, enterpriseId?: number) {
  const condition = { Search: text.trim() || undefined, E_ID: enterpriseId };
  return useQuery({
    queryKey: ['UserInfo', 'QueryData', { pick: condition }],
    queryFn: async ({ signal }) =>
      (
        await getList<UserRow>('/api/UserInfo/QueryData', {
          query: { jsonCondition: JSON.stringify(condition), pageIndex: 0, pageSize: 20 },
          signal,
        })
      ).rows,
    staleTime: 10_000,
  });
}

/** The chosen users by id (a fence or a setting names ids only), so a picker shows their names. */
export function useUsersByIds(ids: number[]) {
  return useQuery({
    enabled: ids.length > 0,
    queryKey: ['UserInfo', 'QueryData', { ids }],
    queryFn: async ({ signal }) =>
      (
        await getList<UserRow>('/api/UserInfo/QueryData', {
          query: { jsonCondition: JSON.stringify({ UserID: { in: ids.slice(0, 500) } }), pageIndex: 0, pageSize: 500 },
          signal,
        })
      ).rows,
    staleTime: 60_000,
  });
}

/** Channels whose name contains `text` (the first 20 by name). */
export function useChannelSearch(text: string) {
  const condition = { Search: text.trim() || undefined };
  return useQuery({
    queryKey: ['Channel', 'QueryData', { pick: condition }],
    queryFn: async ({ signal }) =>
      (
        await getList<ChannelRow>('/api/Channel/QueryData', {
          query: {
            jsonCondition: condition.Search ? JSON.stringify(condition) : undefined,
            pageIndex: 0,
            pageSize: 20,
            orderField: 'CName',
          },
          signal,
        })
      ).rows,
    staleTime: 30_000,
  });
}
