import crypto from 'node:crypto';
import type { ServerMessage } from '../../../contract/live';
import {
  RECURRING_JOB_FUNC,
  SCHEDULER_NOT_RUNNING_MESSAGE,
  scheduleRequestSchema,
  type Job,
  type SchedulerPrayerTime,
  type SchedulerStatus,
  type ParsedScheduleRequest,
  type ScheduleRequest,
  type ScheduleResult,
  type SkippedMosque,
  toUpcomingRecording,
  type UpcomingRecording,
  ONE_OFF_JOB_PREFIX,
} from '../../../contract/scheduler';
import type { Clock } from '../../lib/clock';
import { collectGarbage } from '../../lib/collect-garbage';
import { conflict, HttpError, notFound, serviceUnavailable } from '../../lib/http-error';
import type { ActivityActor, ActivityInput } from '../activity';
import { comingFriday, type FridayRow } from '../../../contract/fridays';
import { alarmKeys } from './alarm-keys';
import { CoalescingQueue } from './coalescing-queue';
import { buildLedger, type LinkedAlarms, type RecordingsByIds } from './ledger';
import { oneOffJob, planSchedule, type OneOffRecording, type SchedulePlan } from './planning';
import { PlanningLease } from './planning-lease';
import { nextRecurringRun, RECENT_JOBS_MS, RECURRING_JOB_ID, RECURRING_JOB_NAME, RECURRING_TRIGGER } from './policy';
import { Preflight } from './preflight';
import type {
  FridayPlan,
  FridayPlanner,
  PlanSkip,
  PreflightChecks,
  RecordingLauncher,
  SchedulerAlarms,
  SchedulerTimer,
} from './ports';
import { toJob, type SchedulerRepository } from './repository';
import { SchedulerRunner, type RunnerLog } from './runner';
import { reviseSettledOutcome } from './settlement';

export interface SchedulerDeps {
  repository: SchedulerRepository;
  planner: FridayPlanner;
  launcher: RecordingLauncher;
  clock: Clock;
  timer: SchedulerTimer;
  publish(message: ServerMessage): void;
  log: RunnerLog;
  preflight: PreflightChecks;
  /** Seconds before its window a recording is launched (the driver's lead time); default 0. */
  leadSeconds?: number;
  alarms: SchedulerAlarms;
  /** Finds the alarms of jobs and instances (the Friday ledger's alarm_ids); absent in isolated tests. */
  linkedAlarms?: LinkedAlarms;
  /** Finds recordings by id (the Friday ledger's gaps and stoppers); absent in isolated tests. */
  recordingsByIds?: RecordingsByIds;
  /** Writes the activity log (operator actions and the daily run); absent in isolated tests. */
  recordActivity?(input: ActivityInput): Promise<void>;
  /** Hands monitoring a way to count jobs by status. */
  provideJobCounts?(counts: () => Promise<Record<string, number>>): void;
  /** Subscribes to mosque changes (create, update, delete); returns the unsubscribe. */
  watchMosques?(listener: (mosqueId: string) => void): () => void;
  /** This server's claimant id, made before the scheduler (the servers table names this server by it); default a new one. */
  claimant?: string;
  /**
   * How to tell that the holder of a launch claim or of the planning lease is a server that died
   * (the servers table): its claims go back at once instead of after STALE_CLAIM_MS.
   */
  claimantIsDead?: (claimant: string) => Promise<boolean>;
}

const UNKNOWN_MOSQUE = 'Unknown or inactive mosque';

/** A one-off recording's job, and when it launches and records. */
export interface ScheduledLaunchJob {
  jobId: string;
  launchAt: string;
  windowStart: string;
  windowEnd: string;
}
/** How long one upcoming list is served: bounds how late a job written by another server shows. */
const UPCOMING_CACHE_MS = 1000;
/** Plans of at least this many mosques leave enough garbage behind to be worth a full collection. */
const FLEET_SIZED_PLAN = 1000;

