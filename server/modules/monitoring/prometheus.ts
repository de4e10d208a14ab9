import { Gauge, Histogram, Registry } from 'prom-client';

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
  private readonly requestDurations = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Duration of /api requests',
    labelNames: ['method', 'route', 'status_code'],
    buckets: DURATION_BUCKETS_SECONDS,
    registers: [this.registry],
  });

  /** Each label set's series, looked up once: prom-client would hash the labels again on every request. */
  private readonly requestSeries = new Map<string, ReturnType<Histogram['labels']>>();

  observeRequest(seconds: number, labels: RequestLabels): void {
    const key = `${labels.method} ${labels.status_code} ${labels.route}`;
    let series = this.requestSeries.get(key);
    if (!series) {
      series = this.requestDurations.labels({ ...labels });
      this.requestSeries.set(key, series);
    }
    series.observe(seconds);
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
