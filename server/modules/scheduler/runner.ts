import { countOf } from '../../../contract/plural';
import type { ServerMessage } from '../../../contract/live';
import type { Clock } from '../../lib/clock';
import {
  LATE_AFTER_MS,
  LAUNCH_CONCURRENCY,
  LAUNCH_TIMEOUT_MS,
  MAX_LAUNCH_ATTEMPTS,
  POLL_INTERVAL_MS,
  retryDelayMs,
  STALE_CLAIM_MS,
} from './policy';
import { alarmKeys } from './alarm-keys';
import { isDeadHereClaimant, newClaimantId } from './claimant';
import type { RecordingLauncher, SchedulerAlarms, SchedulerTimer } from './ports';
import type { JobRow, SchedulerRepository } from './repository';
import { settleEndedRecordings } from './settlement';
import { withTimeout } from './timeout';

export interface RunnerLog {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

export interface RunnerDeps {
  repository: SchedulerRepository;
  launcher: RecordingLauncher;
  clock: Clock;
  timer: SchedulerTimer;
  publish(message: ServerMessage): void;
  log: RunnerLog;
  alarms: SchedulerAlarms;
  /** Runs the recurring job when it is due (the service schedules the coming Friday). */
  runRecurring(now: Date): Promise<void>;
  /** Pre-flight checks of the recordings starting soon. */
  preflight(now: Date): Promise<void>;
  /** This server's claimant id (also its row in the servers table); default a new one. */
  claimant?: string;
  /** Whether a claimant is a server known to be dead (the servers table); without it only the rules below apply. */
  claimantIsDead?: (claimant: string) => Promise<boolean>;
}

const errorText = (error: unknown) => (error instanceof Error ? error.message : String(error)).slice(0, 1000);

/**
 * The firing loop. One pass (`tick`) recovers dead claims, settles ended recordings by their media,
 * runs the recurring job and the pre-flight checks, marks missed what can no longer be recorded, and
 * claims and launches due jobs.
 * Then the timer is armed for the next due time (at most POLL_INTERVAL_MS away).
 */
export class SchedulerRunner {
  readonly claimant: string;
  private readonly claimantIsDead: (claimant: string) => Promise<boolean>;
  private readonly inflight = new Map<string, Promise<void>>();
  private current: Promise<void> | undefined;
  private again = false;
  private closed = false;
  /** When the armed timer fires (ms since epoch); arming only ever moves it earlier until it fires. */
  private armedFor: number | undefined;
  /** Due jobs are waiting for a launch slot: the end of a launch wakes us, not the (past) due time. */
  private saturated = false;

  constructor(private readonly deps: RunnerDeps) {
    this.claimant = deps.claimant ?? newClaimantId();
    this.claimantIsDead = deps.claimantIsDead ?? (async () => false);
  }

  /** One pass now; concurrent calls coalesce into one more pass. Resolves when claimed launches have started. */
  tick(): Promise<void> {
    if (this.closed) return Promise.resolve();
    if (this.current) {
      this.again = true;
      return this.current;
    }
    this.current = (async () => {
      this.armedFor = undefined;
      try {
        do {
          this.again = false;
          await this.pass();
        } while (this.again && !this.closed);
      } catch (error) {
        this.deps.log.error({ err: error }, 'scheduler pass failed');
      } finally {
        this.current = undefined;
      }
      await this.arm();
    })();
    return this.current;
  }

  /** Re-arms the timer for the next due job; called on every change. */
  async arm(): Promise<void> {
    if (this.closed) return;
    try {
      const { repository, clock, timer } = this.deps;
      if (!(await repository.isRunning(clock.now().toISOString()))) {
        this.armedFor = undefined;
        timer.disarm();
        return;
      }
      const next = await repository.nextScheduled();
      const due = next?.next_run_time
        ? new Date(next.next_run_time).getTime() - clock.now().getTime()
        : POLL_INTERVAL_MS;
      this.armIn(due <= 0 && this.saturated ? POLL_INTERVAL_MS : due);
    } catch (error) {
      this.deps.log.error({ err: error }, 'scheduler could not arm its timer');
      this.armIn(POLL_INTERVAL_MS);
    }
  }

  /** Wakes up in `ms` (capped), unless a wake-up is already due sooner: an early pass is harmless, a late one is not. */
  private armIn(ms: number): void {
    if (this.closed) return;
    const delay = Math.min(Math.max(0, ms), POLL_INTERVAL_MS);
    const at = this.deps.clock.now().getTime() + delay;
    if (this.armedFor !== undefined && this.armedFor <= at) return;
    this.armedFor = at;
    this.deps.timer.arm(delay, () => {
      this.armedFor = undefined;
      void this.tick();
    });
  }

