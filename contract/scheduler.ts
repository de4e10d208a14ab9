import { z } from 'zod';
import { envelope, instantSchema } from './common';
import { prayerTimeRecordSchema, type PrayerTimeRecord } from './mosques';

/*
 * The scheduler's calls (docs/reference.md section 7, Scheduler). Every instant is ISO 8601 UTC; a mosque's
 * local clock time is shown with its IANA `timezone`.
 */

/**
 * Lifecycle of a job. Recording jobs move scheduled -> launching -> launched (recording) and end by
 * what the media holds: `captured` (>= 99% of the window), `partial` or `failed` (launch or capture);
 * `missed` was never launched; `cancelled` by an operator or because the mosque is no longer active.
 * The recurring job stays scheduled.
 */
export const jobStatusSchema = z.enum([
  'scheduled',
  'launching',
  'launched',
  'captured',
  'partial',
  'failed',
  'missed',
  'cancelled',
]);
export type JobStatus = z.infer<typeof jobStatusSchema>;

/** `recording`: one mosque's capture on one Friday. `recurring`: the job that schedules the coming Friday automatically. */
export const jobKindSchema = z.enum(['recording', 'recurring']);

export const RECORDING_JOB_FUNC = 'record_friday_prayer';
/** A recording at a chosen time (an Eid prayer, a launch with start_at): the Active Jobs list names it apart. */
export const ONE_OFF_JOB_FUNC = 'record_one_off';
export const RECURRING_JOB_FUNC = 'schedule_friday_recordings';

/** The recurring job: every day at 00:00 UTC it schedules (and refreshes) the coming Friday. */
export const RECURRING_JOB_ID = 'schedule-friday-recordings';
export const RECURRING_JOB_NAME = 'Schedule the coming Friday recordings (daily, 00:00 UTC)';
/** How the jobs list shows the recurring job's trigger (a cron expression, as operators know it). */
export const RECURRING_TRIGGER = 'cron[0 0 * * *]';

/*
 * A recording job's id says what it records: `friday-<mosque>-<YYYY-MM-DD>` for a mosque's Friday (one
 * per mosque per Friday, whoever creates it), `oneoff-<random>` for a recording at a chosen time (a
 * launch with start_at). Lists tell one-offs from Fridays by it and file a one-off under its own day.
 */
export const FRIDAY_JOB_PREFIX = 'friday-';
export const ONE_OFF_JOB_PREFIX = 'oneoff-';

/** The job of one mosque's recording of one Friday. */
export function fridayJobId(mosqueId: string, fridayDate: string): string {
  return `${FRIDAY_JOB_PREFIX}${mosqueId}-${fridayDate}`;
}

/** The Friday (YYYY-MM-DD) a job records, or null for a one-off (or any job that is not a Friday's). */
export function fridayOfJobId(jobId: string): string | null {
  if (!jobId.startsWith(FRIDAY_JOB_PREFIX)) return null;
  return /-(\d{4}-\d{2}-\d{2})$/.exec(jobId)?.[1] ?? null;
}

/**
 * A capture that is not a Friday's: launched by hand (an instance without a job) or at a chosen time (a
 * one-off job). `job_id` null and no instance: not a capture at all (false).
 */
export function isOneOffCapture({ job_id, instance_id }: { job_id: string | null; instance_id: string | null }) {
  if (job_id !== null) return job_id.startsWith(ONE_OFF_JOB_PREFIX);
  return instance_id !== null;
}
/** The recurring job's next run: the first 00:00 UTC strictly after `now`. */
export function nextRecurringRun(now: Date): Date {
  const next = new Date(now.getTime());
  next.setUTCHours(24, 0, 0, 0);
  return next;
}
export const SCHEDULER_NOT_RUNNING_MESSAGE = 'Scheduler is not running; start it before scheduling recordings';

