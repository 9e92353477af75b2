import type { GpsRecord, UserRow } from '@intercom/contract';
import { useQueries } from '@tanstack/react-query';
import { useEffect, useMemo } from 'react';
import { getList } from '../../shared/api/apiClient';
import { liveHub } from '../../shared/hub/liveHub';
import { useHubSnapshot } from '../../shared/hub/useHubSnapshot';

/** Users read and watched at most to frame a fence's scope: enough to show where they work. */
export const FRAME_USERS_MAX = 200;

/** The users of the chosen departments (each with those below it), as many as frame a view. */
function useDepartmentUserIds(departmentIds: readonly number[]): number[] {
  const pages = useQueries({
    queries: departmentIds.map((OSUnder) => ({
      queryKey: ['UserInfo', 'QueryData', { OSUnder, frame: true }],
      queryFn: async ({ signal }: { signal: AbortSignal }) =>
        (
          await getList<UserRow>('/api/UserInfo/QueryData', {
            query: { jsonCondition: JSON.stringify({ OSUnder }), pageIndex: 0, pageSize: FRAME_USERS_MAX },
            signal,
          })
        ).rows.map((user) => user.UserID),
      staleTime: 60_000,
    })),
  });
  const key = pages.map((page) => page.dataUpdatedAt).join();
  // A new array only when a page changed: the watch below starts again only then.
  // eslint-disable-next-line react-hooks/exhaustive-deps
  return useMemo(() => pages.flatMap((page) => page.data ?? []), [key]);
}

/**
 * The latest records (from the hub) of the users a fence applies to: the chosen users and those of
 * the chosen departments, FRAME_USERS_MAX at most; undefined when none is chosen (the whole
 * enterprise, which the users' layer frames by itself).
 */
export function useFenceScopePositions(
  userIds: readonly number[],
  departmentIds: readonly number[],
): GpsRecord[] | undefined {
  const inDepartments = useDepartmentUserIds(departmentIds);
  const ids = useMemo(
    () => [...new Set([...userIds, ...inDepartments])].slice(0, FRAME_USERS_MAX),
    [userIds, inDepartments],
  );
  const idsKey = ids.join();
  useEffect(() => {
    const stops = ids.map((id) => liveHub.watch(id));
    return () => stops.forEach((stop) => stop());
    // `ids` is a new array on each render of a new scope; its content is `idsKey`.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [idsKey]);
  const watched = useHubSnapshot((snapshot) => snapshot.watched);
  const scoped = userIds.length > 0 || departmentIds.length > 0;
  return useMemo(() => {
    if (!scoped) return undefined;
    return ids.flatMap((id) => {
      const record = watched.get(id)?.record;
      return record ? [record] : [];
    });
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [scoped, idsKey, watched]);
}
