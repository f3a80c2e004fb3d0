import { QueryClient } from '@tanstack/react-query';
import { api } from './request';

/**
 * Platform §7: no refetch on focus, no polling, no retry (the request helper already retries).
 * Data is fresh for a minute so moving between tabs does not refetch everything.
 */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        refetchOnWindowFocus: false,
        retry: false,
        staleTime: 60_000,
        queryFn: ({ queryKey }) => api.get(String(queryKey[0])),
      },
      mutations: { retry: false },
    },
  });
}
