import type { FastifyBaseLogger } from 'fastify';
import {
  LAUNCH_LIMITS,
  type Instance,
  type InstanceDetails,
  type LaunchConfig,
  type ScheduledLaunch,
  type TerminateResult,
} from '../../../contract/instances';
import { failureMessage, providerHttpError } from '../../capture/http-errors';
import { newId } from '../../capture/ids';
import { recordingWindow, type CaptureProvider, type ProviderInstance } from '../../capture/provider';
import type { Clock } from '../../lib/clock';
import { badRequest, conflict, notFound } from '../../lib/http-error';
import { maskUrlSecrets, maskUrlSecretsOrNull } from '../../../recorder/url-secrets';
import type { RecordingsService } from '../recordings';
import { LostScopeContinuation, type Continued, type LostScope } from './continuation';
import type { OtherScopes } from './elsewhere';
import { FleetCapacity } from './capacity';
import { LaunchBreaker } from './launch-breaker';
import { FleetReaper } from './reaper';
import { FleetRelaunch } from './relaunch';
import type { AlarmsService } from '../alarms';
import {
  ACTIVE_STATES,
  runtimeHours,
  toInstance,
  type InstanceListRow,
  type InstanceRow,
  type InstancesRepository,
} from './repository';

/** Instances the list (and each instance_status_update) carries: the newest ones. */
export const INSTANCE_LIST_LIMIT = 500;
/** A row whose launch never got a provider id after this long is given up. */
const LAUNCH_ABANDONED_MS = 5 * 60_000;
/** A live row the provider stops reporting is ended after this long (EC2 lists are eventually consistent). */
const VANISHED_GRACE_MS = 60_000;
/**
 * How long the newest rows, once read, answer further list reads when this process changed nothing.
 * Every change made here retires them at once (see `changed`); this bounds how late a change made by
 * another server sharing the database shows (its own reconcile pass runs every 1 s / 10 s anyway).
 */
const LIST_CACHE_MS = 1000;
/** Lists made for instants this close share their runtime_hours (see `list`). */
const LIST_CLOCK_STEP_MS = 100;

/** A start_at this close behind the server's clock is "now" (the operator's clock, the request's travel). */
const START_AT_PAST_SLACK_MS = 60_000;

/** Schedules a recording whose window opens at `start_at` (the scheduler's one-off job). */
export type FutureLaunches = (
  config: LaunchConfig & { start_at: string },
) => Promise<{ jobId: string; launchAt: string; windowStart: string; windowEnd: string }>;

/** What the fleet tells the outside world; the module's wiring connects it to the live feed and monitoring. */
export interface FleetEvents {
  instancesChanged(): void;
  recordingsChanged(): void;
  launched(outcome: { instanceId: string; mosqueId: string | null; jobId: string | null; message: string }): void;
  launchFailed(outcome: { mosqueId: string | null; jobId: string | null; message: string }): void;
  /** Seconds from launch request to media flowing (local) or machine up (aws). */
  reachedRunning(seconds: number): void;
}

export interface LaunchOneOptions {
  jobId?: string | null;
  idempotencyKey?: string;
  stallTimeoutSeconds?: number;
  /** The recording window (ISO UTC) when a scheduled job launches; else launch time + duration. */
  windowStart?: string;
  windowEnd?: string;
  /** `host:port` the recorder may reach though internal (the server's own demo stream), as the stream guard found. */
  trustedHosts?: string[];
}

/**
 * The capture fleet: every instance the configured driver runs, kept in the instances table.
 * Launches and terminations go through here; `reconcile()` re-reads the driver (files and pids, or
 * EC2) and brings the table up to date, so the table follows the recorders, not the other way round.
 */
