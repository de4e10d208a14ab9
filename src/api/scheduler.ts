import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type {
  cancelResponseSchema,
  JobsQuery,
  schedulerActionResponseSchema,
  SchedulerStatus,
  ScheduleRequest,
  scheduleResponseSchema,
  UpcomingRecording,
  restoreResponseSchema,
} from '../../contract/scheduler';
import type { FridaysQuery } from '../../contract/fridays';
import type { SchedulerPrayerTimesQuery } from '../../contract/prayer-time-list';
import { schedulerRoutes } from '../../contract/routes/scheduler';
import { apiErrorMessage } from './client';
import { call } from './endpoint';
import { countOf } from '../../contract/plural';

/*
 * The scheduler's calls (docs/reference.md section 7, Scheduler). Every read sits under one key, so Refresh,
 * Auto Refresh and every change re-read the status, upcoming recordings, prayer times and jobs together.
 */

/** The Scheduling page's messages (docs/reference.md section 8, Scheduler) and its own successes. */
export const SCHEDULER_MESSAGES = {
  loadFailed: 'Failed to load scheduler data',
  scheduleFailed: 'Failed to schedule recordings',
  startFailed: 'Failed to start scheduler',
  stopFailed: 'Failed to stop scheduler',
  cancelFailed: 'Failed to cancel job',
  restoreFailed: 'Failed to restore job',
  fridaysFailed: 'Failed to load the Friday ledger',
  started: 'Scheduler started',
  stopped: 'Scheduler stopped',
  cancelled: 'Job cancelled',
  scheduled: (count: number) => `Scheduled ${countOf(count, 'Friday recording')}`,
} as const;

/** docs/reference.md section 9: the scheduler's auto refresh. */
export const SCHEDULER_REFRESH_MS = 30_000;
/** docs/reference.md section 9: the upcoming list limit. */
export const UPCOMING_LIMIT = 20;

/** The server's sentence when it gave one, else `fallback` (docs/reference.md section 8: server error preferred). */
export function schedulerErrorMessage(error: unknown, fallback: string): string {
  return apiErrorMessage(error, fallback);
}

export const schedulerQueryKeys = {
  all: ['scheduler'] as const,
  status: ['scheduler', 'status'] as const,
  upcoming: (limit: number) => ['scheduler', 'upcoming', limit] as const,
  prayerTimes: ['scheduler', 'prayer-times'] as const,
  jobs: ['scheduler', 'jobs'] as const,
  /** `coming`: the server's default, the coming or current Friday. */
  fridays: (date: string | null) => ['scheduler', 'fridays', date ?? 'coming'] as const,
};

type Body<T extends z.ZodType> = z.infer<T>;
/** `false` stops the polling (Auto Refresh off). */
type Polling = number | false;

/* ---------------------------------------------------------------- reads */

export async function getSchedulerStatus(): Promise<SchedulerStatus> {
  return (await call(schedulerRoutes.status)).data;
}

export async function getUpcomingRecordings(limit = UPCOMING_LIMIT): Promise<UpcomingRecording[]> {
  return (await call(schedulerRoutes.upcoming, { query: { limit } })).data.upcoming_recordings;
}

/** One page of the active mosques' coming Friday prayers, searched and sorted on the server, with its total. */
export function useSchedulerPrayerTimesPage(query: SchedulerPrayerTimesQuery, refetchInterval: Polling = false) {
  return useQuery({
    queryKey: [...schedulerQueryKeys.prayerTimes, 'page', query],
    queryFn: async () => (await call(schedulerRoutes.prayerTimes, { query })).data,
    refetchInterval,
    placeholderData: keepPreviousData,
  });
}

/** One page of the scheduler's jobs (waiting first, soonest first; then the finished ones, latest first), with the total. */
export function useSchedulerJobsPage(query: JobsQuery, refetchInterval: Polling = false) {
  return useQuery({
    queryKey: [...schedulerQueryKeys.jobs, 'page', query],
    queryFn: async () => (await call(schedulerRoutes.jobs, { query })).data,
    refetchInterval,
    placeholderData: keepPreviousData,
  });
}

/**
 * One page of a Friday's ledger (the coming or current Friday without `date`), searched, filtered and sorted
 * on the server, with its total and the Friday's counts by status.
 */
export function useFridaysPage(query: FridaysQuery, refetchInterval: Polling = false) {
  return useQuery({
    queryKey: [...schedulerQueryKeys.fridays(query.date ?? null), 'page', query],
    queryFn: async () => (await call(schedulerRoutes.fridays, { query })).data,
    refetchInterval,
    placeholderData: keepPreviousData,
  });
}

export const schedulerStatusQueryOptions = (refetchInterval: Polling = false) =>
  queryOptions({ queryKey: schedulerQueryKeys.status, queryFn: getSchedulerStatus, refetchInterval });

export const upcomingRecordingsQueryOptions = (refetchInterval: Polling = false, limit = UPCOMING_LIMIT) =>
  queryOptions({
    queryKey: schedulerQueryKeys.upcoming(limit),
    queryFn: () => getUpcomingRecordings(limit),
    refetchInterval,
  });

export function useSchedulerStatus(refetchInterval: Polling = false) {
  return useQuery(schedulerStatusQueryOptions(refetchInterval));
}

export function useUpcomingRecordings(refetchInterval: Polling = false) {
  return useQuery(upcomingRecordingsQueryOptions(refetchInterval));
}

/* ---------------------------------------------------------------- changes */

export type ScheduleResponse = Body<typeof scheduleResponseSchema>;
export type SchedulerActionResponse = Body<typeof schedulerActionResponseSchema>;
export type CancelResponse = Body<typeof cancelResponseSchema>;
export type RestoreResponse = Body<typeof restoreResponseSchema>;

export async function scheduleFriday(body: ScheduleRequest): Promise<ScheduleResponse> {
  return call(schedulerRoutes.scheduleFriday, { body });
}

export async function startScheduler(): Promise<SchedulerActionResponse> {
  return call(schedulerRoutes.start);
}

export async function stopScheduler(): Promise<SchedulerActionResponse> {
  return call(schedulerRoutes.stop);
}

export async function cancelJob(jobId: string): Promise<CancelResponse> {
  return call(schedulerRoutes.cancel, { params: { job_id: jobId } });
}

export async function restoreJob(jobId: string): Promise<RestoreResponse> {
  return call(schedulerRoutes.restore, { params: { job_id: jobId } });
}

/** Every change re-reads everything under the scheduler key; start and stop also put the status they return in place at once. */
function useSchedulerMutation<TVariables, TData>(
  mutationFn: (variables: TVariables) => Promise<TData>,
  statusOf?: (data: TData) => SchedulerStatus,
) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSuccess: (data) => {
      if (statusOf) queryClient.setQueryData(schedulerQueryKeys.status, statusOf(data));
      return queryClient.invalidateQueries({ queryKey: schedulerQueryKeys.all });
    },
  });
}

export const useScheduleFriday = () => useSchedulerMutation(scheduleFriday);
export const useStartScheduler = () =>
  useSchedulerMutation(
    (_: void) => startScheduler(),
    (data) => data.data,
  );
export const useStopScheduler = () =>
  useSchedulerMutation(
    (_: void) => stopScheduler(),
    (data) => data.data,
  );
export const useCancelJob = () => useSchedulerMutation(cancelJob);
export const useRestoreJob = () => useSchedulerMutation(restoreJob);
