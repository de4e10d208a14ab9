import { HttpResponse } from 'msw';
import type { z } from 'zod';
import { RECORDING_LEAD_MINUTES } from '../../../contract/mosques';
import {
  RECORDING_JOB_FUNC,
  nextRecurringRun,
  RECURRING_JOB_FUNC,
  RECURRING_JOB_ID,
  RECURRING_JOB_NAME,
  RECURRING_TRIGGER,
  SCHEDULER_NOT_RUNNING_MESSAGE,
  toUpcomingRecording,
  type cancelResponseSchema,
  type Job,
  jobsPageOf,
  type jobsResponseSchema,
  type schedulerActionResponseSchema,
  type schedulerPrayerTimesResponseSchema,
  type SchedulerStatus,
  type schedulerStatusResponseSchema,
  type scheduleResponseSchema,
  type ScheduleResult,
  type upcomingResponseSchema,
  type UpcomingRecording,
} from '../../../contract/scheduler';
import { prayerTimesPageOf } from '../../../contract/prayer-time-list';
import { schedulerRoutes } from '../../../contract/routes/scheduler';
import { mock } from '../endpoint';
import { errorResponse } from '../http';
import { nowIso, store, type MockStore } from '../store';
import { recordMockActivity } from './activity';
import { mockMosques } from './config';
import { prayerTime } from './config-places';
import { countOf } from '../../../contract/plural';

/*
 * The scheduler in the mocks: its on/off state and jobs belong to the store object, so resetStore()
 * resets them. Jobs never fire here (no recorders); tests put jobs in any state through schedulerMock().
 * Friday prayer is the config mocks' stand-in (solar noon from the longitude plus 2 minutes, or the
 * fixed Jumu'ah time), so both pages show the same times in `npm run dev:mock`.
 */

/** The recurring job's id, as the server names it. */
export const MOCK_RECURRING_JOB_ID = RECURRING_JOB_ID;
const DAY_MS = 86_400_000;
const WEEK_MS = 7 * DAY_MS;
const DURATION_SECONDS = 7200;

export interface SchedulerMockState {
  running: boolean;
  jobs: Job[];
}

const states = new WeakMap<MockStore, SchedulerMockState>();

/** The bookkeeping fields of a job that has not run yet, created and updated at `at`. */
function notYetRun(
  at: string,
): Pick<
  Job,
  | 'attempts'
  | 'last_error'
  | 'late'
  | 'instance_id'
  | 'launched_at'
  | 'outcome_reason'
  | 'covered_seconds'
  | 'expected_seconds'
  | 'recording_id'
  | 'created_at'
  | 'updated_at'
> {
  return {
    attempts: 0,
    last_error: null,
    late: false,
    instance_id: null,
    launched_at: null,
    outcome_reason: null,
    covered_seconds: null,
    expected_seconds: null,
    recording_id: null,
    created_at: at,
    updated_at: at,
  };
}

function recurringJob(now: Date): Job {
  const at = now.toISOString();
  return {
    id: MOCK_RECURRING_JOB_ID,
    name: RECURRING_JOB_NAME,
    func: RECURRING_JOB_FUNC,
    next_run_time: nextRecurringRun(now).toISOString(),
    trigger: RECURRING_TRIGGER,
    kind: 'recurring',
    status: 'scheduled',
    mosque_id: null,
    mosque_name: null,
    friday_date: null,
    prayer_time: null,
    timezone: 'UTC',
    recording_start: null,
    recording_end: null,
    url: null,
    duration: null,
    ...notYetRun(at),
  };
}

/** The scheduler of the current store (tests read and change it). Running, with only the recurring job, at first. */
export function schedulerMock(): SchedulerMockState {
  let state = states.get(store);
  if (!state) {
    state = { running: true, jobs: [recurringJob(new Date())] };
    states.set(store, state);
  }
  return state;
}

/** The mosque's local date (YYYY-MM-DD) of an instant. */
function localDate(instant: Date, zone: string): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(
    instant,
  );
}

