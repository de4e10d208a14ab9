import { queryOptions, useQuery } from '@tanstack/react-query';
import type { ActivityEntry } from '../../contract/activity';
import { activityRoutes } from '../../contract/routes/activity';
import { call } from './endpoint';

/** GET /api/activity?limit= — the activity log, newest first. */
export const activityQueryKey = ['activity'] as const;

/** How often the Dashboard's Recent Activity asks again (the live feed also triggers a refresh). */
export const ACTIVITY_POLL_MS = 30_000;

export async function getActivity(limit: number): Promise<ActivityEntry[]> {
  return (await call(activityRoutes.list, { query: { limit } })).data.entries;
}

export const activityQueryOptions = (limit: number) =>
  // Read afresh whenever the Dashboard opens: what the operator just did elsewhere must be there.
  queryOptions({
    queryKey: [...activityQueryKey, limit],
    queryFn: () => getActivity(limit),
    refetchInterval: ACTIVITY_POLL_MS,
    staleTime: 0,
  });

export function useActivity(limit: number) {
  return useQuery(activityQueryOptions(limit));
}
