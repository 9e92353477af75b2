import type {
  ChannelBrief,
  ChannelMemberRow,
  ChannelRow,
  ChannelTreeNode,
  MemberChangeResult,
  UserRow,
} from '@intercom/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest, getList, type QueryValues } from '../../shared/api/apiClient';
import { getAllPages } from '../../shared/api/getAllPages';
import { useResourceMutation } from '../../shared/api/useResourceMutation';
import { entityResource } from '../../shared/list/entityResource';
import { cleanCondition } from '../../shared/list/listParams';
import { useEntity } from '../../shared/api/useEntity';

/** `/api/Channel/QueryData`: talk channels with their member counts, oldest first unless sorted. */
export const channelResource = entityResource<ChannelRow>({
  name: 'Channel',
  rowKey: 'CID',
  defaultOrder: { field: 'CID', desc: false },
});

/**
 * The members of one channel (`GET /api/THChannel/QueryCMember`), as a list resource: the
 * channel (`cid`), the search text and the department (`OS_ID`) come in the list's condition.
 */
export const memberResource = entityResource<ChannelMemberRow>({
  name: 'ChannelMember',
  rowKey: 'UserID',
  defaultOrder: { field: 'UserID', desc: false },
  queryPath: '/api/THChannel/QueryCMember',
  toQuery: (params) => {
    const condition = cleanCondition(params.condition);
    return {
      cid: condition.cid as number,
      members: 'in',
      search: condition.search as string | undefined,
      OS_ID: condition.OS_ID as number | undefined,
      pageIndex: params.pageIndex,
      pageSize: params.pageSize,
      orderField: params.orderField || undefined,
      desc: params.orderField ? params.desc : undefined,
    };
  },
});

/**
 * What a channel change touches: channel lists and trees, member lists, the dashboard's channel
 * count (Enterprise statistics) and the system log.
 */
const CHANNEL_RESOURCES = ['Channel', 'ChannelMember', 'Enterprise', 'SysLog'];

function useChannelMutation<I, R = unknown>(call: (input: I) => Promise<R>) {
  return useResourceMutation(call, CHANNEL_RESOURCES);
}

export function useChannel(id: number | undefined) {
  return useEntity<ChannelRow>('Channel', id);
}

/** `POST /api/Channel/CreateWebChannel` (form): the channel and its members in one transaction. */
export function useCreateChannel() {
  return useChannelMutation(
    async (form: QueryValues) =>
      (await apiRequest<never, ChannelRow>('POST', '/api/Channel/CreateWebChannel', { form })).BaseData,
  );
}

/** `POST /api/THChannel/UpdateChannel` (form): absent fields stay as they are. */
export function useUpdateChannel() {
  return useChannelMutation(
    async (form: QueryValues) =>
      (await apiRequest<never, ChannelRow>('POST', '/api/THChannel/UpdateChannel', { form })).BaseData,
  );
}

/** `DELETE /api/THChannel/DeleteChannel`: the channel and its memberships (recordings stay). */
export function useDeleteChannel() {
  return useChannelMutation((cid: number) => apiRequest('DELETE', '/api/THChannel/DeleteChannel', { query: { cid } }));
}

/** `POST /api/Channel/SwitchRecord`: on needs the enterprise's RecordEnable (`channel.record_disabled`). */
export function useSwitchRecord() {
  return useChannelMutation((input: { cid: number; record: boolean }) =>
    apiRequest<never, ChannelRow>('POST', '/api/Channel/SwitchRecord', { form: input }),
  );
}

/** `POST /api/THChannel/BChangeRoom`: priority and/or type of several channels, all or nothing. */
export function useBatchChangeChannels() {
  return useChannelMutation(
    async (input: { cids: number[]; priority?: number; typeid?: number }) =>
      (await apiRequest<never, { changed: number }>('POST', '/api/THChannel/BChangeRoom', { json: input })).BaseData,
  );
}

/** Pages one user's channel list may take: an enterprise has at most a few thousand channels. */
const USER_CHANNEL_PAGES = 20;

/**
 * `GET /api/THChannel/QueryChannel?uid=`: every channel of the user's enterprise with IsMember and
 * MemberPriority. All pages are read, because saving sends the user's whole set of channels: a
 * membership the dialog never saw would be dropped.
 */
export function useUserChannels(uid: number | undefined) {
  return useQuery({
    enabled: uid !== undefined,
    queryKey: ['Channel', 'QueryChannel', { uid }],
    queryFn: ({ signal }) =>
      getAllPages<ChannelBrief>('/api/THChannel/QueryChannel', {
        query: { uid },
        signal,
        maxPages: USER_CHANNEL_PAGES,
      }),
    staleTime: 0,
  });
}

