import { HUB_PATH } from '@intercom/contract';
import { HubConnectionBuilder, LogLevel } from '@microsoft/signalr';
import type { QueryClient, QueryKey } from '@tanstack/react-query';
import { isApiError } from '../api/ApiError';
import { getObject } from '../api/apiClient';
import { queryClient } from '../api/queryClient';
import { hasAccessToken, getAccessToken } from '../storage/tokenStore';
import { HubController, type SessionCheck } from './HubController';
import { keepRetryingPolicy } from './reconnectDelay';
import { SlicedJsonHubProtocol } from './SlicedJsonHubProtocol';

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

/** This tab's one hub connection (DESIGN.md section 6); LiveHubConnection starts and stops it. */
export const liveHub = new HubController({
  createConnection: () =>
    new HubConnectionBuilder()
      .withUrl(HUB_PATH, { accessTokenFactory: () => getAccessToken() ?? '' })
      .withHubProtocol(new SlicedJsonHubProtocol())
      .withAutomaticReconnect(keepRetryingPolicy())
      .configureLogging(LogLevel.Warning)
      .build(),
  checkSession,
  onResync: () => {
    for (const { key } of resyncKeys.values()) void queryClient.invalidateQueries({ queryKey: key });
  },
});