/** docs/reference.md section 3, Job (id, name, func, next_run_time, trigger) plus what the scheduler knows about it. */
export const jobSchema = z.object({
  id: z.string(),
  name: z.string(),
  func: z.string(),
  /** When the scheduler will next act on the job (launch, retry, or run); null once it is finished. */
  next_run_time: instantSchema.nullable(),
  /** `date[2026-11-27T11:09:00Z]` for a recording, `cron[0 0 * * *]` (UTC) for the recurring job. */
  trigger: z.string(),
  kind: jobKindSchema,
  status: jobStatusSchema,
  mosque_id: z.string().nullable(),
  mosque_name: z.string().nullable(),
  /** The mosque's local date of the Friday this recording is for (YYYY-MM-DD). */
  friday_date: z.string().nullable(),
  prayer_time: instantSchema.nullable(),
  timezone: z.string().nullable(),
  recording_start: instantSchema.nullable(),
  recording_end: instantSchema.nullable(),
  url: z.string().nullable(),
  duration: z.number().int().nullable(),
  attempts: z.number().int(),
  last_error: z.string().nullable(),
  /** The recording was launched after its start time (the scheduler was down or stopped). */
  late: z.boolean(),
  instance_id: z.string().nullable(),
  launched_at: instantSchema.nullable(),
  /** Why the job ended short of captured (or was cancelled), in words a person understands. */
  outcome_reason: z.string().nullable(),
  /** Seconds of the window the media covers; null until the outcome is known. */
  covered_seconds: z.number().nullable(),
  /** Seconds from recording start to the window's end. */
  expected_seconds: z.number().nullable(),
  recording_id: z.string().nullable(),
  created_at: instantSchema,
  updated_at: instantSchema,
});
export type Job = z.infer<typeof jobSchema>;

/** docs/reference.md section 3, Upcoming recording. */
export const upcomingRecordingSchema = z.object({
  job_id: z.string(),
  mosque_id: z.string(),
  mosque_name: z.string(),
  /** Recording start (20 minutes before the prayer), UTC. */
  recording_time: instantSchema,
  prayer_time: instantSchema,
  timezone: z.string(),
  status: jobStatusSchema,
  /** Differs from recording_time while a failed launch waits for its retry. */
  next_run_time: instantSchema.nullable(),
  attempts: z.number().int(),
  last_error: z.string().nullable(),
});
export type UpcomingRecording = z.infer<typeof upcomingRecordingSchema>;

/** docs/reference.md section 3, Scheduler status. */
export const schedulerStatusSchema = z.object({
  scheduler_running: z.boolean(),
  /** Jobs that GET /api/scheduler/jobs lists (the recurring job included). */
  total_jobs: z.number().int(),
  /** Recording jobs waiting to launch (scheduled or launching). */
  active_schedules: z.number().int(),
  /** When the next recording launches (its start, or its retry), or null. */
  next_recording: instantSchema.nullable(),
  next_recording_mosque: z.string().nullable(),
  next_recording_job_id: z.string().nullable(),
});
export type SchedulerStatus = z.infer<typeof schedulerStatusSchema>;

/** docs/reference.md section 3, Prayer time record: the prayer-times service's own record for the coming Friday. */
export const schedulerPrayerTimeSchema = prayerTimeRecordSchema;
export type SchedulerPrayerTime = PrayerTimeRecord;

const mosqueIdItem = z.string().trim().min(1).max(64);

/**
 * docs/reference.md section 3, Schedule request. `mosqueFilter`: a list of mosque ids (a comma-separated
 * string is accepted too); null, absent, empty list or empty string mean every active mosque.
 */
export const scheduleRequestSchema = z.strictObject({
  forceRefresh: z.boolean().default(false),
  mosqueFilter: z
    .union([z.array(mosqueIdItem).max(100_000), z.string().max(100_000), z.null()])
    .optional()
    .transform((filter): string[] | null => {
      const ids =
        typeof filter === 'string'
          ? filter
              .split(',')
              .map((id) => id.trim())
              .filter(Boolean)
          : (filter ?? []);
      return ids.length > 0 ? [...new Set(ids)] : null;
    }),
});
export type ScheduleRequest = z.input<typeof scheduleRequestSchema>;
/** A schedule request once parsed: defaults filled in, the filter a list or null. */
export type ParsedScheduleRequest = z.output<typeof scheduleRequestSchema>;

export const skippedMosqueSchema = z.object({
  mosque_id: z.string(),
  mosque_name: z.string().nullable(),
  reason: z.string(),
});
export type SkippedMosque = z.infer<typeof skippedMosqueSchema>;

