import { HttpResponse } from 'msw';
import type { z } from 'zod';
import type { Mosque } from '../../../contract/mosques';
import {
  comingFriday,
  fridaysPageOf,
  fridayStatusOfJob,
  type FridayRow,
  type fridaysResponseSchema,
} from '../../../contract/fridays';
import type { Job, restoreResponseSchema } from '../../../contract/scheduler';
import { schedulerRoutes } from '../../../contract/routes/scheduler';
import { mock } from '../endpoint';
import { errorResponse } from '../http';
import { nowIso, store } from '../store';
import { recordMockActivity } from './activity';
import { mockMosques } from './config';
import { prayerTime } from './config-places';
import { schedulerMock } from './scheduler';

/*
 * The Friday ledger and restore in the mocks, read from the scheduler mock's jobs: tests set a job's
 * status, coverage and reason there and the ledger shows it as the server would (with the gaps and
 * stopper of the job's recording in the store).
 */

type Body<T extends z.ZodType> = z.infer<T>;
const WINDOW_SECONDS = 7200;

function jobRow(job: Job, base: Pick<FridayRow, 'mosque_id' | 'mosque_name' | 'friday' | 'alarm_ids'>): FridayRow {
  const status = fridayStatusOfJob(job.status);
  const recording = store.recordings.find((candidate) => candidate.id === job.recording_id);
  return {
    ...base,
    recording_start: job.recording_start,
    window_end: job.recording_end,
    status,
    expected_seconds: job.expected_seconds ?? WINDOW_SECONDS,
    covered_seconds: job.covered_seconds,
    reason: job.outcome_reason ?? (status === 'cancelled' ? 'Cancelled by an operator' : null),
    job_id: job.id,
    recording_ids: job.recording_id ? [job.recording_id] : [],
    gaps: recording?.gaps ?? [],
    stopped_by: recording?.stopped_by ?? null,
  };
}

function ledgerRow(mosque: Mosque, friday: string, now: Date): FridayRow {
  const base = { mosque_id: mosque.mosque_id, mosque_name: mosque.name, friday, alarm_ids: [] };
  const job = schedulerMock().jobs.find(
    (candidate) => candidate.mosque_id === mosque.mosque_id && candidate.friday_date === friday,
  );
  if (job) return jobRow(job, base);
  const empty = {
    recording_start: null,
    window_end: null,
    expected_seconds: null,
    covered_seconds: null,
    job_id: null,
    recording_ids: [],
    gaps: [],
    stopped_by: null,
  };
  if (!mosque.ID_token?.trim())
    return { ...base, ...empty, status: 'unschedulable', reason: 'Mosque has no stream identifier (ID_token)' };
  const prayer = prayerTime(mosque, now);
  if (!prayer) return { ...base, ...empty, status: 'unschedulable', reason: "No coordinates or fixed Jumu'ah time" };
  if (friday < comingFriday(now))
    return { ...base, ...empty, status: 'missed', reason: 'No recording was scheduled for this Friday' };
  return {
    ...base,
    ...empty,
    status: 'scheduled',
    reason: 'Not scheduled yet: run Schedule Friday Recordings or start the scheduler',
  };
}

export const fridaysHandlers = [
  mock(schedulerRoutes.fridays, ({ query }) => {
    const now = new Date();
    const friday = query.date ?? comingFriday(now);
    const fridays = mockMosques()
      .filter((mosque) => mosque.active)
      .sort((a, b) => a.name.localeCompare(b.name))
      .map((mosque) => ledgerRow(mosque, friday, now));
    return HttpResponse.json<Body<typeof fridaysResponseSchema>>({
      success: true,
      data: { friday, ...fridaysPageOf(fridays, query) },
    });
  }),

  mock(schedulerRoutes.restore, ({ params, user }) => {
    const id = params.job_id;
    const job = schedulerMock().jobs.find((candidate) => candidate.id === id && candidate.kind === 'recording');
    if (!job) return errorResponse(404, `Job ${id} not found`);
    if (job.status !== 'cancelled')
      return errorResponse(409, `Job ${id} is ${job.status}, not cancelled; only a cancelled job can be restored`);
    const at = nowIso();
    if (!job.recording_end || job.recording_end <= at) {
      return errorResponse(
        409,
        `The recording window of job ${id} ended at ${job.recording_end ?? 'an unknown time'}; it can no longer be restored`,
      );
    }
    Object.assign(job, {
      status: 'scheduled',
      next_run_time: job.recording_start && job.recording_start > at ? job.recording_start : at,
      outcome_reason: null,
      updated_at: at,
    });
    recordMockActivity('schedule.restore', user, { type: 'job', id, label: job.name });
    return HttpResponse.json<Body<typeof restoreResponseSchema>>({
      success: true,
      message: `Job ${id} restored`,
      data: job,
    });
  }),
];
