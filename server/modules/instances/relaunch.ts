import type { FastifyBaseLogger } from 'fastify';
import { failureMessage } from '../../capture/http-errors';
import type { CaptureProvider, ProviderInstance } from '../../capture/provider';
import type { Clock } from '../../lib/clock';
import type { RecordingsService } from '../recordings';
import { parseRuns } from '../recordings';
import type { InstanceRow, InstancesRepository } from './repository';

/*
 * The fleet's answer to a recorder that dies inside its window on a driver that does not relaunch
 * its own (EC2: the machine is gone with its recorder). The reconcile pass that sees the end starts
 * a new one at once (so within one reconcile interval, 10 s on aws) for the same window, under the
 * same instance and recording rows; the recording's coverage becomes the union of its runs.
 */

/** Relaunches of one instance; a recorder that keeps dying is then left ended (its recording partial). */
export const MAX_FLEET_RELAUNCHES = 10;
/** A recorder ending this close to its window's end is not replaced: a new one would record next to nothing. */
export const RELAUNCH_MARGIN_MS = 60_000;

const ENDED = new Set(['stopped', 'terminated']);

export class FleetRelaunch {
  constructor(
    private readonly driver: CaptureProvider,
    private readonly repository: InstancesRepository,
    private readonly recordings: RecordingsService,
    private readonly clock: Clock,
    private readonly log: FastifyBaseLogger,
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
    if (now.getTime() >= Date.parse(row.window_end) - RELAUNCH_MARGIN_MS) return false;
    const recording = await this.recordings.findRowByInstance(row.id);
    if (!recording || recording.status !== 'recording') return false;
    const count = parseRuns(recording.runs).length + 1;
    if (count > MAX_FLEET_RELAUNCHES) return false;

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
   * Starts a recorder that continues `row`'s recording for the rest of its window, under a key of its
   * own (`<job or row>:<what>`: the same recorder again if this is retried), and makes the row follow
   * it. Throws what the driver threw when it could not start one.
   */
  async startNext(row: InstanceRow, recordingId: string, what: string, stateReason: string): Promise<void> {
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