/** The planner's own failure (prayer times cannot be computed) is a dependency being down: 503. */
function unavailable(error: unknown): never {
  if (error instanceof HttpError) throw error;
  throw serviceUnavailable(`Prayer times are unavailable: ${error instanceof Error ? error.message : String(error)}`);
}

/**
 * The durable scheduler: jobs and the on/off state live in the database, so a restart (or a second
 * server on the same PostgreSQL) picks up exactly where things stand.
 */
export class SchedulerService {
  readonly runner: SchedulerRunner;
  private readonly repository: SchedulerRepository;
  /** Mosque changes waiting to be planned; a burst is planned in batches. */
  private readonly changes: CoalescingQueue;
  private unwatch: (() => void) | undefined;
  private readonly upcomingCache = new Map<
    number,
    { writes: number; expires: number; list: Promise<UpcomingRecording[]> }
  >();
  /**
   * The plan in progress, if any. Plans of the whole fleet and of changed mosques run one after
   * another: both read the mosques, then write jobs, and a plan that read a mosque before it was
   * deleted must not write its job after the deletion was planned (the deleted mosque would be recorded).
   */
  private planning: Promise<unknown> = Promise.resolve();
  /** The same, across the servers sharing the database. */
  private readonly planningLease: PlanningLease;

  constructor(private readonly deps: SchedulerDeps) {
    this.repository = deps.repository;
    const preflight = new Preflight({ ...deps, checks: deps.preflight });
    this.runner = new SchedulerRunner({
      ...deps,
      runRecurring: (now) => this.runRecurringIfDue(now),
      preflight: (now) => preflight.run(now),
    });
    this.planningLease = new PlanningLease({
      repository: deps.repository,
      clock: deps.clock,
      holder: this.runner.claimant,
      log: deps.log,
      claimantIsDead: deps.claimantIsDead,
    });
    this.changes = new CoalescingQueue(
      (mosqueIds) => this.oneAtATime(() => this.replanMosques(mosqueIds)),
      (error, mosqueIds) => deps.log.error({ err: error, mosqueIds }, 're-planning changed mosques failed'),
    );
  }

  /** How long before its window a recording is launched. */
  private get leadMs(): number {
    return (this.deps.leadSeconds ?? 0) * 1000;
  }

  /** The recording of `instanceId` changed after its job was settled: the job is judged again from it. */
  async reviseOutcome(instanceId: string): Promise<void> {
    await reviseSettledOutcome(this.deps, instanceId, this.deps.clock.now());
  }

  /** At server start: ensure the recurring job and state exist, then handle whatever fell due while down. */
  async boot(): Promise<void> {
    const now = this.deps.clock.now();
    const nowIso = now.toISOString();
    await this.repository.isRunning(nowIso);
    const trigger = RECURRING_TRIGGER;
    await this.repository.insertIfMissing({
      id: RECURRING_JOB_ID,
      kind: 'recurring',
      name: RECURRING_JOB_NAME,
      func: RECURRING_JOB_FUNC,
      trigger,
      next_run_time: nextRecurringRun(now).toISOString(),
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
      width: null,
      height: null,
      created_at: nowIso,
      updated_at: nowIso,
    });
    const recurring = await this.repository.findById(RECURRING_JOB_ID);
    if (recurring && recurring.trigger !== trigger) {
      await this.repository.update(RECURRING_JOB_ID, {
        trigger,
        next_run_time: nextRecurringRun(now).toISOString(),
        updated_at: nowIso,
      });
    }
    this.unwatch ??= this.deps.watchMosques?.((mosqueId) => this.changes.add(mosqueId));
    this.deps.provideJobCounts?.(() => this.repository.countByStatus());
    await this.runner.arm();
  }

  async close(): Promise<void> {
    this.unwatch?.();
    await this.changes.idle();
    await this.runner.close();
  }

  /** Waits for re-planning started by mosque changes (tests). */
  settled(): Promise<void> {
    return this.changes.idle();
  }

  /** One pass of the firing loop now (tests drive time with it; production's timer calls it). */
  tick(): Promise<void> {
    return this.runner.tick();
  }