/** `POST /api/THChannel/URoomChange`: the user is in exactly `cids` afterwards (empty: in none). */
export function useChangeUserChannels() {
  return useChannelMutation(
    async (input: { uid: number; cids: number[]; priority?: number }) =>
      (
        await apiRequest<never, { UserID: number; added: number; removed: number; updated: number; rooms: number[] }>(
          'POST',
          '/api/THChannel/URoomChange',
          { json: input, timeoutMs: 60_000 },
        )
      ).BaseData,
  );
}

/** `POST /api/THChannel/CMemberChange`: add or remove members (new members may take a priority). */
export function useChangeMembers() {
  return useChannelMutation(
    async (input: { cid: number; action: 'add' | 'remove'; uids: number[]; priority?: number }) =>
      (
        await apiRequest<never, MemberChangeResult>('POST', '/api/THChannel/CMemberChange', {
          json: input,
          // Up to 10,000 members in one transaction.
          timeoutMs: 60_000,
        })
      ).BaseData,
  );
}

/** `ChangeMemPriority` for one member, `BChangeMemPri` for several (all must be members). */
export function useMemberPriority() {
  return useChannelMutation((input: { cid: number; uids: number[]; priority: number }) =>
    input.uids.length === 1
      ? apiRequest('POST', '/api/THChannel/ChangeMemPriority', {
          form: { rid: input.cid, uid: input.uids[0], priority: input.priority },
        })
      : apiRequest('POST', '/api/THChannel/BChangeMemPri', {
          json: { rid: input.cid, uids: input.uids, priority: input.priority },
          timeoutMs: 60_000,
        }),
  );
}

/** A user as the member picker lists and keeps it. */
export interface PickedUser {
  UserID: number;
  UserName: string;
  MobilePhone: string;
  OSName: string | null;
}

/**
 * Where a picker's candidates come from: the users of an enterprise (a new channel), or the users
 * of a channel's enterprise who are not yet its members.
 */
export type PickerSource = { kind: 'enterprise'; eid: number } | { kind: 'channel'; cid: number };

export interface PickerFilter {
  search: string;
  departmentId: number | undefined;
}

/** One page of candidates: name or phone contains `search`; a department with its sub-departments. */
export async function pickerPage(
  source: PickerSource,
  filter: PickerFilter,
  pageIndex: number,
  pageSize: number,
  signal?: AbortSignal,
): Promise<{ rows: PickedUser[]; total: number }> {
  const search = filter.search.trim() || undefined;
  if (source.kind === 'channel') {
    const page = await getList<ChannelMemberRow>('/api/THChannel/QueryCMember', {
      query: { cid: source.cid, members: 'out', search, OS_ID: filter.departmentId, pageIndex, pageSize },
      signal,
    });
    return { rows: page.rows.map(pickedOf), total: page.total };
  }
  const condition = { E_ID: source.eid, Search: search, OSUnder: filter.departmentId };
  const page = await getList<UserRow>('/api/UserInfo/QueryData', {
    query: { jsonCondition: JSON.stringify(cleanCondition(condition)), pageIndex, pageSize },
    signal,
  });
  return { rows: page.rows.map(pickedOf), total: page.total };
}

function pickedOf(row: { UserID: number; UserName: string; MobilePhone: string; OSName: string | null }): PickedUser {
  return { UserID: row.UserID, UserName: row.UserName, MobilePhone: row.MobilePhone, OSName: row.OSName };
}

/** Member nodes of one QueryGroup page (the API's cap). */
export const TREE_PAGE = 500;

/** The channel tree's first level: one node per channel of the working enterprise. */
export function useChannelTreeRoots() {
  return useQuery({
    queryKey: ['Channel', 'QueryGroup', 'root'],
    queryFn: async ({ signal }) => getList<ChannelTreeNode>('/api/THChannel/QueryGroup', { signal }),
    staleTime: 30_000,
  });
}

/** One page of a channel's member nodes, highest member priority first. */
export function channelTreeMembersQuery(cid: number, offset: number) {
  return queryOptions({
    queryKey: ['Channel', 'QueryGroup', { cid, offset }],
    queryFn: ({ signal }) =>
      getList<ChannelTreeNode>('/api/THChannel/QueryGroup', { query: { cid, offset, limit: TREE_PAGE }, signal }),
    staleTime: 30_000,
  });
}
