import { alarmKeys } from './alarm-keys';
import { judgeOutcome, SETTLE_GRACE_MS } from './outcome';
import type { RecordingLauncher, SchedulerAlarms } from './ports';
import type { SchedulerRepository } from './repository';
import type { RunnerLog } from './runner';

export interface SettlementDeps {
  repository: SchedulerRepository;
  launcher: RecordingLauncher;
  alarms: SchedulerAlarms;
  log: RunnerLog;
}

/**
 * Launched jobs whose window has ended get their outcome from their recording's media: captured,
 * partial or failed, with covered and expected seconds and the reason. A recorder still joining its
 * file is waited for (SETTLE_GRACE_MS at most); one whose server is dead and not yet taken over, for
 * as long as that lasts (it is never judged from the last reading before the death).
 */
export async function settleEndedRecordings(deps: SettlementDeps, now: Date): Promise<void> {
  const nowIso = now.toISOString();
  for (const job of await deps.repository.listLaunchedEnded(nowIso)) {
    const facts = job.instance_id ? await deps.launcher.recordingOf(job.instance_id) : null;
    const ended = Date.parse(job.recording_end ?? nowIso);
    if (facts?.inProgress && now.getTime() < ended + SETTLE_GRACE_MS) continue;
    // Its server died and nobody follows its recorder yet (a server on its host adopts it): what the
    // row says is the last reading before the death, not what was recorded. Judged once followed again.
    if (facts?.unattended) {
      deps.log.warn(
        { jobId: job.id, instanceId: job.instance_id },
        "outcome waits: the recording's server is down and nobody has taken it over",
      );
      continue;
    }
    const outcome = judgeOutcome(job, facts);
    const settled = await deps.repository.settleOutcome(job.id, {
      ...outcomeColumns(outcome),
      recording_id: facts?.recordingId ?? job.recording_id,
      next_run_time: null,
      updated_at: nowIso,
    });
    if (!settled) continue;
    deps.log.info(
      { jobId: job.id, status: outcome.status, covered: outcome.coveredSeconds, expected: outcome.expectedSeconds },
      'recording outcome',
    );
    // A recording's own alarms (failed, partial, stalls) come from the recorder; a job with no recording at all has none.
    if (!facts) {
      await deps.alarms.raise({
        kind: 'capture_failed',
        key: alarmKeys.noRecording(job.id),
        message: `${job.mosque_name ?? job.mosque_id ?? job.id}: ${outcome.reason ?? 'nothing was captured'}`,
        mosqueId: job.mosque_id,
        mosqueName: job.mosque_name,
        jobId: job.id,
        instanceId: job.instance_id,
      });
    }
  }
}

/**
 * A settled job whose recording's outcome changed afterwards (its recorder's result reached the store
 * late, the server joined every run's pieces) is judged again from that recording, so the Friday
 * ledger and the library tell the same outcome.
 */
/** A judged outcome as the job row stores it. */
function outcomeColumns(outcome: ReturnType<typeof judgeOutcome>) {
  return {
    status: outcome.status,
    covered_seconds: outcome.coveredSeconds,
    expected_seconds: outcome.expectedSeconds,
    outcome_reason: outcome.reason,
  };
}

export async function reviseSettledOutcome(
  deps: Pick<SettlementDeps, 'repository' | 'launcher' | 'log'>,
  instanceId: string,
  now: Date,
): Promise<void> {
  const job = await deps.repository.findSettledByInstance(instanceId);
  const facts = job ? await deps.launcher.recordingOf(instanceId) : null;
  if (!job || !facts || facts.inProgress) return;
  const outcome = judgeOutcome(job, facts);
  const revised = await deps.repository.reviseOutcome(job.id, {
    ...outcomeColumns(outcome),
    updated_at: now.toISOString(),
  });
  if (revised && outcome.status !== job.status)
    deps.log.info({ jobId: job.id, was: job.status, status: outcome.status }, 'recording outcome revised');
}
