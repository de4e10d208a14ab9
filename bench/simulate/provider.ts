import type { InstanceState } from '../../contract/instances';
import { ImagelessProvider } from '../../testkit/imageless-provider';
import {
  ProviderError,
  recordingWindow,
  type CaptureProvider,
  type LaunchConfig,
  type LaunchedInstance,
  type LaunchOptions,
  type ProviderHealth,
  type ProviderInstance,
  type ProviderRecording,
} from '../../server/capture/provider';
import type { Clock } from '../../server/lib/clock';
import type { SermonFaults } from './faults';
import { finalReading, progressReading } from './readings';
import { recordRun, RECORDER, streamTimeline, type MediaSpan, type StreamTimeline } from './recorder-model';

/*
 * A fleet of simulated remote recorders (EC2-like: the server learns what happens only by listing).
 * Each sermon's stream misbehaves as its drawn faults say, each recorder gets from it what the real
 * recorder would (recorder-model.ts), and a listing reports states and media coverage accordingly.
 * It never judges a Friday: jobs, ledger rows and alarms come from the server's own code.
 */

/** How often a running recorder reports its progress (coverage and gaps so far). */
const PROGRESS_EVERY_MS = 10 * 60_000;
/** How long an ended instance stays in listings: the fleet must see it end, across a server outage too. */
const LISTED_AFTER_END_MS = 15 * 60_000;

export interface Sermon {
  key: string;
  mosqueId: string;
  windowStart: number;
  windowEnd: number;
  faults: SermonFaults;
  stream: StreamTimeline;
  launchCalls: number;
  /** Crash instants not yet spent on a recorder. */
  crashes: number[];
  instances: SimInstance[];
}

export interface SimInstance {
  /** The provider's id: a new one for every launch, as EC2 gives (a relaunch is another machine). */
  id: string;
  /** The fleet's id it was launched for (a relaunch carries the same one). */
  launchId: string;
  name: string;
  idempotencyKey: string;
  config: LaunchConfig;
  jobId: string | null;
  sermon: Sermon;
  /** The window this recorder was told to record (what it measures its coverage against). */
  window: { start: number; end: number };
  launchedAt: number;
  stopAt: number;
  endReason: string;
  spans: MediaSpan[];
  connections: number;
  /** When this recorder last reported its progress. */
  reportedAt: number;
  /** Its last reading once it has ended (it no longer changes). */
  final?: ProviderRecording;
}

/** The world outside the fleet for one sermon: when its window really opens and closes, and its faults. */
export type SermonSource = (request: {
  jobId: string | null;
  mosqueId: string;
  now: number;
  durationMs: number;
}) => Promise<{
  windowStart: number;
  windowEnd: number;
  faults: SermonFaults;
}>;

export class SimulatedCaptureProvider extends ImagelessProvider implements CaptureProvider {
  protected readonly title = 'The simulated fleet';
  readonly kind = 'aws' as const;
  readonly scope = 'simulated:season';
  /** The season drives reconciliation itself, on its accelerated clock. */
  readonly reconcileIntervalMs = 24 * 3600_000;
  /** Like EC2: a recorder that dies is gone; the server's fleet must launch another. */
  readonly supervisesRecorders = false;
  readonly leadSeconds = 0;
  readonly sermons = new Map<string, Sermon>();
  private readonly byId = new Map<string, SimInstance>();
  private readonly listed = new Set<SimInstance>();
  private counter = 0;

  constructor(
    private readonly clock: Clock,
    private readonly world: SermonSource,
  ) {
    super();
  }

  async launch(config: LaunchConfig, options: LaunchOptions = {}): Promise<LaunchedInstance> {
    const now = this.clock.now().getTime();
    const key = options.idempotencyKey ?? options.jobId ?? options.launchId ?? `launch-${this.counter + 1}`;
    const earlier = [...this.listed].find((i) => i.idempotencyKey === key && i.stopAt > now);
    if (earlier) return this.launched(earlier, true);

    const sermon = await this.sermonFor(config, options, now);
    sermon.launchCalls++;
    if (sermon.launchCalls <= sermon.faults.launchFailures) {
      throw new ProviderError(
        'unavailable',
        `Simulated capacity error: no recorder could be started (launch ${sermon.launchCalls} of this sermon)`,
      );
    }
    const crash = sermon.crashes.find((at) => at > now);
    if (crash !== undefined) sermon.crashes.splice(sermon.crashes.indexOf(crash), 1);
    const told = recordingWindow(config, options, new Date(now));
    const window = { start: Date.parse(told.windowStart), end: Date.parse(told.windowEnd) };
    const stopAt = Math.min(window.end, crash ?? Infinity);
    const run = recordRun(sermon.stream, now, stopAt);
    const launchId = options.launchId ?? `sim-${this.counter + 1}`;
    const instance: SimInstance = {
      id: `i-sim-${++this.counter}`,
      launchId,
      name: options.name ?? `simulated-${launchId}`,
      idempotencyKey: key,
      config,
      jobId: options.jobId ?? null,
      sermon,
      window,
      launchedAt: now,
      stopAt,
      endReason:
        stopAt === crash
          ? 'Recorder died: the instance stopped unexpectedly (simulated crash)'
          : 'Recording window ended',
      spans: run.spans,
      connections: run.connections,
      reportedAt: now,
    };
    this.byId.set(instance.id, instance);
    this.listed.add(instance);
    sermon.instances.push(instance);
    return this.launched(instance, false);
  }

