import type { Updateable } from 'kysely';
import { fridayJobId, ONE_OFF_JOB_FUNC, RECORDING_JOB_FUNC, type SkippedMosque } from '../../../contract/scheduler';
import type { SchedulerJobsTable } from '../../db/schema';
import { DEFAULT_DURATION_SECONDS, DEFAULT_HEIGHT, DEFAULT_WIDTH } from './policy';
import type { FridayPlan } from './ports';
import type { NewJobRow, PlannedJobRow } from './repository';
import { localDateText as localDate } from '../../geo/timezone';

/** `date[2026-11-27T11:09:00Z]`: the one-off trigger of a recording job. */
export function dateTrigger(instant: string): string {
  return `date[${instant.replace(/\.000Z$/, 'Z')}]`;
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

/** When a recording whose window opens at `start` is launched: the lead time before it. */
const launchTime = (start: string, leadMs: number) => new Date(Date.parse(start) - leadMs).toISOString();

/** A recording's times; its launch comes `leadMs` before its window (the driver's lead time). */
function timesOf(plan: FridayPlan, leadMs: number): PlannedTimes {
  const start = plan.recordingStart.toISOString();
  return {
    mosque_name: plan.mosqueName,
    url: plan.url,
    timezone: plan.timezone,
    prayer_time: plan.prayerAt.toISOString(),
    recording_start: start,
    recording_end: new Date(plan.recordingStart.getTime() + DEFAULT_DURATION_SECONDS * 1000).toISOString(),
    next_run_time: launchTime(start, leadMs),
    trigger: dateTrigger(start),
    name: `Friday recording: ${plan.mosqueName}`,
  };
}

/** What a one-off recording records: a launch config whose window opens at `start_at`. */
export interface OneOffRecording {
  url: string;
  duration: number;
  width: number;
  height: number;
  mosque_id: string | null;
  start_at: string;
}

/**
 * The job of a recording at a chosen time (an Eid prayer, a launch with start_at): no Friday of its
 * own, launched `leadMs` before its window like a Friday's, and settled the same way.
 */
export function oneOffJob(id: string, recording: OneOffRecording, now: Date, leadMs: number): NewJobRow {
  const start = new Date(recording.start_at);
  const nowIso = now.toISOString();
  return {
    id,
    kind: 'recording',
    func: ONE_OFF_JOB_FUNC,
    status: 'scheduled',
    name: `One-off recording: ${recording.mosque_id ?? new URL(recording.url).host}`,
    trigger: dateTrigger(start.toISOString()),
    next_run_time: launchTime(start.toISOString(), leadMs),
    mosque_id: recording.mosque_id,
    mosque_name: null,
    friday_date: null,
    // No prayer of its own: lists that show a recording's prayer time show when it starts.
    prayer_time: start.toISOString(),
    timezone: 'UTC',
    recording_start: start.toISOString(),
    recording_end: new Date(start.getTime() + recording.duration * 1000).toISOString(),
    url: recording.url,
    duration: recording.duration,
    width: recording.width,
    height: recording.height,
    attempts: 0,
    last_error: null,
    late: 0,
    instance_id: null,
    claimed_by: null,
    claimed_at: null,
    launched_at: null,
    created_at: nowIso,
    updated_at: nowIso,
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
 * stands); with forceRefresh, new times for jobs not yet attempted, else only their launch time when
 * the lead time changed; every other job is kept as it is. Each launch comes `leadMs` before its window.
 */
export function planSchedule(
  plans: FridayPlan[],
  existing: PlannedJobRow[],
  now: Date,
  forceRefresh: boolean,
  leadMs = 0,
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
    const times = timesOf(plan, leadMs);
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
        // Readable and deterministic: one job per mosque per Friday, whoever creates it.
        id: fridayJobId(plan.mosqueId, fridayDate),
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
    } else if (row.recording_start && row.next_run_time !== launchTime(row.recording_start, leadMs)) {
      // Planned under another lead time (CAPTURE_LEAD_SECONDS changed): its window stays, its launch moves.
      result.updates.push({
        id: row.id,
        values: { next_run_time: launchTime(row.recording_start, leadMs), updated_at: nowIso },
      });
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
