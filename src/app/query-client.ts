import { QueryClient } from '@tanstack/react-query';

/**
 * One client per signed-in session: the signed-in shell creates it, so signing out drops every cached answer.
 * No automatic retries: a failed call shows its message at once and the page offers Refresh (or polls again).
 */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: { retry: false, refetchOnWindowFocus: false, staleTime: 10_000 },
      mutations: { retry: false },
    },
  });
}