export const scheduleResultSchema = z.object({
  /** Recording jobs for the coming Friday that exist after the call (new, updated and unchanged). */
  scheduled: z.number().int(),
  created: z.number().int(),
  /** Jobs whose times were recomputed (forceRefresh). */
  updated: z.number().int(),
  unchanged: z.number().int(),
  /** Mosques with a job for that Friday that has already started, ended, or was cancelled. */
  kept: z.number().int(),
  /** Pending jobs of mosques that are no longer active, cancelled by a full forceRefresh. */
  cancelled: z.number().int(),
  skipped: z.array(skippedMosqueSchema),
  friday_dates: z.array(z.string()),
});
export type ScheduleResult = z.infer<typeof scheduleResultSchema>;

export const jobIdParamsSchema = z.object({ job_id: z.string().min(1).max(200) });
export const upcomingQuerySchema = z.object({ limit: z.coerce.number().int().min(1).max(1000).default(20) });
export const jobsQuerySchema = z.object({
  /** `all` lists every job ever kept; default: pending jobs and those finished in the last 7 days. */
  scope: z.enum(['recent', 'all']).default('recent'),
  /** With either, one page of the list in jobsInOrder's order and `total` (Active Jobs at fleet size). */
  limit: z.coerce.number().int().min(1).max(1000).optional(),
  offset: z.coerce.number().int().min(0).max(10_000_000).optional(),
});
export type JobsQuery = z.input<typeof jobsQuerySchema>;

const waiting = (job: Job) => job.status === 'scheduled' || job.status === 'launching';

/** Jobs waiting to run first (soonest first), then the finished ones (latest first). */
export function jobsInOrder(jobs: readonly Job[]): Job[] {
  return [...jobs].sort((a, b) => {
    if (waiting(a) !== waiting(b)) return waiting(a) ? -1 : 1;
    if (waiting(a))
      return (a.next_run_time ?? '\uffff').localeCompare(b.next_run_time ?? '\uffff') || a.id.localeCompare(b.id);
    return b.updated_at.localeCompare(a.updated_at) || a.id.localeCompare(b.id);
  });
}

/** The list as asked: every job without paging (docs/reference.md), else one page in order and the count of all. */
export function jobsPageOf(
  jobs: readonly Job[],
  query: z.output<typeof jobsQuerySchema>,
): { jobs: Job[]; total?: number } {
  if (query.limit === undefined && query.offset === undefined) return { jobs: [...jobs] };
  const offset = query.offset ?? 0;
  return { jobs: jobsInOrder(jobs).slice(offset, offset + (query.limit ?? 10)), total: jobs.length };
}

export const schedulerStatusResponseSchema = envelope(schedulerStatusSchema);
export const upcomingResponseSchema = envelope(z.object({ upcoming_recordings: z.array(upcomingRecordingSchema) }));
export const schedulerPrayerTimesResponseSchema = envelope(
  z.object({
    prayer_times: z.array(schedulerPrayerTimeSchema),
    /** Every record matching a page query (absent without one: ./prayer-time-list.ts). */
    total: z.number().int().optional(),
  }),
);
export const jobsResponseSchema = envelope(
  z.object({
    jobs: z.array(jobSchema),
    /** Every job of the scope, with paging (absent without). */
    total: z.number().int().optional(),
  }),
);
export const scheduleResponseSchema = z.object({
  success: z.literal(true),
  message: z.string(),
  data: scheduleResultSchema,
});
export const schedulerActionResponseSchema = z.object({
  success: z.literal(true),
  message: z.string(),
  data: schedulerStatusSchema,
});
export const cancelResponseSchema = z.object({ success: z.literal(true), message: z.string(), data: jobSchema });
/** POST /api/scheduler/jobs/{job_id}/restore: a cancelled job scheduled again, until its window ends. */
export const restoreResponseSchema = cancelResponseSchema;

/** The Upcoming Recordings entry of a recording job (the server and the mocks both list jobs this way). */
export function toUpcomingRecording(
  job: Pick<
    Job,
    | 'id'
    | 'mosque_id'
    | 'mosque_name'
    | 'recording_start'
    | 'prayer_time'
    | 'timezone'
    | 'status'
    | 'next_run_time'
    | 'attempts'
    | 'last_error'
  >,
): UpcomingRecording {
  return {
    job_id: job.id,
    mosque_id: job.mosque_id ?? '',
    mosque_name: job.mosque_name ?? '',
    recording_time: job.recording_start ?? '',
    prayer_time: job.prayer_time ?? '',
    timezone: job.timezone ?? 'UTC',
    status: job.status,
    next_run_time: job.next_run_time,
    attempts: job.attempts,
    last_error: job.last_error,
  };
}