export class InstancesService {
  private reconciling: Promise<void> | undefined;
  /** The pass that starts once the one in flight ends, shared by everyone who asked meanwhile. */
  private nextPass: Promise<void> | undefined;
  /** Bumped by every change this process makes to instances or recordings. */
  private generation = 0;
  /**
   * The newest rows as last read (GET /api/instances/, every live update and every console's first
   * message read them: 200 rows cost ~2 ms of CPU on SQLite each time, the benchmark's main cost).
   * Shared by concurrent readers; valid for the generation it was read in, for LIST_CACHE_MS at most.
   */
  private listCache: { rows: Promise<InstanceListRow[]>; generation: number; expires: number } | undefined;
  private listMemo: { rows: InstanceListRow[]; at: number; list: Instance[] } | undefined;
  private readonly events: FleetEvents;
  private readonly relaunch: FleetRelaunch;
  private readonly reaper: FleetReaper;
  /** Holds every launch after a run of machines that ended without recording (launch-breaker.ts). */
  readonly breaker: LaunchBreaker;
  /** Alarms a launch refused at AWS_MAX_INSTANCES, and a coming wave that would not fit (capacity.ts). */
  readonly capacity: FleetCapacity;
  private readonly continuation: LostScopeContinuation;
  /** Where launches for later go (the scheduler's one-off jobs); absent, they are refused. */
  private readonly future: FutureLaunches | undefined;

  constructor(
    private readonly repository: InstancesRepository,
    private readonly recordings: RecordingsService,
    private readonly driver: CaptureProvider,
    private readonly clock: Clock,
    events: FleetEvents,
    private readonly log: FastifyBaseLogger,
    /** Refuses stream URLs a recorder must not open (stream-url-guard.ts); throws the 400 to answer. */
    /** Refuses a stream the recorder may not reach (400); answers the internal hosts it may (the demo stream's). */
    private readonly checkStreamUrl: (url: string) => Promise<string[]>,
    /** The reaper's grace (CAPTURE_GRACE_SECONDS), the fleet's limits, and where their alarms go. */
    care: { graceSeconds: number; alarms?: AlarmsService; maxInstances?: number; recordingsPerInstance?: number } = {
      graceSeconds: 600,
    },
    /**
     * Terminate, logs and emergency stop reach the recorders other servers run (the servers module,
     * built after the fleet, so reached when called); launches for later go to the scheduler.
     */
    private readonly reach: { otherScopes?: () => OtherScopes | undefined; future?: FutureLaunches } = {},
  ) {
    this.future = reach.future;
    this.capacity = new FleetCapacity({
      driver,
      repository,
      clock,
      log,
      alarms: care.alarms,
      maxInstances: care.maxInstances,
      recordingsPerInstance: care.recordingsPerInstance ?? 1,
    });
    this.breaker = new LaunchBreaker({
      clock,
      log,
      alarms: care.alarms,
      consoleOf: (providerInstanceId) => driver.logs(providerInstanceId, 50),
    });
    this.relaunch = new FleetRelaunch(driver, repository, recordings, clock, log, this.breaker);
    this.reaper = new FleetReaper({
      driver,
      repository,
      clock,
      log,
      graceSeconds: care.graceSeconds,
      alarms: care.alarms,
    });
    this.continuation = new LostScopeContinuation({
      repository,
      recordings,
      relaunch: this.relaunch,
      clock,
      log,
      ownScope: driver.scope,
    });
    // Every write here is followed by one of these two events: they retire the cached list first.
    this.events = {
      instancesChanged: () => {
        this.changed();
        events.instancesChanged();
      },
      recordingsChanged: () => {
        this.changed();
        events.recordingsChanged();
      },
      launched: (outcome) => events.launched(outcome),
      launchFailed: (outcome) => events.launchFailed(outcome),
      reachedRunning: (seconds) => events.reachedRunning(seconds),
    };
  }

  /** Recorders of other scopes (other servers'); absent, they are refused as running elsewhere (one server). */
  private get otherScopes(): OtherScopes | undefined {
    return this.reach.otherScopes?.();
  }

  /** Whether this server's driver runs the row's recorder (rows from before scopes were kept have none). */
  private isOwn(row: Pick<InstanceRow, 'scope'>): boolean {
    return !row.scope || row.scope === this.driver.scope;
  }

  private async fleetOf(row: InstanceRow, what: string) {
    if (!this.otherScopes) throw conflict(`Instance ${row.id} runs elsewhere (${row.scope}); ${what}`);
    return this.otherScopes(row.scope);
  }

  /** Whether a live server (this one, its own, or one that adopted it) follows the instance's recorder. */
  async attended(id: string): Promise<boolean> {
    const row = await this.repository.findById(id);
    if (!row || this.isOwn(row) || !this.otherScopes) return true;
    try {
      await this.otherScopes(row.scope);
      return true;
    } catch {
      return false;
    }
  }

  get scope(): string {
    return this.driver.scope;
  }

  get providerKind() {
    return this.driver.kind;
  }