  async status(): Promise<SchedulerStatus> {
    const now = this.deps.clock.now();
    const [running, total, active, next] = await Promise.all([
      this.repository.isRunning(now.toISOString()),
      this.repository.countListed(new Date(now.getTime() - RECENT_JOBS_MS).toISOString()),
      this.repository.countPendingRecordings(),
      this.repository.nextScheduled('recording'),
    ]);
    return {
      scheduler_running: running,
      total_jobs: total,
      active_schedules: active,
      next_recording: next?.next_run_time ?? null,
      next_recording_mosque: next?.mosque_name ?? null,
      next_recording_job_id: next?.id ?? null,
    };
  }

  /**
   * Recording jobs waiting to launch, soonest first. Every console polls this; readers share one list
   * per limit until this process writes a job, and for UPCOMING_CACHE_MS at most (another server on the
   * same database). Callers must not modify it.
   */
  upcoming(limit: number): Promise<UpcomingRecording[]> {
    const writes = this.repository.writeCount;
    const cached = this.upcomingCache.get(limit);
    if (cached && cached.writes === writes && performance.now() < cached.expires) return cached.list;
    const list = this.repository.upcoming(limit).then((rows) => rows.map(toUpcomingRecording));
    this.upcomingCache.set(limit, { writes, expires: performance.now() + UPCOMING_CACHE_MS, list });
    list.catch(() => {
      if (this.upcomingCache.get(limit)?.list === list) this.upcomingCache.delete(limit);
    });
    return list;
  }

  async jobs(scope: 'recent' | 'all'): Promise<Job[]> {
    const since = scope === 'all' ? null : new Date(this.deps.clock.now().getTime() - RECENT_JOBS_MS).toISOString();
    return (await this.repository.list(since)).map(toJob);
  }

  /** The Friday ledger: one row per active mosque for `friday` (default: the coming or current Friday). */
  async fridays(friday?: string): Promise<{ friday: string; fridays: FridayRow[] }> {
    const now = this.deps.clock.now();
    const date = friday ?? comingFriday(now);
    return { friday: date, fridays: await buildLedger(this.deps, date, now).catch(unavailable) };
  }

  prayerTimes(): Promise<SchedulerPrayerTime[]> {
    return this.deps.planner.prayerTimes(this.deps.clock.now()).catch(unavailable);
  }

  async start(actor: ActivityActor | null): Promise<SchedulerStatus> {
    await this.repository.setRunning(true, this.deps.clock.now().toISOString(), actor?.username ?? null);
    this.deps.log.info({ by: actor?.username }, 'scheduler started');
    await this.deps.recordActivity?.({ actor, action: 'scheduler.start' });
    // Edits and deletions made while stopped count: every active mosque is planned again first.
    await this.scheduleFriday({ forceRefresh: true, mosqueFilter: null }, actor).catch((error: unknown) =>
      this.deps.log.error({ err: error }, 're-planning at scheduler start failed'),
    );
    // Whatever fell due while stopped is launched late or marked missed right away.
    await this.runner.tick();
    return this.status();
  }

  async stop(actor: ActivityActor | null): Promise<SchedulerStatus> {
    await this.repository.setRunning(false, this.deps.clock.now().toISOString(), actor?.username ?? null);
    this.runner.disarm();
    this.deps.log.info({ by: actor?.username }, 'scheduler stopped');
    await this.deps.recordActivity?.({ actor, action: 'scheduler.stop' });
    return this.status();
  }

  /** Creates (or with forceRefresh recomputes) one recording job per active mosque for its coming Friday. */
  async scheduleFriday(input: ScheduleRequest, actor: ActivityActor | null = null): Promise<ScheduleResult> {
    const request = scheduleRequestSchema.parse(input);
    const result = await this.oneAtATime(() => this.planFridays(request, actor));
    // Here, once planning's arrays are out of scope, not inside it, where they are still alive.
    if (result.scheduled >= FLEET_SIZED_PLAN) collectGarbage();
    return result;
  }

  /** Runs `plan` once the plan in progress has finished (whether it succeeded or not) and no other server is planning. */
  private oneAtATime<T>(plan: () => Promise<T>): Promise<T> {
    const leased = () => this.planningLease.hold(plan);
    const run = this.planning.then(leased, leased);
    this.planning = run.catch(() => undefined);
    return run;
  }

