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

/** How recent an answer the route loader fetched may be for a screen mounting after it not to ask again. */
const JUST_FETCHED_MS = 3_000;

/**
 * `refetchOnMount` for a query that is otherwise read anew whenever its screen opens (staleTime 0):
 * an answer the route loader fetched a moment before is used as it is, not asked for twice
 * (decision 0044); anything older is fetched again, as before.
 */
export const unlessJustFetched = (query: { state: { dataUpdatedAt: number } }): boolean => Date.now() - query.state.dataUpdatedAt > JUST_FETCHED_MS;