  /**
   * The console's list. Readers within LIST_CLOCK_STEP_MS of each other share one array (and the
   * route one serialised body): runtime_hours is rounded to 0.36 s anyway. Callers must not modify it.
   */
  async list(): Promise<Instance[]> {
    const rows = await this.newestRows();
    const now = this.clock.now().getTime();
    const memo = this.listMemo;
    if (memo && memo.rows === rows && Math.abs(now - memo.at) < LIST_CLOCK_STEP_MS) return memo.list;
    const at = new Date(now);
    const list = rows.map((row) => toInstance(row, at));
    this.listMemo = { rows, at: now, list };
    return list;
  }

  /** Retires the cached list: the next read goes to the database. */
  private changed(): void {
    this.generation++;
    this.listCache = undefined;
  }

  /** The newest rows (shared: callers must not modify them). Wall time bounds the cache, not `clock`: it is about other writers. */
  private newestRows(): Promise<InstanceListRow[]> {
    const cached = this.listCache;
    if (cached && cached.generation === this.generation && performance.now() < cached.expires) return cached.rows;
    const generation = this.generation;
    const rows = this.repository.listRecent(INSTANCE_LIST_LIMIT);
    this.listCache = { rows, generation, expires: performance.now() + LIST_CACHE_MS };
    rows.catch(() => {
      if (this.listCache?.rows === rows) this.listCache = undefined;
    });
    return rows;
  }

  /** By the fleet's id or the provider's; 404 otherwise. */
  /** The instance a launch of `jobId` made (one per job, whichever server launched it), if any. */
  ofJob(jobId: string): Promise<InstanceRow | undefined> {
    return this.repository.findByJobId(jobId);
  }

  async resolve(id: string): Promise<InstanceRow> {
    const row = await this.repository.findByAnyId(id);
    if (!row) throw notFound(`Instance ${id} not found`);
    return row;
  }

  async details(id: string): Promise<InstanceDetails> {
    const row = await this.resolve(id);
    const { recording, liveContent } = await this.recordings.liveForInstance(row.id);
    return {
      ...toInstance({ ...row, recording_status: recording?.status ?? null }, this.clock.now()),
      provider: row.provider,
      provider_instance_id: row.provider_instance_id,
      width: row.width,
      height: row.height,
      running_at: row.running_at,
      ended_at: row.ended_at,
      state_reason: maskUrlSecretsOrNull(row.state_reason),
      job_id: row.job_id,
      image_id: row.image_id,
      recording,
      live_content: liveContent,
    };
  }

  async logs(id: string, lines: number): Promise<{ instanceId: string; logs: string[] }> {
    const row = await this.resolve(id);
    if (!this.isOwn(row)) {
      const elsewhere = await (await this.fleetOf(row, 'its logs are there')).logs(row.id, lines);
      return { instanceId: row.id, logs: elsewhere.map(maskUrlSecrets) };
    }
    if (!row.provider_instance_id) return { instanceId: row.id, logs: [] };
    try {
      // A recorder masks what it logs; older recorders and ffmpeg's own lines may still hold a URL's secrets.
      return {
        instanceId: row.id,
        logs: (await this.driver.logs(row.provider_instance_id, lines)).map(maskUrlSecrets),
      };
    } catch (error) {
      throw providerHttpError(error);
    }
  }

