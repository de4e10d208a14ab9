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
 * This server's /metrics, on prom-client: its own registry (not prom-client's global one, so that
 * several apps in one process, as in the tests, each count their own).
 */
export class PrometheusMetrics {
  private readonly registry = new Registry();
  private readonly requestDurations = new RequestDurations('http_request_duration_seconds', 'Duration of /api requests', DURATION_BUCKETS_SECONDS);

  constructor() {
    // The registry types its metrics as its own classes; it only calls get() on this one, as on them.
    this.registry.registerMetric(this.requestDurations as unknown as Metric);
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
      registers: [this.registry],
      async collect() {
        const samples = await provider.collect();
        this.reset();
        for (const sample of samples) this.set(sample.labels ?? {}, sample.value);
      },
    });
  }

  has(name: string): boolean {
    return this.registry.getSingleMetric(name) !== undefined;
  }

  /** The text format; a gauge whose provider fails is left out of this scrape and reported to `onError`. */
  async render(onError: (name: string, error: unknown) => void): Promise<string> {
    const parts: string[] = [];
    for (const metric of this.registry.getMetricsAsArray()) {
      const { name } = metric;
      try {
        parts.push(await this.registry.getSingleMetricAsString(name));
      } catch (error) {
        onError(name, error);
      }
    }
    return `${parts.join('\n')}\n`;
  }
}