  private async planFridays(
    { forceRefresh, mosqueFilter }: ParsedScheduleRequest,
    actor: ActivityActor | null,
  ): Promise<ScheduleResult> {
    const now = this.deps.clock.now();
    if (!(await this.repository.isRunning(now.toISOString()))) throw conflict(SCHEDULER_NOT_RUNNING_MESSAGE);
    const { plans, skipped } = await this.deps.planner.planFriday(now, mosqueFilter).catch(unavailable);
    const known = new Set([...plans.map((p) => p.mosqueId), ...skipped.map((s) => s.mosqueId)]);
    const skips: SkippedMosque[] = skipped.map((s) => ({
      mosque_id: s.mosqueId,
      mosque_name: s.mosqueName,
      reason: s.reason,
    }));
    for (const id of mosqueFilter ?? []) {
      if (!known.has(id)) skips.push({ mosque_id: id, mosque_name: null, reason: UNKNOWN_MOSQUE });
    }

    const existing = await this.existingJobs(plans, mosqueFilter !== null);
    const plan = planSchedule(plans, existing, now, forceRefresh, this.leadMs);
    const created = (await this.repository.insertMany(plan.inserts)) + (await this.revive(plan));
    const updated = await this.repository.updateUntouched(plan.updates);
    const cancelled = forceRefresh && mosqueFilter === null ? await this.cancelOrphans(now, known) : 0;
    await this.alarmUnschedulable(skipped, mosqueFilter === null ? null : plans.map((p) => p.mosqueId));
    await this.runner.arm();

    const result: ScheduleResult = {
      scheduled: plan.inserts.length + plan.revivals.length + plan.updates.length + plan.unchanged,
      created,
      updated,
      // Rows another server inserted meanwhile, or moved on meanwhile, count as unchanged.
      unchanged:
        plan.unchanged + (plan.updates.length - updated) + (plan.inserts.length + plan.revivals.length - created),
      kept: plan.kept,
      cancelled,
      skipped: [...skips, ...plan.skipped],
      friday_dates: plan.fridayDates,
    };
    this.deps.log.info({ ...result, skipped: result.skipped.length, forceRefresh }, 'scheduled Friday recordings');
    const { skipped: _skipped, ...counts } = result;
    await this.deps.recordActivity?.({
      actor,
      action: 'schedule.run',
      detail: { forceRefresh, mosqueFilter, ...counts, skipped: result.skipped.length },
    });
    return result;
  }

  /**
   * A recording at a chosen time, launched by the runner the lead time before its window (a launch
   * with start_at further ahead than that). Refused while the scheduler is stopped: nothing would launch it.
   */
  async scheduleOneOff(recording: OneOffRecording): Promise<ScheduledLaunchJob> {
    const now = this.deps.clock.now();
    if (!(await this.repository.isRunning(now.toISOString())))
      throw conflict(`${SCHEDULER_NOT_RUNNING_MESSAGE} (a launch with start_at is one), or launch without start_at`);
    const job = oneOffJob(`${ONE_OFF_JOB_PREFIX}${crypto.randomBytes(6).toString('hex')}`, recording, now, this.leadMs);
    await this.repository.insertMany([job]);
    this.deps.log.info(
      { jobId: job.id, mosqueId: job.mosque_id, launchAt: job.next_run_time },
      'one-off recording scheduled',
    );
    await this.runner.arm();
    return {
      jobId: job.id,
      launchAt: job.next_run_time as string,
      windowStart: job.recording_start as string,
      windowEnd: job.recording_end as string,
    };
  }