  /**
   * Launches one recorder. With a jobId, a second call for the same job returns the first instance,
   * once that instance's launch is complete: a launch a crash cut short (a row without a provider
   * instance or without its recording) is driven again under the same ids, never taken as done.
   */
  async launchOne(
    config: LaunchConfig,
    options: LaunchOneOptions = {},
  ): Promise<{ row: InstanceRow; existing: boolean }> {
    const jobId = options.jobId ?? null;
    if (jobId) {
      const earlier = await this.repository.findByJobId(jobId);
      if (earlier) return this.completeEarlier(earlier, config, options);
    }
    let trustedHosts: string[];
    try {
      await this.breaker.refuseWhileOpen();
      trustedHosts = await this.checkStreamUrl(config.url);
    } catch (error) {
      this.events.launchFailed({
        mosqueId: config.mosque_id,
        jobId,
        message: `Failed to launch: ${failureMessage(error)}`,
      });
      throw providerHttpError(error);
    }
    const id = newId('cap');
    const now = this.clock.now().toISOString();
    const name = `capture-${config.mosque_id ?? 'adhoc'}-${id.slice(-6)}`;
    // Kept so that a relaunch (relaunch.ts) records the same window.
    const window = recordingWindow(config, options, this.clock.now());
    try {
      await this.repository.insert({
        id,
        provider: this.driver.kind,
        scope: this.driver.scope,
        provider_instance_id: null,
        name,
        state: 'pending',
        instance_type: this.driver.kind,
        mosque_id: config.mosque_id,
        url: config.url,
        method: config.method,
        duration: config.duration,
        width: config.width,
        height: config.height,
        image_id: null,
        launch_time: now,
        running_at: null,
        ended_at: null,
        state_reason: null,
        job_id: jobId,
        updated_at: now,
        window_start: window.windowStart,
        window_end: window.windowEnd,
      });
    } catch (error) {
      // Two servers launching one job: the unique job_id decides, the loser returns the winner's instance.
      const winner = jobId ? await this.repository.findByJobId(jobId) : undefined;
      if (winner) return { row: winner, existing: true };
      throw error;
    }
    this.events.instancesChanged();
    return { row: await this.driveLaunch(id, name, config, { ...options, trustedHosts }), existing: false };
  }

  /** The instance a job launched before: returned when complete, else its launch is driven again. */
  private async completeEarlier(
    earlier: InstanceRow,
    config: LaunchConfig,
    options: LaunchOneOptions,
  ): Promise<{ row: InstanceRow; existing: boolean }> {
    if (earlier.provider_instance_id && (await this.recordings.findRowByInstance(earlier.id)))
      return { row: earlier, existing: true };
    if (earlier.provider_instance_id && !ACTIVE_STATES.includes(earlier.state)) return { row: earlier, existing: true };
    this.log.warn({ instanceId: earlier.id, jobId: earlier.job_id }, 'completing a launch that was cut short');
    if (!ACTIVE_STATES.includes(earlier.state)) {
      // Given up by reconciliation while nobody drove it: it is this launch again.
      await this.repository.update(earlier.id, {
        state: 'pending',
        ended_at: null,
        state_reason: null,
        updated_at: this.clock.now().toISOString(),
      });
    }
    return { row: await this.driveLaunch(earlier.id, earlier.name, config, options), existing: true };
  }

  /** Starts (or, under the same idempotency key, finds) the driver's recorder for row `id`, then its recording. */
  private async driveLaunch(
    id: string,
    name: string,
    config: LaunchConfig,
    options: LaunchOneOptions,
  ): Promise<InstanceRow> {
    const jobId = options.jobId ?? null;
    const recordingId = newId('rec');
    try {
      const launched = await this.driver.launch(config, {
        launchId: id,
        recordingId,
        jobId,
        name,
        idempotencyKey: options.idempotencyKey ?? jobId ?? id,
        stallTimeoutSeconds: options.stallTimeoutSeconds,
        windowStart: options.windowStart,
        windowEnd: options.windowEnd,
        trustedHosts: options.trustedHosts,
      });
      const row = await this.repository.update(id, {
        provider_instance_id: launched.providerInstanceId,
        name: launched.name,
        instance_type: launched.instanceType,
        image_id: launched.imageId,
        updated_at: this.clock.now().toISOString(),
      });
      if (!row) throw new Error(`Instance ${id} vanished while launching`);
      if (!(await this.recordings.findRowByInstance(id))) {
        await this.recordings.create({
          id: recordingId,
          instanceId: id,
          mosqueId: config.mosque_id,
          url: config.url,
          filePath: launched.filePath,
          windowStart: recordingWindow(config, options, this.clock.now()).windowStart,
        });
      }
      await this.capacity.launchEnded(undefined);
      this.events.launched({ instanceId: id, mosqueId: config.mosque_id, jobId, message: `Launched ${launched.name}` });
      this.events.instancesChanged();
      this.events.recordingsChanged();
      return row;
    } catch (error) {
      await this.repository.delete(id).catch(() => undefined);
      this.log.warn({ err: error, mosqueId: config.mosque_id, jobId }, 'launch failed');
      await this.capacity
        .launchEnded(error)
        .catch((failure: unknown) => this.log.warn({ err: failure }, 'raising the fleet_capacity alarm failed'));
      this.events.launchFailed({
        mosqueId: config.mosque_id,
        jobId,
        message: `Failed to launch: ${failureMessage(error)}`,
      });
      this.events.instancesChanged();
      throw providerHttpError(error);
    }
  }

