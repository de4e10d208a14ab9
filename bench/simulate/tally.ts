import type { Alarm } from '../../contract/alarms';
import type { App } from '../../server/app';
import type { SimulatedCaptureProvider } from './provider';
import { coveredMs } from './recorder-model';
import { mosqueId, type SeasonOptions } from './season';

/*
 * The season's figures, from what the server says: each sermon's status from the Friday ledger (or
 * its job where the ledger has no row), alarms from the alarms service. The fleet's media are used
 * only to check the server's judgement (a sermon called captured that the media do not cover).
 */

export interface SeasonSummary {
  sermons: number;
  captured: number;
  partial: number;
  failed: number;
  missed: number;
  alarmed: number;
  silent: number;
  captured_pct: number;
}

export interface SeasonTally {
  summary: SeasonSummary;
  /** Every status the server gave, counted. */
  statuses: Record<string, number>;
  /** Alarms raised, by kind. */
  alarmKinds: Record<string, number>;
  /** Sermons the server called captured whose media cover less than 99% of the window. */
  overstated: number;
  /** Sermons whose media (all their recorders together) cover 99% of the window: what a perfect judge would call captured. */
  mediaCaptured: number;
  /** A few sermons not captured that raised no alarm, to look into. */
  silentExamples: string[];
}

interface JobView {
  id: string;
  mosque_id: string | null;
  status: string;
  recording_start: string | null;
  recording_end: string | null;
  last_error: string | null;
}

const WEEK_MS = 7 * 86_400_000;
const CAPTURED_SHARE = 0.99;
/** An alarm about a mosque (not naming a job) counts for the Friday it was raised around. */
const ALARM_MATCH_SLACK_MS = 12 * 3600_000;

export async function tallySeason(app: App, fleet: SimulatedCaptureProvider, options: SeasonOptions, seasonStart: number): Promise<SeasonTally> {
  const jobs = (await app.ctx.db.kysely
    .selectFrom('scheduler_jobs')
    .select(['id', 'mosque_id', 'status', 'recording_start', 'recording_end', 'last_error'])
    .where('kind', '=', 'recording')
    .execute()) as JobView[];
  const alarms = indexAlarms(await app.ctx.alarms.list('all', 10_000_000));
  const bySermon = new Map<string, JobView[]>();
  for (const job of jobs) {
    if (!job.mosque_id || !job.recording_start) continue;
    const key = `${job.mosque_id}#${Math.floor((Date.parse(job.recording_start) - seasonStart) / WEEK_MS)}`;
    bySermon.set(key, [...(bySermon.get(key) ?? []), job]);
  }

  const statuses: Record<string, number> = {};
  const summary: SeasonSummary = { sermons: 0, captured: 0, partial: 0, failed: 0, missed: 0, alarmed: 0, silent: 0, captured_pct: 0 };
  let overstated = 0;
  let mediaCaptured = 0;
  const silentExamples: string[] = [];
  for (let week = 0; week < options.fridays; week++) {
    for (let i = 0; i < options.mosques; i++) {
      const mosque = mosqueId(i);
      const candidates = bySermon.get(`${mosque}#${week}`) ?? [];
      // A cancelled duplicate never stands for the Friday when another job of it ran.
      const job = candidates.find((j) => j.status !== 'cancelled') ?? candidates[0];
      const status = outcomeOf(job);
      const covered = job !== undefined && mediaCovers(fleet, job);
      if (covered) mediaCaptured++;
      statuses[status] = (statuses[status] ?? 0) + 1;
      summary.sermons++;
      if (status === 'captured') {
        summary.captured++;
        if (!covered) overstated++;
        continue;
      }
      if (status === 'partial' || status === 'failed' || status === 'missed') summary[status]++;
      if (hasAlarm(alarms, mosque, job, seasonStart + week * WEEK_MS)) summary.alarmed++;
      else {
        summary.silent++;
        if (silentExamples.length < 5) silentExamples.push(`${mosque} week ${week + 1}: ${status}${job ? ` (job ${job.id}: ${job.last_error ?? 'no error noted'})` : ' (no job)'}`);
      }
    }
  }
  summary.captured_pct = summary.sermons === 0 ? 0 : Math.floor((summary.captured / summary.sermons) * 100_000) / 1000;
  const alarmKinds: Record<string, number> = {};
  for (const alarm of alarms.all) alarmKinds[alarm.kind] = (alarmKinds[alarm.kind] ?? 0) + 1;
  return { summary, statuses, alarmKinds, overstated, mediaCaptured, silentExamples };
}

/** The server's word on one sermon: its job's status, read as the ledger reads it; no job at all is a Friday missed. */
function outcomeOf(job: JobView | undefined): string {
  if (!job) return 'no job';
  return job.status;
}

function mediaCovers(fleet: SimulatedCaptureProvider, job: JobView): boolean {
  const sermon = fleet.sermons.get(job.id);
  if (!sermon || !job.recording_start || !job.recording_end) return false;
  const start = Date.parse(job.recording_start);
  const end = Date.parse(job.recording_end);
  const spans = sermon.instances.flatMap((i) => i.spans);
  return coveredMs(spans, start, end) >= (end - start) * CAPTURED_SHARE;
}

interface AlarmIndex {
  all: Alarm[];
  byJob: Map<string, Alarm[]>;
  byMosque: Map<string, Alarm[]>;
}

function indexAlarms(all: Alarm[]): AlarmIndex {
  const byJob = new Map<string, Alarm[]>();
  const byMosque = new Map<string, Alarm[]>();
  for (const alarm of all) {
    if (alarm.job_id) byJob.set(alarm.job_id, [...(byJob.get(alarm.job_id) ?? []), alarm]);
    if (alarm.mosque_id) byMosque.set(alarm.mosque_id, [...(byMosque.get(alarm.mosque_id) ?? []), alarm]);
  }
  return { all, byJob, byMosque };
}

/** An alarm naming the sermon's job, or naming its mosque (and no other job) around its Friday. */
function hasAlarm(alarms: AlarmIndex, mosque: string, job: JobView | undefined, weekStart: number): boolean {
  if (job && alarms.byJob.has(job.id)) return true;
  return (alarms.byMosque.get(mosque) ?? []).some((alarm) => {
    if (alarm.job_id !== null && job && alarm.job_id !== job.id) return false;
    const raised = Date.parse(alarm.raised_at);
    const around = job?.recording_start ? Date.parse(job.recording_start) : weekStart + 4 * 86_400_000;
    return Math.abs(raised - around) <= ALARM_MATCH_SLACK_MS;
  });
}
