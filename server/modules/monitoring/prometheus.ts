import { DURATION_BUCKETS_SECONDS, type HistogramSeries } from './response-times';

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
  collect(): Promise<GaugeSample[]> | GaugeSample[];
}

export const PROMETHEUS_CONTENT_TYPE = 'text/plain; version=0.0.4; charset=utf-8';
const METRIC_NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;

const escapeHelp = (text: string) => text.replace(/\\/g, '\\\\').replace(/\n/g, '\\n');
const escapeLabel = (text: string) => text.replace(/\\/g, '\\\\').replace(/\n/g, '\\n').replace(/"/g, '\\"');

function formatValue(value: number): string {
  if (Number.isNaN(value)) return 'NaN';
  if (value === Infinity) return '+Inf';
  if (value === -Infinity) return '-Inf';
  return String(value);
}

function formatLabels(labels: Record<string, string> | undefined): string {
  const entries = Object.entries(labels ?? {});
  if (entries.length === 0) return '';
  return `{${entries.map(([key, value]) => `${key}="${escapeLabel(value)}"`).join(',')}}`;
}

export function assertMetricName(name: string): void {
  if (!METRIC_NAME.test(name)) throw new Error(`${name} is not a valid Prometheus metric name`);
}

/** The text exposition format (version 0.0.4) of one gauge. */
export function renderGauge(name: string, help: string, samples: GaugeSample[]): string {
  const lines = [`# HELP ${name} ${escapeHelp(help)}`, `# TYPE ${name} gauge`];
  for (const sample of samples) lines.push(`${name}${formatLabels(sample.labels)} ${formatValue(sample.value)}`);
  return `${lines.join('\n')}\n`;
}

/** A histogram with cumulative buckets, `_sum` and `_count`, per label set. */
export function renderHistogram(name: string, help: string, series: HistogramSeries[]): string {
  const lines = [`# HELP ${name} ${escapeHelp(help)}`, `# TYPE ${name} histogram`];
  for (const s of series) {
    const labels = { ...s.labels };
    let cumulative = 0;
    DURATION_BUCKETS_SECONDS.forEach((bound, i) => {
      cumulative += s.buckets[i];
      lines.push(`${name}_bucket${formatLabels({ ...labels, le: String(bound) })} ${cumulative}`);
    });
    lines.push(`${name}_bucket${formatLabels({ ...labels, le: '+Inf' })} ${s.count}`);
    lines.push(`${name}_sum${formatLabels(labels)} ${formatValue(s.sum)}`);
    lines.push(`${name}_count${formatLabels(labels)} ${s.count}`);
  }
  return `${lines.join('\n')}\n`;
}