/** A recording job as the scheduler keeps one; `recording_start` decides the prayer (20 minutes later) and the window. */
export function mockRecordingJob(
  fields: Partial<Job> & Pick<Job, 'mosque_id' | 'mosque_name' | 'recording_start'>,
): Job {
  const start = new Date(fields.recording_start ?? nowIso());
  const timezone = fields.timezone ?? 'UTC';
  const fridayDate = fields.friday_date ?? localDate(start, timezone);
  const startIso = start.toISOString();
  const at = nowIso();
  return {
    id: `friday-${fields.mosque_id}-${fridayDate}`,
    name: `Friday recording: ${fields.mosque_name}`,
    func: RECORDING_JOB_FUNC,
    next_run_time: startIso,
    trigger: `date[${startIso.replace(/\.000Z$/, 'Z')}]`,
    kind: 'recording',
    status: 'scheduled',
    friday_date: fridayDate,
    prayer_time: new Date(start.getTime() + RECORDING_LEAD_MINUTES * 60_000).toISOString(),
    timezone,
    recording_end: new Date(start.getTime() + DURATION_SECONDS * 1000).toISOString(),
    url: 'https://streams.example.com/live/mock.m3u8',
    duration: DURATION_SECONDS,
    ...notYetRun(at),
    ...fields,
    recording_start: startIso,
  };
}

/* ---------------------------------------------------------------- reads */

const waiting = (job: Job) => job.status === 'scheduled' || job.status === 'launching';

/** Pending jobs, the recurring one, and jobs touched in the last 7 days (the server's default scope). */
export function listedJobs(now: Date): Job[] {
  const since = new Date(now.getTime() - WEEK_MS).toISOString();
  return schedulerMock().jobs.filter((job) => waiting(job) || job.kind === 'recurring' || job.updated_at >= since);
}

function status(now = new Date()): SchedulerStatus {
  const { running, jobs } = schedulerMock();
  const next = jobs
    .filter((job) => job.kind === 'recording' && job.status === 'scheduled' && job.next_run_time)
    .sort((a, b) => (a.next_run_time ?? '').localeCompare(b.next_run_time ?? ''))[0];
  return {
    scheduler_running: running,
    total_jobs: listedJobs(now).length,
    active_schedules: jobs.filter((job) => job.kind === 'recording' && waiting(job)).length,
    next_recording: next?.next_run_time ?? null,
    next_recording_mosque: next?.mosque_name ?? null,
    next_recording_job_id: next?.id ?? null,
  };
}

function upcoming(limit: number): UpcomingRecording[] {
  return schedulerMock()
    .jobs.filter((job) => job.kind === 'recording' && waiting(job))
    .sort((a, b) => (a.recording_start ?? '').localeCompare(b.recording_start ?? '') || a.id.localeCompare(b.id))
    .slice(0, limit)
    .map(toUpcomingRecording);
}

/* ---------------------------------------------------------------- scheduling */

function scheduleFriday(forceRefresh: boolean, filter: string[] | null, now: Date): ScheduleResult {
  const state = schedulerMock();
  const result: ScheduleResult = {
    scheduled: 0,
    created: 0,
    updated: 0,
    unchanged: 0,
    kept: 0,
    cancelled: 0,
    skipped: [],
    friday_dates: [],
  };
  const all = mockMosques();
  const selected = filter ? all.filter((mosque) => filter.includes(mosque.mosque_id)) : all;
  for (const id of filter ?? []) {
    if (!all.some((mosque) => mosque.mosque_id === id && mosque.active))
      result.skipped.push({ mosque_id: id, mosque_name: null, reason: 'Unknown or inactive mosque' });
  }
  const dates = new Set<string>();
  const at = now.toISOString();
  for (const mosque of selected.filter((candidate) => candidate.active)) {
    const skip = (reason: string) =>
      result.skipped.push({ mosque_id: mosque.mosque_id, mosque_name: mosque.name, reason });
    if (!mosque.ID_token?.trim()) {
      skip('Mosque has no stream identifier (ID_token)');
      continue;
    }
    const prayer = prayerTime(mosque, now);
    if (!prayer) {
      skip("No coordinates or fixed Jumu'ah time");
      continue;
    }
    const planned = mockRecordingJob({
      mosque_id: mosque.mosque_id,
      mosque_name: mosque.name,
      recording_start: prayer.recording_start,
      timezone: prayer.timezone,
      url: mosque.ID_token,
    });
    dates.add(planned.friday_date ?? '');
    const existing = state.jobs.find((job) => job.id === planned.id);
    if (!existing) {
      state.jobs.push(planned);
      result.created++;
    } else if (existing.status !== 'scheduled' || existing.attempts > 0) {
      result.kept++;
      continue;
    } else if (forceRefresh && existing.recording_start !== planned.recording_start) {
      Object.assign(existing, { ...planned, created_at: existing.created_at, updated_at: at });
      result.updated++;
    } else {
      result.unchanged++;
    }
    result.scheduled++;
  }
  result.friday_dates = [...dates].sort();
  return result;
}

