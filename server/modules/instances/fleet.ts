import { launchConfigSchema, type LaunchConfig } from '../../../contract/instances';
import type {
  CaptureProvider,
  CreateImageRequest,
  LaunchedInstance,
  LaunchOptions,
  ProviderHealth,
  ProviderImage,
  ProviderInstance,
} from '../../capture/provider';
import type { InstancesService } from './service';

/**
 * `ctx.capture`: the CaptureProvider the rest of the server uses (the scheduler launches through it,
 * monitoring asks its health). It is the configured driver wrapped by the fleet, so every launch is
 * validated, recorded in the instances table, idempotent per job, and announced on the live feed.
 * Ids it takes and returns are the fleet's (`cap-…`); the provider's own ids are accepted too.
 */
export class FleetCaptureProvider implements CaptureProvider {
  constructor(
    private readonly driver: CaptureProvider,
    private readonly instances: InstancesService,
  ) {}

  get kind() {
    return this.driver.kind;
  }

  get scope() {
    return this.driver.scope;
  }

  get reconcileIntervalMs() {
    return this.driver.reconcileIntervalMs;
  }

  get supervisesRecorders() {
    return this.driver.supervisesRecorders;
  }

  get leadSeconds() {
    return this.driver.leadSeconds;
  }

  async launch(config: LaunchConfig, options: LaunchOptions = {}): Promise<LaunchedInstance> {
    const valid = launchConfigSchema.parse(config);
    const { row, existing } = await this.instances.launchOne(valid, {
      jobId: options.jobId,
      idempotencyKey: options.idempotencyKey,
      stallTimeoutSeconds: options.stallTimeoutSeconds,
      windowStart: options.windowStart,
      windowEnd: options.windowEnd,
    });
    return {
      launchId: row.id,
      providerInstanceId: row.provider_instance_id ?? row.id,
      name: row.name,
      state: row.state,
      instanceType: row.instance_type,
      imageId: row.image_id,
      filePath: null, // the recording (and its file) is found by instance id through the recordings service
      existing,
    };
  }

  async terminate(instanceId: string, options: { reason?: string } = {}): Promise<void> {
    await this.instances.terminate([instanceId], options.reason ?? 'Terminated');
  }

  async list(): Promise<ProviderInstance[]> {
    return (await this.instances.recentRows()).map((row) => ({
      providerInstanceId: row.provider_instance_id ?? row.id,
      launchId: row.id,
      name: row.name,
      state: row.state,
      stateReason: row.state_reason,
      instanceType: row.instance_type,
      config: {
        url: row.url,
        duration: row.duration,
        width: row.width,
        height: row.height,
        mosque_id: row.mosque_id,
        method: row.method,
      },
      jobId: row.job_id,
      imageId: row.image_id,
      mediaFlowing: row.running_at !== null,
      recording: null,
    }));
  }

  async logs(instanceId: string, lines: number): Promise<string[]> {
    return (await this.instances.logs(instanceId, lines)).logs;
  }

  createImage(request: CreateImageRequest): Promise<ProviderImage> {
    return this.driver.createImage(request);
  }

  listImages(): Promise<ProviderImage[]> {
    return this.driver.listImages();
  }

  deleteImage(imageId: string): Promise<void> {
    return this.driver.deleteImage(imageId);
  }

  health(): Promise<ProviderHealth> {
    return this.driver.health();
  }
}
