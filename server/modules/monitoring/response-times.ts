import { Summary } from 'prom-client';
import type { ResponseTimeMinute } from '../../../contract/monitoring';
import type { Clock } from '../../lib/clock';
import { percentile } from '../../lib/percentile';

/** The rolling window of the figures: the last 5 minutes, at most the latest 1000 requests. */
export const WINDOW_MS = 5 * 60_000;
export const WINDOW_MAX_REQUESTS = 1000;
const HISTORY_MINUTES = 60;
const MINUTE_MS = 60_000;

/** One minute's durations, as a prom-client summary (bounded memory however many requests). */
const minuteSummary = () => new Summary({ name: 'api_minute_duration_ms', help: "One minute's /api durations", percentiles: [0.95], registers: [] });

const round = (value: number | null): number | null => (value === null ? null : Math.round(value * 100) / 100);

/**
 * API response times measured by the server: a rolling window for average and p95, and a
 * per-minute p95 for the last hour. Recording is O(1) per request.
 */
export class ResponseTimes {
  private readonly at = new Float64Array(WINDOW_MAX_REQUESTS);
  private readonly ms = new Float64Array(WINDOW_MAX_REQUESTS);
  private stored = 0;
  private next = 0;
  private readonly minutes = new Map<number, Summary>();

  constructor(private readonly clock: Clock) {}

  record(durationMs: number): void {
    const now = this.clock.now().getTime();
    this.at[this.next] = now;
    this.ms[this.next] = durationMs;
    this.next = (this.next + 1) % WINDOW_MAX_REQUESTS;
    this.stored = Math.min(this.stored + 1, WINDOW_MAX_REQUESTS);
    this.recordMinute(Math.floor(now / MINUTE_MS), durationMs);
  }

  async summary(): Promise<{ average_ms: number | null; p95_ms: number | null; sample_count: number; window_seconds: number; history: ResponseTimeMinute[] }> {
    const since = this.clock.now().getTime() - WINDOW_MS;
    const recent: number[] = [];
    for (let i = 0; i < this.stored; i++) if (this.at[i] > since) recent.push(this.ms[i]);
    const average = recent.length ? recent.reduce((a, b) => a + b, 0) / recent.length : null;
    return {
      average_ms: round(average),
      p95_ms: round(percentile(recent, 95)),
      sample_count: recent.length,
      window_seconds: WINDOW_MS / 1000,
      history: await this.history(),
    };
  }

  /** The last 60 minutes, oldest first, including the current one. */
  async history(): Promise<ResponseTimeMinute[]> {
    const current = Math.floor(this.clock.now().getTime() / MINUTE_MS);
    this.forgetOldMinutes(current);
    const minutes: ResponseTimeMinute[] = [];
    for (let m = current - HISTORY_MINUTES + 1; m <= current; m++) {
      const values = (await this.minutes.get(m)?.get())?.values ?? [];
      const p95 = values.find((v) => v.labels.quantile === 0.95)?.value;
      minutes.push({
        minute: new Date(m * MINUTE_MS).toISOString(),
        p95_ms: round(p95 === undefined || Number.isNaN(p95) ? null : p95),
        requests: values.find((v) => v.metricName?.endsWith('_count'))?.value ?? 0,
      });
    }
    return minutes;
  }

  private recordMinute(minute: number, durationMs: number): void {
    let sample = this.minutes.get(minute);
    if (!sample) {
      sample = minuteSummary();
      this.minutes.set(minute, sample);
      this.forgetOldMinutes(minute);
    }
    sample.observe(durationMs);
  }

  private forgetOldMinutes(current: number): void {
    for (const minute of this.minutes.keys()) if (minute <= current - HISTORY_MINUTES) this.minutes.delete(minute);
  }
}
