/**
 * An in-memory CaptureProvider for the live-feed benchmark. It stands in for the ffmpeg recorders
 * on purpose: that benchmark measures the live feed's fan-out of one state change (database update,
 * instance list, one serialisation, 100 sockets), not how fast a recorder starts (capture-first-bytes
 * measures that with the real local driver). Launches and terminations take effect at once.
 */
import type { InstanceState } from '../contract/instances';
import { ImagelessProvider } from './imageless-provider';
import {
  ProviderError,
  type CaptureProvider,
  type LaunchConfig,
  type LaunchedInstance,
  type LaunchOptions,
  type ProviderHealth,
  type ProviderInstance,
} from '../server/capture/provider';

interface MemoryInstance {
  id: string;
  name: string;
  state: InstanceState;
  config: LaunchConfig;
  jobId: string | null;
}

export class MemoryCaptureProvider extends ImagelessProvider implements CaptureProvider {
  protected readonly title = 'The benchmark driver';
  readonly kind = 'local' as const;
  readonly scope: string = 'memory:bench';
  /** The benchmark reconciles by hand; the background pass never gets in the way of a measurement. */
  readonly reconcileIntervalMs = 3_600_000;
  /** Its instances never die on their own: nothing for the fleet to relaunch. */
  readonly supervisesRecorders = true;
  readonly leadSeconds = 0;
  private readonly instances = new Map<string, MemoryInstance>();
  private counter = 0;

  async launch(config: LaunchConfig, options: LaunchOptions = {}): Promise<LaunchedInstance> {
    const id = options.launchId ?? `mem-${++this.counter}`;
    const name = options.name ?? `memory-${id}`;
    this.instances.set(id, { id, name, state: 'running', config, jobId: options.jobId ?? null });
    return {
      launchId: id,
      providerInstanceId: id,
      name,
      state: 'pending',
      instanceType: 'memory',
      imageId: null,
      filePath: null,
      existing: false,
    };
  }

  async terminate(instanceId: string): Promise<void> {
    const instance = this.instances.get(instanceId);
    if (!instance) throw new ProviderError('not_found', `No instance ${instanceId}`);
    // Stays "stopping" as far as the fleet's table goes: the benchmark never reconciles after this.
    instance.state = 'terminated';
  }

  async list(): Promise<ProviderInstance[]> {
    return [...this.instances.values()].map((i) => ({
      providerInstanceId: i.id,
      launchId: i.id,
      name: i.name,
      state: i.state,
      stateReason: null,
      instanceType: 'memory',
      config: i.config,
      jobId: i.jobId,
      imageId: null,
      mediaFlowing: i.state === 'running',
      recording: null,
    }));
  }

  async health(): Promise<ProviderHealth> {
    return { provider: 'local', status: 'operational', detail: 'in-memory benchmark driver', latencyMs: 0 };
  }
}