  /** Waits for every launch this process has started. */
  async idle(): Promise<void> {
    while (this.current || this.inflight.size > 0) {
      await Promise.all([this.current, ...this.inflight.values()]);
    }
  }

  /** Stops waking up (the scheduler was stopped); a later arm() starts again. */
  disarm(): void {
    this.armedFor = undefined;
    this.deps.timer.disarm();
  }

  async close(): Promise<void> {
    this.closed = true;
    this.disarm();
    await Promise.allSettled([this.current, ...this.inflight.values()]);
  }

  private async pass(): Promise<void> {
    const { repository, clock } = this.deps;
    const now = clock.now();
    const nowIso = now.toISOString();
    if (!(await repository.isRunning(nowIso))) return;
    await this.recoverDeadClaims(now);
    await settleEndedRecordings(this.deps, now);
    await this.deps.runRecurring(now);
    await this.deps.preflight(now);

    const slots = LAUNCH_CONCURRENCY - this.inflight.size;
    const due = await repository.findDue(nowIso, Math.max(slots, 0) + 50);
    let started = 0;
    this.saturated = false;
    for (const job of due) {
      if (job.recording_end !== null && job.recording_end <= nowIso) {
        await this.markMissed(job, nowIso);
      } else if (started >= slots) {
        this.saturated = true;
      } else if (job.next_run_time) {
        const late =
          job.attempts === 0 &&
          job.recording_start !== null &&
          now.getTime() - new Date(job.recording_start).getTime() > LATE_AFTER_MS;
        if (await repository.claim(job.id, job.next_run_time, this.claimant, nowIso, late)) {
          started++;
          this.startLaunch({ ...job, attempts: job.attempts + 1, late: late ? 1 : job.late });
        }
      }
    }
    // More due than slots: look again as soon as a launch finishes (the timer is armed at 0 then).
  }

  private async markMissed(job: JobRow, nowIso: string): Promise<void> {
    // Missed only with no recorder: one may have been launched under a claim taken over since.
    const launched = await this.deps.launcher.launchedFor(job.id);
    if (launched) {
      await this.keepLaunch(job, launched.instanceId, launched.recordingId, nowIso);
      return;
    }
    const note =
      job.attempts > 0
        ? `${job.last_error ?? 'Launch failed'}; recording window ended`
        : 'Recording window ended before the scheduler could launch it';
    if (!(await this.deps.repository.finishScheduled(job.id, 'missed', nowIso, note))) return;
    this.deps.log.warn({ jobId: job.id, mosqueId: job.mosque_id }, 'recording missed');
    this.publishOutcome('launch_error', job, null, `Missed ${job.name}: ${note}`);
    await this.deps.alarms.raise({
      kind: 'missed',
      key: alarmKeys.missed(job.id),
      message: `${job.mosque_name ?? job.mosque_id}: the Friday recording was never launched (${note})`,
      mosqueId: job.mosque_id,
      mosqueName: job.mosque_name,
      jobId: job.id,
    });
  }

  private startLaunch(job: JobRow): void {
    const promise = this.launch(job).finally(() => {
      this.inflight.delete(job.id);
      // Look again at once: a retry was scheduled, or more jobs wait for a launch slot.
      this.armIn(0);
    });
    this.inflight.set(job.id, promise);
  }

  private async launch(job: JobRow): Promise<void> {
    const { repository, launcher, clock, log } = this.deps;
    const end = new Date(job.recording_end ?? 0).getTime();
    try {
      const remaining = Math.ceil((end - clock.now().getTime()) / 1000);
      const { instanceId, recordingId } = await withTimeout(
        launcher.launch({
          jobId: job.id,
          url: job.url ?? '',
          duration: Math.max(1, Math.min(job.duration ?? remaining, remaining)),
          width: job.width ?? 1280,
          height: job.height ?? 720,
          mosqueId: job.mosque_id ?? '',
          idempotencyKey: job.id,
          windowStart: job.recording_start ?? clock.now().toISOString(),
          windowEnd: job.recording_end ?? new Date(end).toISOString(),
        }),
        LAUNCH_TIMEOUT_MS,
        `Launch did not answer within ${LAUNCH_TIMEOUT_MS / 1000} s`,
      );
      const nowIso = clock.now().toISOString();
      const kept = await repository.settleClaim(job.id, this.claimant, {
        status: 'launched',
        instance_id: instanceId,
        recording_id: recordingId,
        launched_at: nowIso,
        next_run_time: null,
        last_error: null,
        updated_at: nowIso,
      });
      if (!kept) await this.keepLaunch(job, instanceId, recordingId, nowIso);
      await this.deps.alarms.resolve(alarmKeys.launchFailed(job.id));
      log.info({ jobId: job.id, mosqueId: job.mosque_id, instanceId, late: Boolean(job.late) }, 'recording launched');
      if (!launcher.announcesOutcomes)
        this.publishOutcome('launch_complete', job, instanceId, `Launched ${job.name}${job.late ? ' (late)' : ''}`);
    } catch (error) {
      await this.launchFailed(job, errorText(error), end);
    }
  }

