import type { QueryKey } from '@tanstack/react-query';
import { useEffect } from 'react';
import { refetchOnHubResync } from './liveHub';

/**
 * While mounted, the query is refetched each time the hub is back after a loss: pushes missed in
 * the meantime are not replayed, so cached data patched by pushes is not trusted until then.
 */
export function useRefetchOnHubResync(queryKey: QueryKey): void {
  const id = JSON.stringify(queryKey);
  useEffect(() => refetchOnHubResync(JSON.parse(id) as QueryKey), [id]);
}