function scheduleMessage(result: ScheduleResult): string {
  return (
    `Scheduled ${countOf(result.scheduled, 'Friday recording')}: ${result.created} new, ${result.updated} updated, ${result.unchanged} unchanged` +
    (result.skipped.length > 0 ? `; ${countOf(result.skipped.length, 'mosque')} skipped` : '')
  );
}

type Body<T extends z.ZodType> = z.infer<T>;

function setRunning(running: boolean, actor: { id: number; username: string }) {
  schedulerMock().running = running;
  recordMockActivity(running ? 'scheduler.start' : 'scheduler.stop', actor);
  return HttpResponse.json<Body<typeof schedulerActionResponseSchema>>({
    success: true,
    message: running ? 'Scheduler started' : 'Scheduler stopped',
    data: status(),
  });
}

export const schedulerHandlers = [
  mock(schedulerRoutes.status, () =>
    HttpResponse.json<Body<typeof schedulerStatusResponseSchema>>({ success: true, data: status() }),
  ),

  mock(schedulerRoutes.upcoming, ({ query }) =>
    HttpResponse.json<Body<typeof upcomingResponseSchema>>({
      success: true,
      data: { upcoming_recordings: upcoming(query.limit) },
    }),
  ),

  mock(schedulerRoutes.prayerTimes, ({ query }) => {
    const now = new Date();
    const records = mockMosques()
      .filter((mosque) => mosque.active)
      .flatMap((mosque) => prayerTime(mosque, now) ?? []);
    return HttpResponse.json<Body<typeof schedulerPrayerTimesResponseSchema>>({
      success: true,
      data: prayerTimesPageOf(records, query),
    });
  }),

  mock(schedulerRoutes.jobs, ({ query }) => {
    const jobs = query.scope === 'all' ? schedulerMock().jobs : listedJobs(new Date());
    return HttpResponse.json<Body<typeof jobsResponseSchema>>({ success: true, data: jobsPageOf(jobs, query) });
  }),

  mock(schedulerRoutes.scheduleFriday, ({ body, user }) => {
    if (!schedulerMock().running) return errorResponse(409, SCHEDULER_NOT_RUNNING_MESSAGE);
    const result = scheduleFriday(body.forceRefresh, body.mosqueFilter, new Date());
    recordMockActivity('schedule.run', user);
    return HttpResponse.json<Body<typeof scheduleResponseSchema>>({
      success: true,
      message: scheduleMessage(result),
      data: result,
    });
  }),

  mock(schedulerRoutes.start, ({ user }) => setRunning(true, user)),

  mock(schedulerRoutes.stop, ({ user }) => setRunning(false, user)),

  mock(schedulerRoutes.cancel, ({ params, user }) => {
    const id = params.job_id;
    const job = schedulerMock().jobs.find((candidate) => candidate.id === id);
    if (!job) return errorResponse(404, `Job ${id} not found`);
    if (job.kind === 'recurring')
      return errorResponse(
        409,
        'The recurring scheduling job cannot be cancelled; stop the scheduler to pause all scheduling',
      );
    const reply = (message: string) =>
      HttpResponse.json<Body<typeof cancelResponseSchema>>({ success: true, message, data: job });
    switch (job.status) {
      case 'scheduled':
        Object.assign(job, { status: 'cancelled', next_run_time: null, updated_at: nowIso() });
        recordMockActivity('schedule.cancel', user, { type: 'job', id, label: job.name });
        return reply(`Job ${id} cancelled`);
      case 'cancelled':
        return reply(`Job ${id} was already cancelled`);
      case 'launching':
        return errorResponse(
          409,
          `Job ${id} is being launched right now; terminate its recording from Instances once it appears`,
        );
      case 'launched':
        return errorResponse(
          409,
          `Job ${id} was already launched${job.instance_id ? ` (instance ${job.instance_id})` : ''}; terminate the recording from Instances`,
        );
      default:
        return errorResponse(409, `Job ${id} has already ended (${job.status}) and cannot be cancelled`);
    }
  }),
];
