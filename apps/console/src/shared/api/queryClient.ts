import { QueryCache, QueryClient } from '@tanstack/react-query';
import { isApiError } from './ApiError';
import { emitApiEvent } from './apiEvents';

declare module '@tanstack/react-query' {
  interface Register {
    queryMeta: {
      /** false: the page reports this query's failure itself (no "query error" toast). */
      errorToast?: boolean;
    };
  }
}

/** The one query cache of the console; query keys are `[resource, op, params]`. */
export const queryClient = new QueryClient({
  queryCache: new QueryCache({
    onError: (error, query) => {
      if (query.meta?.errorToast === false) return;
      // Connection failures and ended sessions were already reported by the API client.
      if (isApiError(error) && !error.alreadyShown) emitApiEvent({ type: 'query', error });
    },
  }),
  defaultOptions: {
    queries: {
      retry: false,
      staleTime: 30_000,
      refetchOnWindowFocus: false,
    },
    mutations: { retry: false },
  },
});