  /** Cancels a job that has not launched yet. */
  async cancel(jobId: string, actor: ActivityActor | null): Promise<{ job: Job; message: string }> {
    const job = await this.repository.findById(jobId);
    if (!job) throw notFound(`Job ${jobId} not found`);
    if (job.kind === 'recurring') {
      throw conflict('The recurring scheduling job cannot be cancelled; stop the scheduler to pause all scheduling');
    }
    const now = this.deps.clock.now().toISOString();
    if (
      job.status === 'scheduled' &&
      (await this.repository.finishScheduled(job.id, 'cancelled', now, null, actor?.username ?? 'operator'))
    ) {
      this.deps.log.info({ jobId, by: actor?.username }, 'job cancelled');
      await this.deps.recordActivity?.({
        actor,
        action: 'schedule.cancel',
        target: { type: 'job', id: jobId, label: job.name },
      });
      await this.runner.arm();
      const row = await this.repository.findById(jobId);
      return { job: toJob(row ?? job), message: `Job ${jobId} cancelled` };
    }
    const current = (await this.repository.findById(jobId)) ?? job;
    switch (current.status) {
      case 'cancelled':
        return { job: toJob(current), message: `Job ${jobId} was already cancelled` };
      case 'launching':
        throw conflict(
          `Job ${jobId} is being launched right now; terminate its recording from Instances once it appears`,
        );
      case 'launched':
        throw conflict(
          `Job ${jobId} was already launched${current.instance_id ? ` (instance ${current.instance_id})` : ''}; terminate the recording from Instances`,
        );
      default:
        throw conflict(`Job ${jobId} has already ended (${current.status}) and cannot be cancelled`);
    }
  }

  /** Schedules a cancelled job again, as long as its recording window is open (a late start launches at once). */
  async restore(jobId: string, actor: ActivityActor | null): Promise<{ job: Job; message: string }> {
    const job = await this.repository.findById(jobId);
    if (!job || job.kind !== 'recording') throw notFound(`Job ${jobId} not found`);
    if (job.status !== 'cancelled')
      throw conflict(`Job ${jobId} is ${job.status}, not cancelled; only a cancelled job can be restored`);
    const now = this.deps.clock.now();
    const nowIso = now.toISOString();
    if (!job.recording_end || job.recording_end <= nowIso) {
      throw conflict(
        `The recording window of job ${jobId} ended at ${job.recording_end ?? 'an unknown time'}; it can no longer be restored`,
      );
    }
    const launchAt = job.recording_start ? new Date(Date.parse(job.recording_start) - this.leadMs).toISOString() : '';
    const nextRun = launchAt > nowIso ? launchAt : nowIso;
    if (!(await this.repository.restoreCancelled(job.id, nextRun, nowIso)))
      throw conflict(`Job ${jobId} changed meanwhile; reload and try again`);
    this.deps.log.info({ jobId, by: actor?.username }, 'job restored');
    await this.deps.recordActivity?.({
      actor,
      action: 'schedule.restore',
      target: { type: 'job', id: jobId, label: job.name },
    });
    await this.runner.arm();
    const row = await this.repository.findById(jobId);
    return { job: toJob(row ?? job), message: `Job ${jobId} restored` };
  }

  /** The recurring job: when due, one process (the one that advances it) schedules the coming Friday. */
  private async runRecurringIfDue(now: Date): Promise<void> {
    const job = await this.repository.findById(RECURRING_JOB_ID);
    const nowIso = now.toISOString();
    if (!job || job.status !== 'scheduled' || !job.next_run_time || job.next_run_time > nowIso) return;
    // Missed runs while the server was down coalesce into this one.
    if (
      !(await this.repository.advanceRecurring(job.id, job.next_run_time, nextRecurringRun(now).toISOString(), nowIso))
    )
      return;
    try {
      const result = await this.scheduleFriday({ forceRefresh: true, mosqueFilter: null });
      await this.repository.update(job.id, { last_error: null, updated_at: this.deps.clock.now().toISOString() });
      this.deps.log.info({ created: result.created, updated: result.updated }, 'recurring Friday scheduling ran');
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      await this.repository.update(job.id, {
        last_error: message.slice(0, 1000),
        updated_at: this.deps.clock.now().toISOString(),
      });
      this.deps.log.error({ err: error }, 'recurring Friday scheduling failed');
    }
  }

