import type { ResponseTimeMinute } from '../../../contract/monitoring';
import type { Clock } from '../../lib/clock';

/** The rolling window of the figures: the last 5 minutes, at most the latest 1000 requests. */
export const WINDOW_MS = 5 * 60_000;
export const WINDOW_MAX_REQUESTS = 1000;
const HISTORY_MINUTES = 60;
const MINUTE_MS = 60_000;
/** Each minute keeps a uniform sample of at most this many durations (reservoir sampling). */
const MINUTE_SAMPLE_SIZE = 1024;
/** Upper bounds (seconds) of the Prometheus request-duration histogram. */
export const DURATION_BUCKETS_SECONDS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

export interface RequestLabels {
  method: string;
  route: string;
  status_code: string;
}

export interface HistogramSeries {
  labels: RequestLabels;
  /** Count per bucket of DURATION_BUCKETS_SECONDS (not cumulative). */
  buckets: number[];
  sum: number;
  count: number;
}

interface MinuteSample {
  durations: number[];
  seen: number;
}

/** Nearest-rank percentile of unsorted values. */
export function percentile(values: ArrayLike<number>, p: number): number | null {
  if (values.length === 0) return null;
  const sorted = Float64Array.from(values).sort();
  return sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)];
}

const round = (value: number | null): number | null => (value === null ? null : Math.round(value * 100) / 100);

/**
 * API response times measured by the server: a rolling window for average and p95, a per-minute
 * p95 for the last hour, and cumulative histograms for Prometheus. Recording is O(1) per request.
 */
export class ResponseTimes {
  private readonly at = new Float64Array(WINDOW_MAX_REQUESTS);
  private readonly ms = new Float64Array(WINDOW_MAX_REQUESTS);
  private stored = 0;
  private next = 0;
  private readonly minutes = new Map<number, MinuteSample>();
  private readonly histograms = new Map<string, HistogramSeries>();

  constructor(
    private readonly clock: Clock,
    private readonly random: () => number = Math.random,
  ) {}

  record(durationMs: number, labels: RequestLabels): void {
    const now = this.clock.now().getTime();
    this.at[this.next] = now;
    this.ms[this.next] = durationMs;
    this.next = (this.next + 1) % WINDOW_MAX_REQUESTS;
    this.stored = Math.min(this.stored + 1, WINDOW_MAX_REQUESTS);
    this.recordMinute(Math.floor(now / MINUTE_MS), durationMs);
    this.recordHistogram(durationMs / 1000, labels);
  }

  summary(): { average_ms: number | null; p95_ms: number | null; sample_count: number; window_seconds: number; history: ResponseTimeMinute[] } {
    const since = this.clock.now().getTime() - WINDOW_MS;
    const recent: number[] = [];
    for (let i = 0; i < this.stored; i++) if (this.at[i] > since) recent.push(this.ms[i]);
    const average = recent.length ? recent.reduce((a, b) => a + b, 0) / recent.length : null;
    return {
      average_ms: round(average),
      p95_ms: round(percentile(recent, 95)),
      sample_count: recent.length,
      window_seconds: WINDOW_MS / 1000,
      history: this.history(),
    };
  }

  /** The last 60 minutes, oldest first, including the current one. */
  history(): ResponseTimeMinute[] {
    const current = Math.floor(this.clock.now().getTime() / MINUTE_MS);
    this.forgetOldMinutes(current);
    const minutes: ResponseTimeMinute[] = [];
    for (let m = current - HISTORY_MINUTES + 1; m <= current; m++) {
      const sample = this.minutes.get(m);
      minutes.push({
        minute: new Date(m * MINUTE_MS).toISOString(),
        p95_ms: round(sample ? percentile(sample.durations, 95) : null),
        requests: sample?.seen ?? 0,
      });
    }
    return minutes;
  }

  histogramSeries(): HistogramSeries[] {
    return [...this.histograms.values()];
  }

  private recordMinute(minute: number, durationMs: number): void {
    let sample = this.minutes.get(minute);
    if (!sample) {
      sample = { durations: [], seen: 0 };
      this.minutes.set(minute, sample);
      this.forgetOldMinutes(minute);
    }
    sample.seen++;
    if (sample.durations.length < MINUTE_SAMPLE_SIZE) sample.durations.push(durationMs);
    else {
      const slot = Math.floor(this.random() * sample.seen);
      if (slot < MINUTE_SAMPLE_SIZE) sample.durations[slot] = durationMs;
    }
  }

  private forgetOldMinutes(current: number): void {
    for (const minute of this.minutes.keys()) if (minute <= current - HISTORY_MINUTES) this.minutes.delete(minute);
  }

  private recordHistogram(seconds: number, labels: RequestLabels): void {
    const key = `${labels.method} ${labels.route} ${labels.status_code}`;
    let series = this.histograms.get(key);
    if (!series) {
      series = { labels, buckets: new Array<number>(DURATION_BUCKETS_SECONDS.length + 1).fill(0), sum: 0, count: 0 };
      this.histograms.set(key, series);
    }
    let bucket = DURATION_BUCKETS_SECONDS.findIndex((bound) => seconds <= bound);
    if (bucket === -1) bucket = DURATION_BUCKETS_SECONDS.length;
    series.buckets[bucket]++;
    series.sum += seconds;
    series.count++;
  }
}
