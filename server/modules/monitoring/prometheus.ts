import { Gauge, Registry, type Metric } from 'prom-client';
import { RequestDurations } from './request-durations';

/** One value of a gauge, with its labels. */
export interface GaugeSample {
  labels?: Record<string, string>;
  value: number;
}

/** A gauge other modules fill: collected at each scrape of /metrics. */
export interface GaugeProvider {
  /** Prometheus metric name, e.g. capture_instances. */
  name: string;
  help: string;
  /** The label names its samples carry. */
  labelNames?: string[];
  /**
   * A figure of the whole fleet (counted in the shared database): exported by one server only, without
   * a server label, so that summing the servers' series does not multiply it.
   */
  fleet?: boolean;
  collect(): Promise<GaugeSample[]> | GaugeSample[];
}

export interface RequestLabels {
  method: string;
  route: string;
  status_code: string;
}

export const PROMETHEUS_CONTENT_TYPE = Registry.PROMETHEUS_CONTENT_TYPE;
/** Upper bounds (seconds) of the request-duration histogram. */
export const DURATION_BUCKETS_SECONDS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/**
 * This server's /metrics, on prom-client: registries of its own (not prom-client's global one, so that
 * several apps in one process, as in the tests, each count their own). This server's series carry a
 * `server` label once it is known; the fleet's gauges are kept apart and rendered only when asked.
 */
export class PrometheusMetrics {
  private readonly registry = new Registry();
  private readonly fleetRegistry = new Registry();
  private readonly requestDurations = new RequestDurations(
    'http_request_duration_seconds',
    'Duration of /api requests',
    DURATION_BUCKETS_SECONDS,
  );

  constructor() {
    // The registry types its metrics as its own classes; it only calls get() on this one, as on them.
    this.registry.registerMetric(this.requestDurations as unknown as Metric);
  }

  /** Labels every series of this server with its id (servers sharing a database scrape apart). */
  labelServer(serverId: string): void {
    this.registry.setDefaultLabels({ server: serverId });
  }

  /** The series of one label set: where a request with these labels records its duration (seconds). */
  requestObserver(labels: RequestLabels): (seconds: number) => void {
    return this.requestDurations.observer(labels);
  }

  /** Registers a gauge read at every scrape; a name prom-client refuses (invalid, taken) throws here. */
  addGauge(provider: GaugeProvider): void {
    new Gauge({
      name: provider.name,
      help: provider.help,
      labelNames: provider.labelNames ?? [],
      registers: [provider.fleet ? this.fleetRegistry : this.registry],
      async collect() {
        const samples = await provider.collect();
        this.reset();
        for (const sample of samples) this.set(sample.labels ?? {}, sample.value);
      },
    });
  }

  has(name: string): boolean {
    return this.registry.getSingleMetric(name) !== undefined || this.fleetRegistry.getSingleMetric(name) !== undefined;
  }

  /**
   * The text format, the fleet's gauges included when `withFleet`; a gauge whose provider fails is left
   * out of this scrape and reported to `onError`.
   */
  async render(withFleet: boolean, onError: (name: string, error: unknown) => void): Promise<string> {
    const parts: string[] = [];
    for (const registry of withFleet ? [this.registry, this.fleetRegistry] : [this.registry]) {
      for (const { name } of registry.getMetricsAsArray()) {
        try {
          parts.push(await registry.getSingleMetricAsString(name));
        } catch (error) {
          onError(name, error);
        }
      }
    }
    return `${parts.join('\n')}\n`;
  }
}