  private async launchFailed(job: JobRow, message: string, end: number): Promise<void> {
    const { repository, clock, log } = this.deps;
    const now = clock.now();
    const retryAt = now.getTime() + retryDelayMs(job.attempts);
    const retry = job.attempts < MAX_LAUNCH_ATTEMPTS && retryAt < end;
    const nowIso = now.toISOString();
    const note = `Attempt ${job.attempts} of ${MAX_LAUNCH_ATTEMPTS} failed: ${message}`;
    const kept = await repository.settleClaim(job.id, this.claimant, {
      status: retry ? 'scheduled' : 'failed',
      next_run_time: retry ? new Date(retryAt).toISOString() : null,
      last_error: note,
      outcome_reason: retry ? null : `The recording could not be launched: ${message}`,
      updated_at: nowIso,
    });
    if (!kept) return;
    log.warn({ jobId: job.id, attempts: job.attempts, retry, error: message }, 'recording launch failed');
    if (!retry) {
      await this.deps.alarms.raise({
        kind: 'launch_failed',
        key: alarmKeys.launchFailed(job.id),
        message: `${job.mosque_name ?? job.mosque_id}: the Friday recording could not be launched after ${countOf(job.attempts, 'attempt')}: ${message}`,
        mosqueId: job.mosque_id,
        mosqueName: job.mosque_name,
        jobId: job.id,
      });
    }
    if (retry && this.deps.launcher.announcesOutcomes) return;
    const suffix = retry ? `; retrying at ${new Date(retryAt).toISOString()}` : '; giving up';
    this.publishOutcome('launch_error', job, null, `Launch of ${job.name} failed: ${note}${suffix}`);
  }

  /** The job keeps the recorder its launch made, though its claim was taken over meanwhile. */
  private async keepLaunch(job: JobRow, instanceId: string, recordingId: string | null, nowIso: string): Promise<void> {
    const kept = await this.deps.repository.keepLaunch(job.id, {
      instance_id: instanceId,
      recording_id: recordingId,
      launched_at: nowIso,
    });
    this.deps.log.warn(
      { jobId: job.id, instanceId, kept },
      kept
        ? 'kept the recorder launched under a claim that was taken over'
        : 'launch finished after its claim was taken over; the job has its instance already',
    );
    if (kept) await this.deps.alarms.resolve(alarmKeys.missed(job.id));
  }

  /** A 'launching' claim whose process is gone (same host, pid dead) or silent too long goes back to scheduled. */
  private async recoverDeadClaims(now: Date): Promise<void> {
    const { repository } = this.deps;
    for (const job of await repository.listLaunching()) {
      if (!job.claimed_by || job.claimed_by === this.claimant) continue;
      const deadHere = isDeadHereClaimant(job.claimed_by);
      const stale = !job.claimed_at || now.getTime() - new Date(job.claimed_at).getTime() > STALE_CLAIM_MS;
      if (!deadHere && !stale && !(await this.claimantIsDead(job.claimed_by))) continue;
      const note = `Launch attempt ${job.attempts} was interrupted (scheduler process stopped); launching again`;
      if (await repository.releaseClaim(job.id, job.claimed_by, now.toISOString(), note)) {
        this.deps.log.warn({ jobId: job.id, claimedBy: job.claimed_by }, 'recovered an interrupted launch');
      }
    }
  }

  private publishOutcome(
    type: 'launch_complete' | 'launch_error',
    job: JobRow,
    instanceId: string | null,
    message: string,
  ): void {
    this.deps.publish({ type, data: { instance_id: instanceId, mosque_id: job.mosque_id, job_id: job.id, message } });
  }
}
