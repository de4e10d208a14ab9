import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { SystemStatus } from '../../../contract/live';
import type { RecordingStats, SystemHealth, SystemMetrics } from '../../../contract/monitoring';
import type { Database } from '../../db/schema';
import type { Clock } from '../../lib/clock';
import type { LiveHub } from '../live';
import { HealthChecks, type HealthCheck } from './health';
import { PrometheusMetrics, type GaugeProvider, type GaugeSample } from './prometheus';
import { ResponseTimes } from './response-times';

/** Counts by a key (instances by state, recordings by status, scheduler jobs by status). */
export type CountsProvider = () => Promise<Record<string, number>>;

type CountsKind = 'instances' | 'recordings' | 'jobs';

const LAUNCH_AVERAGE = 'capture_instance_launch_seconds_average';
const COMPONENT_HEALTHY = 'capture_component_healthy';
/** Average launch time is taken over this many latest launches. */
const LAUNCHES_KEPT = 100;
/** GET /api/monitoring/system reuses a health report younger than this; the watcher refreshes it. */
const SYSTEM_MAX_AGE_MS = 10_000;

export interface MonitoringDeps {
  db: Kysely<Database>;
  clock: Clock;
  hub: LiveHub;
  log: FastifyBaseLogger;
  checkTimeoutMs?: number;
  /** Names this server on its series (its id in the servers table). */
  serverId?: string;
  /**
   * Whether this server is the one that exports the fleet's gauges (figures of the shared database,
   * which every server would otherwise repeat); default: it is (alone).
   */
  reportsFleet?: () => Promise<boolean>;
}

/**
 * Health and figures measured by this server. Other modules feed it through registerHealthCheck,
 * recordLaunchDuration, the provide*Counts hooks and registerGauge.
 */
