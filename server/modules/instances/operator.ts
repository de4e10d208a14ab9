import type { Instance, LaunchConfig, ScheduledLaunch, TerminateResult } from '../../../contract/instances';
import { withoutCredentials } from '../../../recorder/recorder-state';
import { badRequest } from '../../lib/http-error';
import type { ActivityActor, ActivityService } from '../activity';
import type { MosquesService } from '../mosques';
import type { InstancesService } from './service';

export interface OperatorLaunchResult {
  instances: Instance[];
  failed: { index: number; mosque_id: string | null; error: string }[];
  scheduled: ScheduledLaunch[];
}

/**
 * What an operator does to the fleet from the console: launch, terminate, emergency stop. Each is
 * checked (a recording filed under an unknown mosque would be lost to every list) and written to
 * the activity log under the operator's name, as every other module's service does. The scheduler
 * launches through the fleet provider instead: its launches are the scheduler's own, not a person's.
 */
export class OperatorFleetActions {
  constructor(
    private readonly deps: {
      instances: Pick<InstancesService, 'launch' | 'terminate' | 'terminateAll' | 'breaker'>;
      activity: Pick<ActivityService, 'record'>;
      mosques: Pick<MosquesService, 'listByIds'>;
    },
  ) {}

  async launch(actor: ActivityActor, configs: LaunchConfig[], maxWorkers: number): Promise<OperatorLaunchResult> {
    await this.refuseUnknownMosques(configs.map((config) => config.mosque_id));
    const result = await this.deps.instances.launch(configs, maxWorkers);
    for (const launched of result.instances) {
      await this.deps.activity.record({
        actor,
        action: 'instance.launch',
        target: { type: 'instance', id: launched.id, label: launched.name },
        // An answer's URL: its password and tokens are already masked (toInstance).
        detail: { url: launched.url, mosque_id: launched.mosque_id },
      });
    }
    for (const later of result.scheduled) {
      await this.deps.activity.record({
        actor,
        action: 'instance.schedule',
        target: { type: 'job', id: later.job_id, label: later.window_start },
        detail: { url: withoutCredentials(configs[later.index].url), mosque_id: later.mosque_id },
      });
    }
    return result;
  }

  async terminate(actor: ActivityActor, instanceIds: string[]): Promise<TerminateResult[]> {
    const results = await this.deps.instances.terminate(instanceIds, `Stopped by ${actor.username}`);
    for (const result of results.filter((r) => r.success)) {
      await this.deps.activity.record({
        actor,
        action: 'instance.terminate',
        target: { type: 'instance', id: result.instance_id },
      });
    }
    return results;
  }

  async emergencyStop(actor: ActivityActor): Promise<TerminateResult[]> {
    const results = await this.deps.instances.terminateAll(`Emergency stop by ${actor.username}`);
    const terminated = results.filter((r) => r.success).length;
    await this.deps.activity.record({
      actor,
      action: 'instance.emergency_stop',
      detail: { terminated, failed: results.length - terminated },
    });
    return results;
  }

  async closeLaunchBreaker(actor: ActivityActor): Promise<void> {
    await this.deps.instances.breaker.close(`by ${actor.username}`);
    await this.deps.activity.record({ actor, action: 'instance.breaker_close' });
  }

  private async refuseUnknownMosques(ids: Array<string | null>): Promise<void> {
    const wanted = [...new Set(ids.filter((id): id is string => id !== null))];
    if (wanted.length === 0) return;
    const known = new Set((await this.deps.mosques.listByIds(wanted)).map((mosque) => mosque.mosque_id));
    const unknown = wanted.filter((id) => !known.has(id));
    if (unknown.length > 0) {
      throw badRequest(
        `Unknown mosque ${unknown.map((id) => `"${id}"`).join(', ')}: add it in the Config Generator first, or launch without a mosque`,
      );
    }
  }
}
