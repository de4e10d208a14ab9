import type { FastifyBaseLogger } from 'fastify';
import type { CaptureProvider, ProviderInstance } from '../../capture/provider';
import type { Clock } from '../../lib/clock';
import type { AlarmsService } from '../alarms';
import type { InstanceRow, InstancesRepository } from './repository';

/*
 * The reaper: a machine that outlives its window costs money and records nothing. Every reconcile
 * pass hands it what the driver lists: a live instance past its window's end plus the grace
 * (CAPTURE_GRACE_SECONDS) is terminated, and so is a live instance tagged as ours that no row knows
 * (its server lost the row; it cannot be adopted), once it has been seen for the grace. Each is logged
 * and alarmed once. Only on drivers that do not supervise their recorders (EC2): a local recorder
 * process ends itself at its window's end and is watched by its driver.
 */

const LIVE = new Set(['pending', 'running', 'stopping']);

export interface ReaperDeps {
  driver: CaptureProvider;
  repository: InstancesRepository;
  clock: Clock;
  log: FastifyBaseLogger;
  graceSeconds: number;
  alarms?: Pick<AlarmsService, 'raiseOnce'>;
}

export class FleetReaper {
  /** When this process first saw each unknown instance (ms): its grace counts from then. */
  private readonly unknownSince = new Map<string, number>();

  constructor(private readonly deps: ReaperDeps) {}

  private get active(): boolean {
    return !this.deps.driver.supervisesRecorders;
  }

  /**
   * `instance`, which `row` follows (or followed, before a relaunch), ends when it is past the row's
   * window plus the grace. True when it was told to end (the caller leaves the row to the next pass).
   */
  async overdue(row: InstanceRow, instance: ProviderInstance): Promise<boolean> {
    if (!this.active || !LIVE.has(instance.state)) return false;
    const end = row.window_end ? Date.parse(row.window_end) : Date.parse(row.launch_time) + row.duration * 1000;
    const late = this.deps.clock.now().getTime() - end;
    if (late <= this.deps.graceSeconds * 1000) return false;
    const reason = `Terminated by the server: still ${instance.state} ${Math.round(late / 1000)} s after its window ended`;
    if (!(await this.reap(instance, row.id, row.mosque_id, reason))) return false;
    // The row follows this machine: it ends as terminated by the server (no relaunch, no alarm of a death).
    if (row.provider_instance_id === instance.providerInstanceId && row.state !== 'stopping')
      await this.deps.repository.update(row.id, {
        state: 'stopping',
        state_reason: reason,
        updated_at: this.deps.clock.now().toISOString(),
      });
    return true;
  }

  /** A live instance tagged as ours that no row knows: ended once seen for the grace. */
  async unknown(instance: ProviderInstance): Promise<void> {
    if (!this.active || !LIVE.has(instance.state)) return;
    const now = this.deps.clock.now().getTime();
    const since = this.unknownSince.get(instance.providerInstanceId) ?? now;
    this.unknownSince.set(instance.providerInstanceId, since);
    if (now - since <= this.deps.graceSeconds * 1000) return;
    const reason = `Terminated by the server: tagged as ours but unknown to it for ${Math.round((now - since) / 1000)} s`;
    if (await this.reap(instance, instance.launchId, null, reason))
      this.unknownSince.delete(instance.providerInstanceId);
  }

  /** Terminates the machine, logs it and raises its alarm (once per machine); false when the provider refused. */
  private async reap(
    instance: ProviderInstance,
    launchId: string | null,
    mosqueId: string | null,
    reason: string,
  ): Promise<boolean> {
    const { driver, log, alarms } = this.deps;
    try {
      await driver.terminate(instance.providerInstanceId, { reason, ...(launchId ? { launchId } : {}) });
    } catch (error) {
      log.error({ err: error, providerInstanceId: instance.providerInstanceId }, 'reaping an instance failed');
      return false;
    }
    log.warn({ providerInstanceId: instance.providerInstanceId, launchId, reason }, 'reaped an instance');
    await alarms?.raiseOnce({
      kind: 'instance_reaped',
      key: `reaped:${instance.providerInstanceId}`,
      message: `${instance.name} (${instance.providerInstanceId}): ${reason}`,
      mosqueId,
      instanceId: launchId,
    });
    return true;
  }

  /** The unknown instances no longer listed are forgotten (the map does not grow with the fleet's history). */
  forgetAllBut(listed: Set<string>): void {
    for (const id of this.unknownSince.keys()) if (!listed.has(id)) this.unknownSince.delete(id);
  }
}
