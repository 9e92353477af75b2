import { useMutation, useQueryClient } from '@tanstack/react-query';
import { invalidateResources } from './invalidate';

/**
 * A call that changes these resources. Once it succeeds every cached query of theirs is stale, and
 * the mutation settles only after that, so lists, details and pickers show what it changed.
 */
export function useResourceMutation<I, R = unknown>(call: (input: I) => Promise<R>, resources: readonly string[]) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: call,
    onSuccess: () => invalidateResources(queryClient, ...resources),
  });
}