  async terminate(instanceId: string, options: { reason?: string } = {}): Promise<void> {
    const instance = this.byId.get(instanceId);
    if (!instance) throw new ProviderError('not_found', `No instance ${instanceId}`);
    const now = this.clock.now().getTime();
    if (instance.stopAt <= now) return;
    instance.stopAt = now;
    instance.endReason = options.reason ?? 'Terminated';
    instance.spans = instance.spans
      .filter((s) => s.start < now)
      .map((s) => ({ start: s.start, end: Math.min(s.end, now) }));
  }

  async list(): Promise<ProviderInstance[]> {
    const now = this.clock.now().getTime();
    const result: ProviderInstance[] = [];
    for (const instance of this.listed) {
      if (instance.stopAt + LISTED_AFTER_END_MS < now) {
        this.listed.delete(instance);
        continue;
      }
      result.push(this.describe(instance, now));
    }
    return result;
  }

  /** The next instant after `now` at which a recorder dies before its window closes. */
  nextEarlyEnd(now: number): number {
    let next = Infinity;
    for (const i of this.listed) if (i.stopAt > now && i.stopAt < i.window.end && i.stopAt < next) next = i.stopAt;
    return next;
  }

  /** The next instant after `now` at which a recorder finishes its window. */
  nextClosedEnd(now: number): number {
    let next = Infinity;
    for (const i of this.listed) if (i.stopAt > now && i.stopAt >= i.window.end && i.stopAt < next) next = i.stopAt;
    return next;
  }

  async health(): Promise<ProviderHealth> {
    return { provider: 'aws', status: 'operational', detail: 'simulated fleet', latencyMs: 0 };
  }

  private async sermonFor(config: LaunchConfig, options: LaunchOptions, now: number): Promise<Sermon> {
    const mosqueId = config.mosque_id ?? 'adhoc';
    const key = options.jobId ?? options.idempotencyKey ?? `${mosqueId}@${now}`;
    let sermon = this.sermons.get(key);
    if (!sermon) {
      const { windowStart, windowEnd, faults } = await this.world({
        jobId: options.jobId ?? null,
        mosqueId,
        now,
        durationMs: config.duration * 1000,
      });
      sermon = this.sermons.get(key) ?? {
        key,
        mosqueId,
        windowStart,
        windowEnd,
        faults,
        stream: streamTimeline(faults, windowStart),
        launchCalls: 0,
        crashes: faults.crashesAt.map((at) => windowStart + at),
        instances: [],
      };
      this.sermons.set(key, sermon);
    }
    return sermon;
  }

  private describe(instance: SimInstance, now: number): ProviderInstance {
    const ended = instance.stopAt <= now;
    const state: InstanceState = ended
      ? 'terminated'
      : now < instance.launchedAt + RECORDER.startupMs
        ? 'pending'
        : 'running';
    return {
      providerInstanceId: instance.id,
      launchId: instance.launchId,
      name: instance.name,
      state,
      stateReason: ended ? instance.endReason : null,
      instanceType: 'simulated',
      config: instance.config,
      jobId: instance.jobId,
      imageId: null,
      mediaFlowing: state === 'running',
      recording: ended ? (instance.final ??= finalReading(instance)) : this.progress(instance, now),
    };
  }

  /** Like a remote recorder, progress is reported now and then (the final reading always). */
  private progress(instance: SimInstance, now: number): ProviderRecording | null {
    if (now - instance.reportedAt < PROGRESS_EVERY_MS) return null;
    instance.reportedAt = now;
    return progressReading(instance, now);
  }

  private launched(instance: SimInstance, existing: boolean): LaunchedInstance {
    return {
      launchId: instance.launchId,
      providerInstanceId: instance.id,
      name: instance.name,
      state: 'pending',
      instanceType: 'simulated',
      imageId: null,
      filePath: null,
      existing,
    };
  }
}