  /**
   * Launches each config, at most `maxWorkers` at a time; one whose start_at is further ahead than
   * the driver's lead time is scheduled instead. Fails only when nothing was launched or scheduled.
   */
  async launch(
    configs: LaunchConfig[],
    maxWorkers: number,
  ): Promise<{
    instances: Instance[];
    failed: { index: number; mosque_id: string | null; error: string }[];
    scheduled: ScheduledLaunch[];
  }> {
    const launchBy = this.checkStartTimes(configs);
    const launched: { index: number; row: InstanceRow }[] = [];
    const scheduled: ScheduledLaunch[] = [];
    const failed: { index: number; mosque_id: string | null; error: string; cause: unknown }[] = [];
    let next = 0;
    const worker = async () => {
      while (next < configs.length) {
        const index = next++;
        const config = configs[index];
        try {
          if (config.start_at && launchBy[index] > this.clock.now().getTime())
            scheduled.push(await this.scheduleLater(index, config));
          else launched.push({ index, row: (await this.launchOne(config)).row });
        } catch (error) {
          failed.push({
            index,
            mosque_id: config.mosque_id,
            error: maskUrlSecrets(failureMessage(error)),
            cause: error,
          });
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(maxWorkers, configs.length) }, worker));
    if (launched.length + scheduled.length === 0) throw failed.sort((a, b) => a.index - b.index)[0].cause;
    const now = this.clock.now();
    return {
      scheduled: scheduled.sort((a, b) => a.index - b.index),
      instances: launched
        .sort((a, b) => a.index - b.index)
        .map(({ row }) => toInstance({ ...row, recording_status: 'recording' }, now)),
      failed: failed
        .sort((a, b) => a.index - b.index)
        .map(({ index, mosque_id, error }) => ({ index, mosque_id, error })),
    };
  }

  /**
   * When each config's recorder must be launched (ms): its start_at less the lead time, else now.
   * A start_at in the past or too far ahead refuses the whole request (400), before anything starts.
   */
  private checkStartTimes(configs: LaunchConfig[]): number[] {
    const now = this.clock.now().getTime();
    return configs.map((config, index) => {
      if (!config.start_at) return now;
      const start = Date.parse(config.start_at);
      const field = `configs[${index}].start_at`;
      if (start < now - START_AT_PAST_SLACK_MS)
        throw badRequest(`${field}: ${config.start_at} is in the past; leave start_at out to start now`);
      if (start > now + LAUNCH_LIMITS.startAtDays * 86_400_000)
        throw badRequest(`${field}: at most ${LAUNCH_LIMITS.startAtDays} days ahead`);
      return start - this.driver.leadSeconds * 1000;
    });
  }

  /** A launch for later: the scheduler's one-off job launches it the lead time before its window. */
  private async scheduleLater(index: number, config: LaunchConfig): Promise<ScheduledLaunch> {
    if (!this.future) throw conflict('Recordings at a chosen time need the scheduler, which this server does not run');
    await this.checkStreamUrl(config.url);
    const job = await this.future({ ...config, start_at: config.start_at as string });
    return {
      index,
      job_id: job.jobId,
      mosque_id: config.mosque_id,
      launch_at: job.launchAt,
      window_start: job.windowStart,
      window_end: job.windowEnd,
    };
  }

  /**
   * Terminates the given instances. Unknown ids are a 404 and nothing is done; when none of them is
   * running or pending it is a 409; otherwise each is reported, and a provider failure on every one
   * of them is that failure's status (502/503).
   */
  async terminate(ids: string[], reason: string): Promise<TerminateResult[]> {
    const unique = [...new Set(ids)];
    const rows = await Promise.all(unique.map((id) => this.repository.findByAnyId(id)));
    const unknown = unique.filter((_, i) => !rows[i]);
    if (unknown.length > 0) throw notFound(`Instance ${unknown.join(', ')} not found`);
    const found = rows as InstanceRow[];
    const active = found.filter((row) => ACTIVE_STATES.includes(row.state));
    if (active.length === 0) {
      throw conflict(
        found.length === 1
          ? `Instance ${unique[0]} is not running (it is ${found[0].state})`
          : 'None of the selected instances is running or pending',
      );
    }
    const results = await this.stopEach(found, unique, reason);
    const failures = results.filter((r, i) => !r.success && ACTIVE_STATES.includes(found[i].state));
    if (failures.length === active.length && failures[0]?.error) throw providerHttpError(failures[0].error);
    return results.map((r) => r.result);
  }

