import type { LoginInfo } from '@intercom/contract';
import type { QueryClient } from '@tanstack/react-query';
import { getObject } from './apiClient';
import { queryClient as appQueryClient } from './queryClient';

/** How often an open, visible tab asks who it is, so a replaced session shows up while idle. */
export const SESSION_POLL_MS = 30_000;

export const loginInfoKey = ['Account', 'LoginInfo'] as const;

/** `GET /api/Account/LoginInfo`: the first load reports its own failure, later ones open the re-login dialog. */
export function fetchLoginInfo(client: QueryClient, signal?: AbortSignal): Promise<LoginInfo> {
  const loaded = client.getQueryData(loginInfoKey) !== undefined;
  return getObject<LoginInfo>('/api/Account/LoginInfo', { signal, sessionDialog: loaded });
}

/**
 * Starts loading the account while the signed-in screens' code and texts still load (they ask
 * for it first thing; account's `useLoginInfo` takes over the request under way). Here, not in
 * features/account, whose entry brings the hub connection along: the login page's bundle stays as small.
 */
export function prefetchLoginInfo(client: QueryClient = appQueryClient): void {
  void client.prefetchQuery({
    queryKey: loginInfoKey,
    queryFn: ({ signal }) => fetchLoginInfo(client, signal),
    staleTime: SESSION_POLL_MS,
    // As useLoginInfo's: the session guard reports a failed first load itself.
    meta: { errorToast: false },
  });
}
