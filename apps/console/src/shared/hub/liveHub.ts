import type { QueryClient, QueryKey } from '@tanstack/react-query';
import { isApiError } from '../api/ApiError';
import { getObject } from '../api/apiClient';
import { queryClient } from '../api/queryClient';
import { hasAccessToken, getAccessToken } from '../storage/tokenStore';
import type { SessionCheck } from './HubController';
import { HubWorkerClient } from './HubWorkerClient';

/** Query keys whose data the pushes also change; refetched after every reconnect. */
const resyncKeys = new Map<string, { key: QueryKey; users: number }>();

/** Registers a query to refetch after a reconnect; returns the unregistration. */
export function refetchOnHubResync(key: QueryKey): () => void {
  const id = JSON.stringify(key);
  const entry = resyncKeys.get(id) ?? { key, users: 0 };
  entry.users += 1;
  resyncKeys.set(id, entry);
  return () => {
    entry.users -= 1;
    if (entry.users === 0) resyncKeys.delete(id);
  };
}

/** Resolves once no mutation is running (a logout or password change ends the session on purpose). */
function whenIdle(client: QueryClient): Promise<void> {
  if (client.isMutating() === 0) return Promise.resolve();
  return new Promise((resolve) => {
    const unsubscribe = client.getMutationCache().subscribe(() => {
      if (client.isMutating() > 0) return;
      unsubscribe();
      resolve();
    });
  });
}

/**
 * The hub said the session is over. The console's own path decides: one API call with the same
 * token, whose session-ended answer opens the re-login dialog as any other call would. A logout
 * or password change of this tab ends the session on purpose; then the token is gone and nothing
 * more is said.
 */
async function checkSession(): Promise<SessionCheck> {
  await whenIdle(queryClient);
  if (!hasAccessToken()) return 'ended';
  try {
    await getObject('/api/Account/LoginInfo', { connectionToast: false });
    return 'valid';
  } catch (error) {
    return isApiError(error) && error.sessionEnded ? 'ended' : 'valid';
  }
}

/**
 * This tab's one hub connection (DESIGN.md section 6), run by the hub worker (hub.worker.ts);
 * LiveHubConnection starts and stops it.
 */
export const liveHub = new HubWorkerClient({
  createWorker: () => new Worker(new URL('./hub.worker.ts', import.meta.url), { type: 'module', name: 'hub' }),
  token: () => getAccessToken() ?? '',
  checkSession,
  onResync: () => {
    for (const { key } of resyncKeys.values()) void queryClient.invalidateQueries({ queryKey: key });
  },
});