  /** Emergency stop: every running and pending instance, this server's and the other servers', each reported. */
  async terminateAll(reason: string): Promise<TerminateResult[]> {
    const rows = await this.repository.listActive(this.otherScopes ? undefined : this.driver.scope);
    const results = await this.stopEach(
      rows,
      rows.map((r) => r.id),
      reason,
    );
    return results.map((r) => r.result);
  }

  /**
   * Terminates the rows of this server's own scope that `ids` name, for another server that was asked
   * (internal route): the others, and unknown ids, are failures in the results, never passed on again.
   */
  async terminateHere(ids: string[], reason: string): Promise<TerminateResult[]> {
    const rows = await Promise.all(ids.map((id) => this.repository.findByAnyId(id)));
    const results = await Promise.all(
      rows.map(async (row, i): Promise<TerminateResult> => {
        if (!row) return { instance_id: ids[i], success: false, state: null, message: `Instance ${ids[i]} not found` };
        if (!this.isOwn(row))
          return {
            instance_id: ids[i],
            success: false,
            state: row.state,
            message: `Instance ${row.id} does not run on this server`,
          };
        return (await this.stopOwn([row], [ids[i]], reason))[0].result;
      }),
    );
    if (results.some((r) => r.success)) this.events.instancesChanged();
    return results;
  }

  /** Each row's recorder asked to stop: this server's own directly, the others' through their server, together. */
  private async stopEach(rows: InstanceRow[], requested: string[], reason: string) {
    const results: { success: boolean; result: TerminateResult; error?: unknown }[] = new Array(rows.length);
    const byScope = new Map<string, number[]>();
    rows.forEach((row, i) => {
      const scope = this.isOwn(row) || !ACTIVE_STATES.includes(row.state) ? '' : row.scope;
      byScope.set(scope, [...(byScope.get(scope) ?? []), i]);
    });
    await Promise.all(
      [...byScope].map(async ([scope, indexes]) => {
        const answered =
          scope === ''
            ? await this.stopOwn(
                indexes.map((i) => rows[i]),
                indexes.map((i) => requested[i]),
                reason,
              )
            : await this.stopElsewhere(
                indexes.map((i) => rows[i]),
                indexes.map((i) => requested[i]),
                reason,
              );
        indexes.forEach((index, k) => (results[index] = answered[k]));
      }),
    );
    if (results.some((r) => r.success)) this.events.instancesChanged();
    return results;
  }

  /** Rows of one other scope, stopped by the server that runs them (one call for them all). */
  private async stopElsewhere(rows: InstanceRow[], requested: string[], reason: string) {
    try {
      const fleet = await this.fleetOf(rows[0], 'terminate it there');
      const answers = await fleet.terminate(
        rows.map((row) => row.id),
        reason,
      );
      return answers.map((answer, i) => ({
        success: answer.success,
        result: { ...answer, instance_id: requested[i] },
      }));
    } catch (error) {
      this.log.warn({ err: error, scope: rows[0].scope }, 'terminate through another server failed');
      const http = providerHttpError(error);
      return rows.map((row, i) => ({
        success: false,
        error: http,
        result: { instance_id: requested[i], success: false, state: row.state, message: failureMessage(http) },
      }));
    }
  }

  private async stopOwn(rows: InstanceRow[], requested: string[], reason: string) {
    return Promise.all(
      rows.map(async (row, i): Promise<{ success: boolean; result: TerminateResult; error?: unknown }> => {
        const instanceId = requested[i];
        if (!ACTIVE_STATES.includes(row.state)) {
          return {
            success: false,
            result: {
              instance_id: instanceId,
              success: false,
              state: row.state,
              message: `Not running (it is ${row.state})`,
            },
          };
        }
        try {
          if (!row.provider_instance_id) throw conflict(`Instance ${row.id} is still launching; try again in a moment`);
          await this.driver.terminate(row.provider_instance_id, { reason, launchId: row.id });
          await this.repository.update(row.id, {
            state: 'stopping',
            state_reason: reason,
            updated_at: this.clock.now().toISOString(),
          });
          return {
            success: true,
            result: { instance_id: instanceId, success: true, state: 'stopping', message: 'Terminating' },
          };
        } catch (error) {
          this.log.warn({ err: error, instanceId: row.id }, 'terminate failed');
          const http = providerHttpError(error);
          return {
            success: false,
            error: http,
            result: { instance_id: instanceId, success: false, state: row.state, message: failureMessage(http) },
          };
        }
      }),
    );
  }

