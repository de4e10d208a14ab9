import type { ResponseTimeMinute } from '../../../contract/monitoring';
import type { Clock } from '../../lib/clock';
import { percentile } from '../../lib/percentile';

/** The rolling window of the figures: the last 5 minutes, at most the latest 1000 requests. */
export const WINDOW_MS = 5 * 60_000;
export const WINDOW_MAX_REQUESTS = 1000;
const HISTORY_MINUTES = 60;
const MINUTE_MS = 60_000;

/** Upper bounds (ms) of a minute's duration buckets: 20% apart from 0.05 ms to past a minute, so a p95 read between two is within 10%. A last, open bucket follows. */
const UPPER_BOUNDS_MS = Array.from({ length: 78 }, (_, i) => 0.05 * 1.2 ** i);
const BUCKETS = UPPER_BOUNDS_MS.length + 1;
const upperBound = (bucket: number) => UPPER_BOUNDS_MS[bucket] ?? Infinity;

/** The bucket holding a duration: the first whose upper bound is at least it (a binary search). */
function bucketOf(durationMs: number): number {
  let low = 0;
  let high = BUCKETS - 1;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (upperBound(middle) >= durationMs) high = middle;
    else low = middle + 1;
  }
  return low;
}

/**
 * One minute's durations: counts per bucket (bounded memory however many requests) and the extremes.
 * Plain counts rather than a prom-client histogram or summary: their observe (label checks, a t-digest)
 * cost 1.5-9% of the CPU of a cached API answer (measured on GET /api/scheduler/upcoming).
 */
class MinuteDurations {
  private readonly counts = new Uint32Array(BUCKETS);
  requests = 0;
  private min = Infinity;
  private max = -Infinity;

  observe(durationMs: number): void {
    this.counts[bucketOf(durationMs)] += 1;
    this.requests += 1;
    if (durationMs < this.min) this.min = durationMs;
    if (durationMs > this.max) this.max = durationMs;
  }

  /** The 95th percentile, interpolated within its bucket and kept within the minute's extremes; null without requests. */
  p95(): number | null {
    if (this.requests === 0) return null;
    const rank = 0.95 * this.requests;
    let below = 0;
    for (let bucket = 0; bucket < BUCKETS; bucket++) {
      const upTo = below + this.counts[bucket];
      if (upTo >= rank) {
        const lower = bucket === 0 ? 0 : upperBound(bucket - 1);
        const upper = upperBound(bucket);
        const estimate =
          upper !== Infinity ? lower + ((upper - lower) * (rank - below)) / this.counts[bucket] : this.max;
        return Math.min(this.max, Math.max(this.min, estimate));
      }
      below = upTo;
    }
    return this.max;
  }
}

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
  private readonly minutes = new Map<number, MinuteDurations>();

  constructor(private readonly clock: Clock) {}

  record(durationMs: number): void {
    const now = this.clock.now().getTime();
    this.at[this.next] = now;
    this.ms[this.next] = durationMs;
    this.next = (this.next + 1) % WINDOW_MAX_REQUESTS;
    this.stored = Math.min(this.stored + 1, WINDOW_MAX_REQUESTS);
    this.recordMinute(Math.floor(now / MINUTE_MS), durationMs);
  }

  summary(): {
    average_ms: number | null;
    p95_ms: number | null;
    sample_count: number;
    window_seconds: number;
    history: ResponseTimeMinute[];
  } {
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
      const durations = this.minutes.get(m);
      minutes.push({
        minute: new Date(m * MINUTE_MS).toISOString(),
        p95_ms: round(durations?.p95() ?? null),
        requests: durations?.requests ?? 0,
      });
    }
    return minutes;
  }

  private recordMinute(minute: number, durationMs: number): void {
    let durations = this.minutes.get(minute);
    if (!durations) {
      durations = new MinuteDurations();
      this.minutes.set(minute, durations);
      this.forgetOldMinutes(minute);
    }
    durations.observe(durationMs);
  }

  private forgetOldMinutes(current: number): void {
    for (const minute of this.minutes.keys()) if (minute <= current - HISTORY_MINUTES) this.minutes.delete(minute);
  }
}
