import { fridayStatusOfJob, type FridayRow } from '../../../contract/fridays';
import type { Recording } from '../../../contract/instances';
import { alarmKeys } from './alarm-keys';
import { windowSeconds } from './outcome';
import { DEFAULT_DURATION_SECONDS } from './policy';
import type { FridayPlanner, RecordingLauncher } from './ports';
import type { JobRow, SchedulerRepository } from './repository';
import { localDateText as localDate } from '../../geo/timezone';

export type LinkedAlarms = (links: {
  jobIds: string[];
  instanceIds: string[];
  openKeys: string[];
}) => Promise<{ id: string; job_id: string | null; instance_id: string | null; cause_key: string }[]>;

/** The stored recordings of these ids (their gaps and who stopped them). */
export type RecordingsByIds = (ids: string[]) => Promise<Pick<Recording, 'id' | 'gaps' | 'stopped_by'>[]>;

export interface LedgerDeps {
  repository: SchedulerRepository;
  planner: FridayPlanner;
  launcher: RecordingLauncher;
  linkedAlarms?: LinkedAlarms;
  recordingsByIds?: RecordingsByIds;
}

/**
 * One row per active mosque for one Friday (mosque-local date): its job's state and outcome, or why
 * it has none (cannot be scheduled, not scheduled yet, or never scheduled for a Friday now past).
 */
export async function buildLedger(deps: LedgerDeps, friday: string, now: Date): Promise<FridayRow[]> {
  const [mosques, jobs, planned] = await Promise.all([
    deps.planner.activeMosques(),
    deps.repository.forFriday(friday),
    deps.planner
      .planFriday(now, null)
      .catch((error: unknown) => ({ error: error instanceof Error ? error.message : String(error) })),
  ]);
  const jobOf = new Map(jobs.map((job) => [job.mosque_id, job]));
  const plans = 'error' in planned ? new Map() : new Map(planned.plans.map((plan) => [plan.mosqueId, plan]));
  const skips = 'error' in planned ? new Map() : new Map(planned.skipped.map((skip) => [skip.mosqueId, skip.reason]));
  const active = new Set(mosques.map((m) => m.id));
  const listed = jobs.filter((job) => job.mosque_id !== null && active.has(job.mosque_id));
  const alarms = deps.linkedAlarms
    ? await deps.linkedAlarms({
        jobIds: listed.map((job) => job.id),
        instanceIds: listed.flatMap((job) => (job.instance_id ? [job.instance_id] : [])),
        openKeys: mosques.map((m) => alarmKeys.unschedulable(m.id)),
      })
    : [];
  const recordingIds = listed.flatMap((job) => (job.recording_id ? [job.recording_id] : []));
  const recordings = new Map(
    (deps.recordingsByIds ? await deps.recordingsByIds(recordingIds) : []).map((recording) => [
      recording.id,
      recording,
    ]),
  );

  const rows: FridayRow[] = [];
  for (const mosque of [...mosques].sort((a, b) => a.name.localeCompare(b.name) || a.id.localeCompare(b.id))) {
    const job = jobOf.get(mosque.id);
    const alarmIds = alarms
      .filter(
        (a) =>
          (job && (a.job_id === job.id || (job.instance_id && a.instance_id === job.instance_id))) ||
          a.cause_key === alarmKeys.unschedulable(mosque.id),
      )
      .map((a) => a.id);
    const base = { mosque_id: mosque.id, mosque_name: mosque.name, friday, alarm_ids: alarmIds };
    if (job) {
      const recording = job.recording_id ? recordings.get(job.recording_id) : undefined;
      rows.push({
        ...base,
        ...(await jobColumns(deps, job)),
        gaps: recording?.gaps ?? [],
        stopped_by: recording?.stopped_by ?? null,
      });
      continue;
    }
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
    const plan = plans.get(mosque.id);
    if (!plan) {
      const reason =
        'error' in planned
          ? `Prayer times are unavailable: ${planned.error}`
          : (skips.get(mosque.id) ?? 'The mosque could not be planned');
      rows.push({ ...base, ...empty, status: 'unschedulable', reason });
      continue;
    }
    const planDate = localDate(plan.prayerAt, plan.timezone);
    if (planDate > friday) {
      rows.push({ ...base, ...empty, status: 'missed', reason: 'No recording was scheduled for this Friday' });
    } else if (planDate === friday) {
      const start = plan.recordingStart.toISOString();
      const end = new Date(plan.recordingStart.getTime() + DEFAULT_DURATION_SECONDS * 1000).toISOString();
      rows.push({
        ...base,
        ...empty,
        recording_start: start,
        window_end: end,
        expected_seconds: DEFAULT_DURATION_SECONDS,
        status: 'scheduled',
        reason: 'Not scheduled yet: run Schedule Friday Recordings or start the scheduler',
      });
    } else {
      rows.push({
        ...base,
        ...empty,
        status: 'scheduled',
        reason: 'Will be scheduled when this Friday is the coming one',
      });
    }
  }
  return rows;
}

async function jobColumns(deps: LedgerDeps, job: JobRow) {
  const status = fridayStatusOfJob(job.status);
  let covered = job.covered_seconds === null ? null : Number(job.covered_seconds);
  if (status === 'recording' && job.instance_id)
    covered = (await deps.launcher.recordingOf(job.instance_id))?.coveredSeconds ?? 0;
  const pendingNote = status === 'scheduled' && job.attempts > 0 ? job.last_error : null;
  const lateNote = status === 'recording' && job.late ? 'Launched late' : null;
  const cancelNote = status === 'cancelled' ? `Cancelled by ${job.cancelled_by ?? 'the scheduler'}` : null;
  return {
    recording_start: job.recording_start,
    window_end: job.recording_end,
    status,
    expected_seconds: job.expected_seconds === null ? windowSeconds(job) : Number(job.expected_seconds),
    covered_seconds: covered,
    reason: job.outcome_reason ?? cancelNote ?? pendingNote ?? lateNote,
    job_id: job.id,
    recording_ids: job.recording_id ? [job.recording_id] : [],
  };
}
