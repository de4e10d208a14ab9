import type { InstanceState } from '../../../contract/instances';
import {
  ProviderError,
  recordingWindow,
  type CaptureProvider,
  type LaunchConfig,
  type LaunchedInstance,
  type LaunchOptions,
  type ProviderInstance,
  type ProviderRecording,
} from '../../../server/capture/provider';
import type { Clock } from '../../../server/lib/clock';

/*
 * A remote fleet as the server sees EC2: each launch is a new machine with its own id, a machine that
 * dies is gone (nothing restarts it), and the server learns of it only by listing. Each machine's
 * recorder gets media from its start to its end, and reports it like a real recorder does.
 */

interface Machine {
  id: string;
  launchId: string;
  key: string;
  config: LaunchConfig;
  window: { start: number; end: number };
  startedAt: number;
  endedAt: number | null;
  endReason: string | null;
  byOperator: boolean;
}

const iso = (ms: number) => new Date(ms).toISOString();

export class RemoteFleet implements CaptureProvider {
  readonly kind = 'aws' as const;
  readonly scope = 'remote:test';
  readonly reconcileIntervalMs = 3_600_000;
  readonly supervisesRecorders = false;
  readonly leadSeconds = 0;
  readonly machines: Machine[] = [];

  constructor(private readonly clock: Clock) {}

  async launch(config: LaunchConfig, options: LaunchOptions = {}): Promise<LaunchedInstance> {
    const key = options.idempotencyKey ?? options.launchId ?? 'none';
    let machine = this.machines.find((m) => m.key === key);
    const existing = machine !== undefined;
    if (!machine) {
      const now = this.clock.now();
      const told = recordingWindow(config, options, now);
      machine = {
        id: `m-${this.machines.length + 1}`,
        launchId: options.launchId ?? 'none',
        key,
        config,
        window: { start: Date.parse(told.windowStart), end: Date.parse(told.windowEnd) },
        startedAt: now.getTime(),
        endedAt: null,
        endReason: null,
        byOperator: false,
      };
      this.machines.push(machine);
    }
    return {
      launchId: machine.launchId,
      providerInstanceId: machine.id,
      name: `remote-${machine.id}`,
      state: 'pending',
      instanceType: 'remote',
      imageId: null,
      filePath: null,
      existing,
    };
  }

  /** The machine dies (crash, hardware, spot reclaim) at the clock's now. */
  kill(id: string, reason = 'Instance stopped unexpectedly'): void {
    const machine = this.machine(id);
    machine.endedAt = this.clock.now().getTime();
    machine.endReason = reason;
  }

  /** Machines that reached their window's end stop on their own. */
  private settle(now: number): void {
    for (const m of this.machines)
      if (m.endedAt === null && now >= m.window.end)
        Object.assign(m, { endedAt: m.window.end, endReason: 'Recording window ended' });
  }

  async terminate(instanceId: string): Promise<void> {
    const machine = this.machine(instanceId);
    machine.byOperator = true;
    this.kill(instanceId, 'User initiated');
  }

  async list(): Promise<ProviderInstance[]> {
    const now = this.clock.now().getTime();
    this.settle(now);
    return this.machines.map((m) => {
      const state: InstanceState = m.endedAt === null ? 'running' : 'terminated';
      return {
        providerInstanceId: m.id,
        launchId: m.launchId,
        name: `remote-${m.id}`,
        state,
        stateReason: m.endReason,
        instanceType: 'remote',
        config: m.config,
        jobId: null,
        imageId: null,
        mediaFlowing: true,
        recording:
          this.withoutResult.has(m.id) && m.endedAt !== null
            ? { status: 'failed', bytes: 0, mediaSeconds: null, filePath: null, reason: 'No result' }
            : this.reading(m, now),
      };
    });
  }

  /** Media from its start to its end (or now): what it lacks of the window before it started is its gap. */
  private reading(m: Machine, now: number): ProviderRecording {
    const until = Math.min(m.endedAt ?? now, m.window.end);
    const from = Math.max(m.startedAt, m.window.start);
    const covered = Math.max(0, until - from) / 1000;
    const expected = (m.window.end - m.window.start) / 1000;
    const status =
      m.endedAt === null ? 'recording' : covered >= expected * 0.99 ? 'captured' : covered > 0 ? 'partial' : 'failed';
    return {
      status,
      bytes: Math.round(covered * 1000),
      mediaSeconds: covered,
      filePath: null,
      reason: status === 'partial' ? m.endReason : null,
      expectedSeconds: expected,
      coveredSeconds: covered,
      gaps:
        from > m.window.start
          ? [
              {
                start: iso(m.window.start),
                end: iso(from),
                cause: 'recorder_down',
                reason: 'Recorder not started yet',
                content_lost_seconds: (from - m.window.start) / 1000,
              },
            ]
          : [],
      reconnects: 1,
      measuredUntil: iso(until),
      stoppedByOperator: m.byOperator,
    };
  }

  /** Machines whose recorder left no result (an EC2 machine lost with its disk): read as nothing recorded. */
  readonly withoutResult = new Set<string>();

  private machine(id: string): Machine {
    const machine = this.machines.find((m) => m.id === id);
    if (!machine) throw new ProviderError('not_found', `No machine ${id}`);
    return machine;
  }

  /** What each machine's console shows (a test sets it, as a failing boot would print it). */
  readonly consoles = new Map<string, string[]>();

  async logs(instanceId: string, lines: number): Promise<string[]> {
    return (this.consoles.get(instanceId) ?? []).slice(-lines);
  }
  createImage(): Promise<never> {
    return Promise.reject(new ProviderError('invalid', 'The remote test fleet makes no images'));
  }
  async listImages(): Promise<[]> {
    return [];
  }
  deleteImage(imageId: string): Promise<void> {
    return Promise.reject(new ProviderError('not_found', `No image ${imageId}`));
  }
  async health() {
    return { provider: 'aws' as const, status: 'operational' as const, detail: 'remote test fleet', latencyMs: 0 };
  }
}