  /**
   * Mosques were created, edited or deleted: while the scheduler runs, their coming Friday is planned
   * (or re-timed, if not started yet); a mosque now inactive or gone loses its pending job. Only these
   * mosques' jobs are read (through the mosque and Friday index), whatever the size of the fleet.
   */
  private async replanMosques(mosqueIds: string[]): Promise<void> {
    const now = this.deps.clock.now();
    if (!(await this.repository.isRunning(now.toISOString()))) return;
    const { plans, skipped } = await this.deps.planner.planFriday(now, mosqueIds);
    await this.alarmUnschedulable(
      skipped,
      plans.map((p) => p.mosqueId),
    );
    const known = new Set([...plans.map((p) => p.mosqueId), ...skipped.map((s) => s.mosqueId)]);
    const gone = mosqueIds.filter((id) => !known.has(id));
    let changed = 0;
    if (gone.length > 0) {
      await this.deps.alarms.resolve(...gone.map(alarmKeys.unschedulable));
      changed += await this.cancelOrphans(now, known, gone);
    }
    if (plans.length > 0) {
      const plan = planSchedule(plans, await this.existingJobs(plans, true), now, true, this.leadMs);
      const created = (await this.repository.insertMany(plan.inserts)) + (await this.revive(plan));
      const updated = await this.repository.updateUntouched(plan.updates);
      if (created + updated > 0)
        this.deps.log.info({ mosques: plans.length, created, updated }, 're-planned changed mosques');
      changed += created + updated;
    }
    if (changed > 0) await this.runner.arm();
  }

  /**
   * The recording jobs planning compares against: those of the planned mosques (through the mosque
   * and Friday index) when only some are planned, else every job of the Fridays around the plans.
   */
  private existingJobs(plans: FridayPlan[], someMosques: boolean) {
    // A mosque-local Friday is within a day of the prayer's UTC date.
    const dates = new Set(
      plans.flatMap((p) =>
        [-1, 0, 1].map((d) => new Date(p.prayerAt.getTime() + d * 86_400_000).toISOString().slice(0, 10)),
      ),
    );
    return someMosques
      ? this.repository.recordingsOfMosques(
          plans.map((p) => p.mosqueId),
          [...dates],
        )
      : this.repository.recordingsFor([...dates]);
  }

  private async revive(plan: SchedulePlan): Promise<number> {
    let revived = 0;
    for (const { id, values } of plan.revivals) if (await this.repository.reviveSystemCancelled(id, values)) revived++;
    return revived;
  }

  /**
   * An alarm per active mosque the planner cannot schedule; resolved for the mosques planned now
   * (`planned`), or, after a pass over every mosque (`planned` null), for every mosque not skipped.
   */
  private async alarmUnschedulable(skipped: PlanSkip[], planned: string[] | null): Promise<void> {
    const { alarms } = this.deps;
    for (const skip of skipped) {
      await alarms.raise({
        kind: 'unschedulable',
        key: alarmKeys.unschedulable(skip.mosqueId),
        message: `${skip.mosqueName ?? skip.mosqueId} cannot be scheduled: ${skip.reason}`,
        mosqueId: skip.mosqueId,
        mosqueName: skip.mosqueName,
      });
    }
    if (planned === null) {
      await alarms.resolveAllExcept(
        alarmKeys.unschedulablePrefix,
        new Set(skipped.map((s) => alarmKeys.unschedulable(s.mosqueId))),
      );
    } else {
      await alarms.resolve(...planned.map(alarmKeys.unschedulable));
    }
  }

  /** Pending, never-attempted jobs (of some mosques, or all) whose mosque the planner no longer knows as active. */
  private async cancelOrphans(now: Date, known: Set<string>, mosqueIds?: string[]): Promise<number> {
    let count = 0;
    for (const row of await this.repository.untouchedFuture(now.toISOString(), mosqueIds)) {
      if (row.mosque_id && !known.has(row.mosque_id)) {
        if (
          await this.repository.finishScheduled(
            row.id,
            'cancelled',
            now.toISOString(),
            'Cancelled: the mosque is no longer active',
          )
        )
          count++;
      }
    }
    return count;
  }
}
