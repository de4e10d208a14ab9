import type { Alarm } from '../../contract/alarms';
import type { FridayRow } from '../../contract/fridays';
import type { App } from '../../server/app';
import type { SimulatedCaptureProvider } from './provider';
import { coveredMs } from './recorder-model';
import type { SeasonOptions } from './season';

/*
 * The season's figures, from what the server says: each sermon's status from the Friday ledger
 * (GET /api/scheduler/fridays, one row per active mosque and Friday), alarms from the alarms service.
 * The fleet's media are used only to check the server's judgement (a sermon called captured that
 * the media do not cover).
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
  /** Alarm notifications sent (a grouped message once), and per sermon not captured in full. */
  notifications?: number;
  notifications_per_failing_friday?: number;
}

export interface SeasonTally {
  summary: SeasonSummary;
  /** Every ledger status, counted. */
  statuses: Record<string, number>;
  /** Alarms raised, by kind. */
  alarmKinds: Record<string, number>;
  /** Sermons whose media (all their recorders together) cover 99% of the window: what a perfect judge would call captured. */
  mediaCaptured: number;
  /** Sermons the server called captured whose media cover less than 99% of the window. */
  overstated: number;
  /** Sermons not captured in full, counted by the faults the season injected into them. */
  notCapturedBy: Record<string, number>;
  /** A few sermons not captured that raised no alarm, to look into. */
  silentExamples: string[];
}

const DAY_MS = 86_400_000;
const CAPTURED_SHARE = 0.99;
/** An alarm naming the mosque but no job counts for the Friday it was raised around. */
const ALARM_MATCH_SLACK_MS = 12 * 3600_000;

export async function tallySeason(
  app: App,
  fleet: SimulatedCaptureProvider,
  options: SeasonOptions,
  seasonStart: number,
): Promise<SeasonTally> {
  const alarms = indexAlarms(await app.ctx.alarms.list('all', 10_000_000));
  const statuses: Record<string, number> = {};
  const summary: SeasonSummary = {
    sermons: 0,
    captured: 0,
    partial: 0,
    failed: 0,
    missed: 0,
    alarmed: 0,
    silent: 0,
    captured_pct: 0,
  };
  let overstated = 0;
  let mediaCaptured = 0;
  const silentExamples: string[] = [];
  const notCapturedBy: Record<string, number> = {};
  for (let week = 0; week < options.fridays; week++) {
    const friday = new Date(seasonStart + (week * 7 + 4) * DAY_MS).toISOString().slice(0, 10);
    const { fridays } = await app.ctx.scheduler.fridays(friday);
    for (const row of fridays) {
      statuses[row.status] = (statuses[row.status] ?? 0) + 1;
      summary.sermons++;
      const covered = mediaCovers(fleet, row);
      if (covered) mediaCaptured++;
      if (row.status === 'captured') {
        summary.captured++;
        if (!covered) overstated++;
        continue;
      }
      if (row.status === 'partial' || row.status === 'failed' || row.status === 'missed') summary[row.status]++;
      const cause = injectedFaults(fleet, row);
      notCapturedBy[cause] = (notCapturedBy[cause] ?? 0) + 1;
      if (row.alarm_ids.length > 0 || hasAlarm(alarms, row, Date.parse(`${friday}T12:00:00Z`))) summary.alarmed++;
      else {
        summary.silent++;
        if (silentExamples.length < 5)
          silentExamples.push(`${row.mosque_id} ${friday}: ${row.status} (${row.reason ?? 'no reason given'})`);
      }
    }
  }
  summary.captured_pct = summary.sermons === 0 ? 0 : Math.floor((summary.captured / summary.sermons) * 100_000) / 1000;
  const alarmKinds: Record<string, number> = {};
  for (const alarm of alarms.all) alarmKinds[alarm.kind] = (alarmKinds[alarm.kind] ?? 0) + 1;
  return { summary, statuses, alarmKinds, mediaCaptured, overstated, notCapturedBy, silentExamples };
}

function mediaCovers(fleet: SimulatedCaptureProvider, row: FridayRow): boolean {
  const sermon = row.job_id ? fleet.sermons.get(row.job_id) : undefined;
  if (!sermon || !row.recording_start || !row.window_end) return false;
  const start = Date.parse(row.recording_start);
  const end = Date.parse(row.window_end);
  return (
    coveredMs(
      sermon.instances.flatMap((i) => i.spans),
      start,
      end,
    ) >=
    (end - start) * CAPTURED_SHARE
  );
}

/** The faults a sermon was given that can cost it its window, e.g. `crash+late stream`. */
function injectedFaults(fleet: SimulatedCaptureProvider, row: FridayRow): string {
  const sermon = row.job_id ? fleet.sermons.get(row.job_id) : undefined;
  if (!sermon) return 'never launched';
  const { faults, windowStart } = sermon;
  const causes: string[] = [];
  if (faults.neverLive) causes.push('stream never came');
  else if (faults.lateMs > 0) causes.push('stream late on the window');
  if (faults.crashesAt.length > 0) causes.push('recorder crash');
  if (faults.outages.some((o) => o.kind === 'stall' && o.end - o.start >= 60_000)) causes.push('stall over 60 s');
  if (faults.outages.some((o) => o.kind === 'blip')) causes.push('drops');
  if (faults.launchFailures > 0) causes.push('launch errors');
  const first = sermon.instances[0];
  if (first && first.launchedAt - windowStart > 30_000) causes.push('launched over 30 s late');
  return causes.join('+') || 'none injected';
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
function hasAlarm(alarms: AlarmIndex, row: FridayRow, around: number): boolean {
  if (row.job_id && alarms.byJob.has(row.job_id)) return true;
  return (alarms.byMosque.get(row.mosque_id) ?? []).some((alarm) => {
    if (alarm.job_id !== null && alarm.job_id !== row.job_id) return false;
    const at = row.recording_start ? Date.parse(row.recording_start) : around;
    return Math.abs(Date.parse(alarm.raised_at) - at) <= ALARM_MATCH_SLACK_MS;
  });
}