  /**
   * One pass over the driver's instances that starts after this call, so it sees what the caller did
   * before (a launch, an adoption). A caller while a pass is in flight gets the next one, shared by all
   * who asked meanwhile: a pass that began earlier may have read the driver before their change.
   */
  reconcile(): Promise<void> {
    if (this.nextPass) return this.nextPass;
    if (!this.reconciling) return this.startPass();
    this.nextPass = this.reconciling
      .catch(() => undefined)
      .then(() => {
        this.nextPass = undefined;
        return this.startPass();
      });
    return this.nextPass;
  }

  private startPass(): Promise<void> {
    this.reconciling = this.reconcileOnce().finally(() => {
      this.reconciling = undefined;
      // A pass that failed half-way may have written without telling anyone.
      this.changed();
    });
    return this.reconciling;
  }

  /** Resolves when no reconcile pass is running or due (the app waits for it before closing the database). */
  async idle(): Promise<void> {
    while (this.reconciling || this.nextPass) await (this.nextPass ?? this.reconciling)?.catch(() => undefined);
  }

  private async reconcileOnce(): Promise<void> {
    const seen = await this.driver.list();
    const live = await this.repository.listLive(this.driver.scope);
    const byId = new Map(live.map((row) => [row.id, row]));
    const byProviderId = new Map(
      live.filter((row) => row.provider_instance_id).map((row) => [row.provider_instance_id as string, row]),
    );
    const handled = new Set<string>();
    let instancesChanged = false;
    let recordingsChanged = false;

    for (const instance of seen) {
      // An instance that names its launch is that row's alone: recordings sharing one EC2 instance are
      // one row each, all with its provider id.
      let row = instance.launchId ? byId.get(instance.launchId) : byProviderId.get(instance.providerInstanceId);
      if (!row) {
        if (!ACTIVE_STATES.includes(instance.state) && instance.state !== 'stopping') continue;
        // Not among the live rows: an ended row the recorder outlived, or an orphan with no row at all.
        row =
          (instance.launchId
            ? await this.repository.findById(instance.launchId)
            : await this.repository.findByProviderId(this.driver.scope, instance.providerInstanceId)) ??
          (await this.adopt(instance));
        if (!row) {
          await this.reaper.unknown(instance);
          continue;
        }
        // A row another server took over (its server was lost): this recorder's end is no longer the row's.
        if (!this.isOwn(row)) continue;
        instancesChanged = true;
      }
      // A machine past its window and the grace ends; the next pass reads its end.
      if (await this.reaper.overdue(row, instance)) {
        instancesChanged = true;
        handled.add(row.id);
        continue;
      }
      // A recorder this row had before the fleet relaunched it (EC2 lists ended machines for a while):
      // its reading was kept when it ended, and its end is not the row's.
      if (row.provider_instance_id && row.provider_instance_id !== instance.providerInstanceId) continue;
      handled.add(row.id);
      if (await this.relaunch.handle(row, instance)) {
        instancesChanged = true;
        recordingsChanged = true;
        continue;
      }
      // The recording first: a console that reads between the two writes sees an instance still
      // running with its outcome known, never a terminated instance whose recording reads "recording".
      if (
        instance.recording &&
        (await this.recordings.applyReading(row.id, instance.recording, row.job_id, windowOf(row)))
      )
        recordingsChanged = true;
      if (await this.apply(row, instance)) instancesChanged = true;
    }

    this.reaper.forgetAllBut(new Set(seen.map((instance) => instance.providerInstanceId)));
    const now = this.clock.now();
    for (const row of live) {
      if (handled.has(row.id)) continue;
      const age = now.getTime() - Date.parse(row.updated_at);
      const reason = row.provider_instance_id
        ? 'The provider no longer reports this instance'
        : 'The launch did not complete';
      if (age < (row.provider_instance_id ? VANISHED_GRACE_MS : LAUNCH_ABANDONED_MS)) continue;
      await this.repository.update(row.id, {
        state: 'terminated',
        ended_at: now.toISOString(),
        state_reason: reason,
        updated_at: now.toISOString(),
      });
      if (await this.recordings.markEnded(row.id, reason, windowOf(row))) recordingsChanged = true;
      instancesChanged = true;
    }
    if (instancesChanged) this.events.instancesChanged();
    if (recordingsChanged) this.events.recordingsChanged();
  }

