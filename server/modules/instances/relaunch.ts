import type { FastifyBaseLogger } from 'fastify';
import { failureMessage } from '../../capture/http-errors';
import type { CaptureProvider, ContinuingFrom, ProviderInstance } from '../../capture/provider';
import type { Clock } from '../../lib/clock';
import type { RecordingsService } from '../recordings';
import { parseRuns } from '../recordings';
import type { LaunchBreaker } from './launch-breaker';
import type { InstanceRow, InstancesRepository } from './repository';

/*
 * The fleet's answer to a recorder that dies inside its window on a driver that does not relaunch
 * its own (EC2: the machine is gone with its recorder). The reconcile pass that sees the end starts
 * a new one at once (so within one reconcile interval, 10 s on aws) for the same window, under the
 * same instance and recording rows; the recording's coverage becomes the union of its runs.
 */

/** Relaunches of one instance; a recorder that keeps dying is then left ended (its recording partial). */
export const MAX_FLEET_RELAUNCHES = 10;
/**
 * Relaunches of a recording whose machines end without recording anything (launch failures): a
 * fault that kills a machine at once kills its replacement too, so at most 3 machines are tried.
 */
export const MAX_LAUNCH_RETRIES = 2;
/**
 * A recorder ending this close to its window's end is not replaced (nor closer than the driver's lead
 * time: a replacement would not be ready before the window closed).
 */
export const RELAUNCH_MARGIN_MS = 60_000;

/** How long after it should have been ready (its lead time, or its window's start) a machine counts as having started. */
export const READY_SLACK_MS = 120_000;

const ENDED = new Set(['stopped', 'terminated']);

export class FleetRelaunch {
  constructor(
    private readonly driver: CaptureProvider,
    private readonly repository: InstancesRepository,
    private readonly recordings: RecordingsService,
    private readonly clock: Clock,
    private readonly log: FastifyBaseLogger,
    private readonly breaker: LaunchBreaker,
  ) {}

  /**
   * When `instance` (the row's current recorder) ended early and nobody asked for it, starts another
   * and returns true; the row then follows the new recorder. False: the end stands (the caller applies it).
   */
  async handle(row: InstanceRow, instance: ProviderInstance): Promise<boolean> {
    if (this.driver.supervisesRecorders || !ENDED.has(instance.state)) return false;
    // An operator's terminate (or an emergency stop, a cancelled job) leaves the row stopping.
    if (row.state === 'stopping' || instance.recording?.stoppedByOperator) return false;
    if (!row.window_start || !row.window_end) return false;
    const now = this.clock.now();
    const margin = Math.max(RELAUNCH_MARGIN_MS, this.driver.leadSeconds * 1000);
    if (now.getTime() >= Date.parse(row.window_end) - margin) return false;
    const recording = await this.recordings.findRowByInstance(row.id);
    if (!recording || recording.status !== 'recording') return false;
    const runs = parseRuns(recording.runs);
    const count = runs.length + 1;
    if (count > MAX_FLEET_RELAUNCHES) return false;
    if (this.neverReady(row, runs, instance, now)) {
      await this.breaker.failed(recording.id, instance);
      const failures = runs.filter((run) => run.coveredSeconds === 0).length + 1;
      if (failures > MAX_LAUNCH_RETRIES) {
        this.log.warn({ instanceId: row.id, failures }, 'recorder machines keep ending without recording: no relaunch');
        return false;
      }
    }
    if (await this.breaker.isOpen()) {
      // Held, not given up: the next pass relaunches once the breaker closes, while the window allows.
      const held = 'Recorder ended early; relaunch held while launches are stopped (launch_breaker alarm)';
      if (row.state_reason !== held)
        await this.repository.update(row.id, { state_reason: held, updated_at: now.toISOString() });
      return true;
    }

    try {
      await this.startNext(
        row,
        recording.id,
        `relaunch:${count}`,
        `Relaunched (${count} of ${MAX_FLEET_RELAUNCHES}) after the recorder ended early: ${instance.stateReason ?? 'no reason given'}`,
      );
    } catch (error) {
      // The old recorder's end is not applied: the next pass sees it again and tries once more.
      this.log.warn({ err: error, instanceId: row.id }, 'relaunching a recorder failed');
      await this.repository.update(row.id, {
        state_reason: `Recorder ended early; relaunch failed: ${failureMessage(error)}`,
        updated_at: now.toISOString(),
      });
      return true;
    }
    await this.recordings.addRun(
      row.id,
      instance.recording,
      { start: Date.parse(row.window_start), end: Date.parse(row.window_end) },
      row.job_id,
    );
    this.log.warn(
      { instanceId: row.id, previous: instance.providerInstanceId, count },
      'relaunched a recorder that ended inside its window',
    );
    return true;
  }

  /**
   * Whether the machine is a launch failure: it ended without recording anything known, before it was
   * due to be ready plus READY_SLACK_MS. An EC2 machine that dies without its result reads as nothing
   * recorded, so one that had run well into its window is taken as a death mid-window, not a failure.
   */
  private neverReady(row: InstanceRow, runs: { relaunchedAt: string }[], instance: ProviderInstance, now: Date) {
    if ((instance.recording?.coveredSeconds ?? instance.recording?.mediaSeconds ?? 0) > 0) return false;
    const started = Date.parse(runs.at(-1)?.relaunchedAt ?? row.launch_time);
    const readyBy = Math.max(started + this.driver.leadSeconds * 1000, Date.parse(row.window_start ?? row.launch_time));
    return now.getTime() < readyBy + READY_SLACK_MS;
  }

  /**
   * Starts a recorder that continues `row`'s recording for the rest of its window, under a key of its
   * own (`<job or row>:<what>`: the same recorder again if this is retried), and makes the row follow
   * it; `continuing`: it continues a recording lost with its server, from where that one stopped. Throws
   * what the driver threw when it could not start one.
   */
  async startNext(
    row: InstanceRow,
    recordingId: string,
    what: string,
    stateReason: string,
    continuing?: ContinuingFrom,
  ): Promise<void> {
    if (!row.window_start || !row.window_end) throw new Error(`Instance ${row.id} has no window to continue`);
    const launched = await this.driver.launch(
      {
        url: row.url,
        duration: row.duration,
        width: row.width,
        height: row.height,
        mosque_id: row.mosque_id,
        method: row.method,
      },
      {
        launchId: row.id,
        recordingId,
        jobId: row.job_id,
        name: row.name,
        idempotencyKey: `${row.job_id ?? row.id}:${what}`,
        continues: true,
        ...(continuing ? { continuing } : {}),
        windowStart: row.window_start,
        windowEnd: row.window_end,
      },
    );
    // The row follows the new recorder first: were the server to stop before the run before it is
    // kept, the next pass must not launch yet another (it would lose that run's coverage, never a machine).
    await this.repository.update(row.id, {
      provider_instance_id: launched.providerInstanceId,
      state: 'pending',
      ended_at: null,
      state_reason: stateReason,
      updated_at: this.clock.now().toISOString(),
    });
  }
}
