import type { Updateable } from 'kysely';
import { RECORDING_JOB_FUNC, type SkippedMosque } from '../../../contract/scheduler';
import type { SchedulerJobsTable } from '../../db/schema';
import { DEFAULT_DURATION_SECONDS, DEFAULT_HEIGHT, DEFAULT_WIDTH } from './policy';
import type { FridayPlan } from './ports';
import type { NewJobRow, PlannedJobRow } from './repository';
import { localDateText as localDate } from '../../geo/timezone';

/** `date[2026-11-27T11:09:00Z]`: the one-off trigger of a recording job. */
export function dateTrigger(instant: string): string {
  return `date[${instant.replace(/\.000Z$/, 'Z')}]`;
}

/** Readable and deterministic: one job per mosque per Friday, whoever creates it. */
export function recordingJobId(mosqueId: string, fridayDate: string): string {
  return `friday-${mosqueId}-${fridayDate}`;
}

interface PlannedTimes {
  mosque_name: string;
  url: string;
  timezone: string;
  prayer_time: string;
  recording_start: string;
  recording_end: string;
  next_run_time: string;
  trigger: string;
  name: string;
}

function timesOf(plan: FridayPlan): PlannedTimes {
  const start = plan.recordingStart.toISOString();
  return {
    mosque_name: plan.mosqueName,
    url: plan.url,
    timezone: plan.timezone,
    prayer_time: plan.prayerAt.toISOString(),
    recording_start: start,
    recording_end: new Date(plan.recordingStart.getTime() + DEFAULT_DURATION_SECONDS * 1000).toISOString(),
    next_run_time: start,
    trigger: dateTrigger(start),
    name: `Friday recording: ${plan.mosqueName}`,
  };
}

export interface SchedulePlan {
  inserts: NewJobRow[];
  updates: { id: string; values: Updateable<SchedulerJobsTable> }[];
  /** Jobs the system cancelled (the mosque was inactive or gone) whose mosque is planned again. */
  revivals: { id: string; values: Updateable<SchedulerJobsTable> }[];
  unchanged: number;
  kept: number;
  skipped: SkippedMosque[];
  fridayDates: string[];
}

/**
 * Decides what scheduling the coming Friday changes: a new job for each planned mosque without one,
 * or whose job the system cancelled while the mosque was inactive or deleted (an operator's cancel
 * stands); with forceRefresh, new times for jobs not yet attempted; every other job is kept as it is.
 */
export function planSchedule(
  plans: FridayPlan[],
  existing: PlannedJobRow[],
  now: Date,
  forceRefresh: boolean,
): SchedulePlan {
  const nowIso = now.toISOString();
  const byKey = new Map(existing.map((row) => [`${row.mosque_id}|${row.friday_date}`, row]));
  const result: SchedulePlan = {
    inserts: [],
    updates: [],
    revivals: [],
    unchanged: 0,
    kept: 0,
    skipped: [],
    fridayDates: [],
  };
  const dates = new Set<string>();

  for (const plan of plans) {
    const times = timesOf(plan);
    if (times.recording_end <= nowIso) {
      result.skipped.push({
        mosque_id: plan.mosqueId,
        mosque_name: plan.mosqueName,
        reason: 'Recording window of the coming Friday has already ended',
      });
      continue;
    }
    const fridayDate = localDate(plan.prayerAt, plan.timezone);
    dates.add(fridayDate);
    const row = byKey.get(`${plan.mosqueId}|${fridayDate}`);
    if (!row) {
      result.inserts.push({
        id: recordingJobId(plan.mosqueId, fridayDate),
        kind: 'recording',
        func: RECORDING_JOB_FUNC,
        status: 'scheduled',
        mosque_id: plan.mosqueId,
        friday_date: fridayDate,
        duration: DEFAULT_DURATION_SECONDS,
        width: DEFAULT_WIDTH,
        height: DEFAULT_HEIGHT,
        attempts: 0,
        last_error: null,
        late: 0,
        instance_id: null,
        claimed_by: null,
        claimed_at: null,
        launched_at: null,
        created_at: nowIso,
        updated_at: nowIso,
        ...times,
      });
    } else if (row.status === 'cancelled' && row.cancelled_by === null) {
      result.revivals.push({ id: row.id, values: { ...times, updated_at: nowIso } });
    } else if (row.status !== 'scheduled' || row.attempts > 0) {
      result.kept++;
    } else if (forceRefresh && differs(row, times)) {
      result.updates.push({ id: row.id, values: { ...times, updated_at: nowIso } });
    } else {
      result.unchanged++;
    }
  }
  result.fridayDates = [...dates].sort();
  return result;
}

function differs(row: PlannedJobRow, times: PlannedTimes): boolean {
  return (Object.keys(times) as (keyof PlannedTimes)[]).some((key) => row[key] !== times[key]);
}