  /** Brings one row to what the driver reports; true when it changed. */
  private async apply(row: InstanceRow, instance: ProviderInstance): Promise<boolean> {
    const now = this.clock.now();
    const ended = instance.state === 'stopped' || instance.state === 'terminated';
    // A terminate in progress is not undone by a reading taken before the recorder saw it.
    const state = row.state === 'stopping' && !ended ? 'stopping' : instance.state;
    const changes: Partial<InstanceRow> = {};
    if (state !== row.state) changes.state = state;
    if (!row.provider_instance_id) changes.provider_instance_id = instance.providerInstanceId;
    if (!row.running_at && instance.mediaFlowing) {
      changes.running_at = now.toISOString();
      this.events.reachedRunning(Math.max(0, (now.getTime() - Date.parse(row.launch_time)) / 1000));
    }
    if (ended && !row.ended_at) changes.ended_at = now.toISOString();
    if (ended && instance.stateReason && instance.stateReason !== row.state_reason)
      changes.state_reason = instance.stateReason;
    if (Object.keys(changes).length === 0) return false;
    await this.repository.update(row.id, { ...changes, updated_at: now.toISOString() });
    return true;
  }

  /** An active instance the table does not know (launched by a server that lost its row): take it in. */
  private async adopt(instance: ProviderInstance): Promise<InstanceRow | undefined> {
    if (!instance.config) return undefined;
    const now = this.clock.now().toISOString();
    const id = instance.launchId ?? newId('cap');
    const row = await this.repository.insert({
      id,
      provider: this.driver.kind,
      scope: this.driver.scope,
      provider_instance_id: instance.providerInstanceId,
      name: instance.name,
      state: instance.state,
      instance_type: instance.instanceType,
      mosque_id: instance.config.mosque_id,
      url: instance.config.url,
      method: instance.config.method,
      duration: instance.config.duration,
      width: instance.config.width,
      height: instance.config.height,
      image_id: instance.imageId,
      launch_time: now,
      running_at: null,
      ended_at: null,
      state_reason: 'Adopted: found running without a record',
      job_id: null,
      updated_at: now,
      // Its window is not known here: an adopted recorder is not relaunched.
      window_start: null,
      window_end: null,
    });
    await this.recordings.create({
      id: newId('rec'),
      instanceId: id,
      mosqueId: instance.config.mosque_id,
      url: instance.config.url,
      filePath: instance.recording?.filePath ?? null,
    });
    this.log.info({ instanceId: id, providerInstanceId: instance.providerInstanceId }, 'adopted an orphan instance');
    return row;
  }

  /** Takes over the live rows of a server lost with its machine (continuation.ts): continued here, or judged. */
  async continueLost(lost: LostScope): Promise<Continued> {
    const done = await this.continuation.take(lost);
    if (done.continued + done.judged > 0) {
      this.events.instancesChanged();
      this.events.recordingsChanged();
    }
    return done;
  }

  /** The scopes (every server's) that have recorders which may still be working. */
  liveScopes(): Promise<string[]> {
    return this.repository.liveScopes();
  }

  /** How many recorders may still be working in each scope, every server's included. */
  liveCountsByScope(): Promise<{ scope: string; count: number }[]> {
    return this.repository.liveCountsByScope();
  }

  /** Rows whose recorder may still be working (pending, running, stopping). */
  liveRows(): Promise<InstanceRow[]> {
    return this.repository.listLive(this.driver.scope);
  }

  /** The newest rows, for callers that want more than the console's fields. */
  recentRows(): Promise<InstanceRow[]> {
    return this.newestRows();
  }

  async countByState(): Promise<Record<string, number>> {
    return this.repository.countByState();
  }

  runtimeHoursOf(row: InstanceRow): number {
    return runtimeHours(row, this.clock.now());
  }
}

/** The window a row was launched for, as milliseconds (rows from before migration 011 have none). */
function windowOf(row: InstanceRow): { start: number; end: number } | null {
  return row.window_start && row.window_end
    ? { start: Date.parse(row.window_start), end: Date.parse(row.window_end) }
    : null;
}
