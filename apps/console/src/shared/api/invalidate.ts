import type { QueryClient } from '@tanstack/react-query';

/** Marks every cached query of these resources stale (the first part of `[resource, op, params]`). */
export function invalidateResources(queryClient: QueryClient, ...resources: string[]): Promise<void> {
  return queryClient.invalidateQueries({ predicate: (query) => resources.includes(String(query.queryKey[0])) });
}