export class MonitoringService {
  readonly responseTimes: ResponseTimes;
  private readonly health: HealthChecks;
  private readonly launchSeconds: number[] = [];
  private readonly counts: Partial<Record<CountsKind, CountsProvider>> = {};
  private readonly prometheusMetrics = new PrometheusMetrics();
  private readonly reportsFleet: () => Promise<boolean>;
  private snapshot: SystemHealth | undefined;
  private snapshotAt = 0;
  private running: Promise<SystemHealth> | undefined;
  private lastStatus: SystemStatus | undefined;
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly deps: MonitoringDeps) {
    this.responseTimes = new ResponseTimes(deps.clock);
    this.health = new HealthChecks(deps.db, deps.clock, deps.checkTimeoutMs);
    if (deps.serverId !== undefined) this.prometheusMetrics.labelServer(deps.serverId);
    this.reportsFleet = deps.reportsFleet ?? (async () => true);
    this.registerOwnGauges();
  }

  // ---- what other modules call -------------------------------------------------------------

  /** Adds or replaces a component check: `aws` for the capture provider, `prayer_times`, or a new one. */
  registerHealthCheck(name: string, check: HealthCheck): void {
    this.health.register(name, check);
    this.snapshot = undefined;
  }

  /**
   * The capture fleet's provider as the `aws` component (whichever driver runs). Its `operational`
   * (or `healthy`) is healthy; `degraded`, `down` or anything else is not, with the provider's detail.
   */
  registerCaptureProvider(provider: { health(): Promise<{ status: string; detail?: string }> }): void {
    this.registerHealthCheck('aws', async () => {
      const health = await provider.health();
      return {
        status: health.status === 'operational' || health.status === 'healthy' ? 'healthy' : 'unhealthy',
        detail: health.detail,
      };
    });
  }

  /** Seconds one instance took from launch to running. */
  recordLaunchDuration(seconds: number): void {
    if (!Number.isFinite(seconds) || seconds < 0) return;
    this.launchSeconds.push(seconds);
    if (this.launchSeconds.length > LAUNCHES_KEPT) this.launchSeconds.shift();
    this.launchAverageGauge();
  }

  /** Instances by state: shown in instance_metrics and exported as capture_instances{state}. */
  provideInstanceCounts(provider: CountsProvider): void {
    this.counts.instances = provider;
  }

  /** Recordings by status: total_recordings and capture_recordings{status}. */
  provideRecordingCounts(provider: CountsProvider): void {
    this.counts.recordings = provider;
  }

  /** Scheduler jobs by status: capture_scheduler_jobs{status}. */
  provideSchedulerJobCounts(provider: CountsProvider): void {
    this.counts.jobs = provider;
  }

  /** Any other gauge for /metrics. */
  registerGauge(gauge: GaugeProvider): void {
    this.prometheusMetrics.addGauge(gauge);
  }

  /**
   * How one route (an /api route's URL, or `unmatched`) records its requests: the console's figures and
   * /metrics, with each method and status's series looked up once per route, not once per request.
   */
  routeRecorder(route: string): (method: string, statusCode: number, durationMs: number) => void {
    const series = new Map<string, Map<number, (seconds: number) => void>>();
    return (method, statusCode, durationMs) => {
      this.responseTimes.record(durationMs);
      let byStatus = series.get(method);
      if (!byStatus) series.set(method, (byStatus = new Map()));
      let observe = byStatus.get(statusCode);
      if (!observe)
        byStatus.set(
          statusCode,
          (observe = this.prometheusMetrics.requestObserver({ method, route, status_code: String(statusCode) })),
        );
      observe(durationMs / 1000);
    };
  }

  // ---- health ---------------------------------------------------------------------------------

  /** The latest health report, re-checked when older than `maxAgeMs`. */
  async system(maxAgeMs = SYSTEM_MAX_AGE_MS): Promise<SystemHealth> {
    if (this.snapshot && this.deps.clock.now().getTime() - this.snapshotAt < maxAgeMs) return this.snapshot;
    return this.refresh();
  }

  /** Runs every check now (one run at a time) and tells the live feed when the overall status changed. */
  refresh(): Promise<SystemHealth> {
    this.running ??= this.health
      .run()
      .then((report) => {
        this.snapshot = report;
        this.componentHealthGauge();
        this.snapshotAt = this.deps.clock.now().getTime();
        this.publishIfChanged(report);
        return report;
      })
      .finally(() => {
        this.running = undefined;
      });
    return this.running;
  }

  /** The status of the latest report: the live feed's initial_data should carry it (undefined before the first check). */
  lastKnownStatus(): SystemStatus | undefined {
    return this.snapshot?.overall_status;
  }

  /** Re-checks every `intervalMs` (30 s in production) and once at once; 0 disables. */
  start(intervalMs: number): void {
    if (intervalMs <= 0 || this.timer) return;
    const tick = () =>
      void this.refresh().catch((error: unknown) => this.deps.log.warn({ err: error }, 'health check run failed'));
    tick();
    this.timer = setInterval(tick, intervalMs);
    this.timer.unref();
  }

  /** Stops the timer and waits for a run in progress, so nothing queries a closing database. */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.running?.catch(() => undefined);
  }

  /**
   * The first report is the baseline (a console learns it from initial_data or by polling); each
   * later change of the overall status is pushed to every live client.
   */
  private publishIfChanged(report: SystemHealth): void {
    const status = report.overall_status;
    const previous = this.lastStatus;
    this.lastStatus = status;
    if (previous === undefined || status === previous) return;
    this.deps.log.info({ status, previous, failing: report.failing }, 'system health changed');
    this.deps.hub.publish({ type: 'system_status_update', data: { status } });
    this.deps.hub.publish({ type: 'system_health', data: { overall_health: status } });
  }

  // ---- figures --------------------------------------------------------------------------------

  async metrics(): Promise<SystemMetrics> {
    const launches = this.launchSeconds;
    const average = launches.length ? launches.reduce((a, b) => a + b, 0) / launches.length : null;
    return {
      api_response_times: this.responseTimes.summary(),
      instance_metrics: {
        average_launch_time_seconds: average === null ? null : Math.round(average * 10) / 10,
        launches_measured: launches.length,
        by_state: await this.safeCounts('instances'),
      },
      websocket_metrics: {
        active_connections: this.deps.hub.connectionCount,
        messages_sent_24h: this.deps.hub.messagesSentLast24h(),
      },
      generated_at: this.deps.clock.now().toISOString(),
    };
  }

  async recordings(): Promise<RecordingStats> {
    const byStatus = this.counts.recordings ? await this.counts.recordings() : {};
    return { total_recordings: Object.values(byStatus).reduce((a, b) => a + b, 0), by_status: byStatus };
  }

  /** Everything in the Prometheus text format. A provider that fails is left out (and logged). */
  async prometheus(): Promise<string> {
    const withFleet = await this.reportsFleet().catch((error: unknown) => {
      this.deps.log.warn({ err: error }, 'could not tell which server exports the fleet gauges; this scrape has none');
      return false;
    });
    return this.prometheusMetrics.render(withFleet, (gauge, error) =>
      this.deps.log.warn({ err: error, gauge }, 'gauge collection failed'),
    );
  }

  /** The gauges this service fills itself; the launch average and component health appear once measured. */
  private registerOwnGauges(): void {
    const asSamples = (label: string, counts: Record<string, number>): GaugeSample[] =>
      Object.entries(counts).map(([key, value]) => ({ labels: { [label]: key }, value }));
    const gauges: GaugeProvider[] = [
      {
        name: 'capture_instances',
        help: 'Recording instances by state',
        labelNames: ['state'],
        fleet: true,
        collect: async () => asSamples('state', await this.safeCounts('instances')),
      },
      {
        name: 'capture_recordings',
        help: 'Recordings by status',
        labelNames: ['status'],
        fleet: true,
        collect: async () => asSamples('status', await this.safeCounts('recordings')),
      },
      {
        name: 'capture_scheduler_jobs',
        help: 'Scheduler jobs by status',
        labelNames: ['status'],
        fleet: true,
        collect: async () => asSamples('status', await this.safeCounts('jobs')),
      },
      {
        name: 'capture_websocket_connections',
        help: 'Live feed connections',
        collect: () => [{ value: this.deps.hub.connectionCount }],
      },
      {
        name: 'capture_websocket_messages_sent_24h',
        help: 'Live feed messages sent in the last 24 hours',
        collect: () => [{ value: this.deps.hub.messagesSentLast24h() }],
      },
    ];
    for (const gauge of gauges) this.prometheusMetrics.addGauge(gauge);
  }

  private launchAverageGauge(): void {
    if (this.prometheusMetrics.has(LAUNCH_AVERAGE)) return;
    this.prometheusMetrics.addGauge({
      name: LAUNCH_AVERAGE,
      help: 'Average seconds from launch to running',
      collect: () => [{ value: this.launchSeconds.reduce((a, b) => a + b, 0) / this.launchSeconds.length }],
    });
  }

  private componentHealthGauge(): void {
    if (this.prometheusMetrics.has(COMPONENT_HEALTHY)) return;
    this.prometheusMetrics.addGauge({
      name: COMPONENT_HEALTHY,
      help: 'Component health at the last check (1 healthy, 0 not)',
      labelNames: ['component'],
      collect: () =>
        Object.entries(this.snapshot?.components ?? {}).map(([component, health]) => ({
          labels: { component },
          value: health.status === 'healthy' ? 1 : 0,
        })),
    });
  }

  private async safeCounts(which: CountsKind): Promise<Record<string, number>> {
    const provider = this.counts[which];
    if (!provider) return {};
    try {
      return await provider();
    } catch (error) {
      this.deps.log.warn({ err: error, counts: which }, 'count provider failed');
      return {};
    }
  }
}
