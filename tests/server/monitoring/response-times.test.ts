import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../testkit/manual-clock';
import { percentile, ResponseTimes } from '../../../server/modules/monitoring/response-times';

const labels = { method: 'GET', route: '/api/x', status_code: '200' };

/** A small deterministic generator, so the reservoir's choice is repeatable. */
function seeded(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1664525 + 1013904223) % 2 ** 32;
    return state / 2 ** 32;
  };
}

describe('ResponseTimes', () => {
  it('computes nearest-rank percentiles', () => {
    expect(percentile([], 95)).toBeNull();
    expect(percentile([5], 95)).toBe(5);
    expect(percentile(Array.from({ length: 100 }, (_, i) => i + 1), 95)).toBe(95);
    expect(percentile([10, 1, 7, 3], 50)).toBe(3);
  });

  it('keeps the latest 1000 requests for the window and a bounded sample per minute', () => {
    const clock = new ManualClock('2026-11-23T09:00:00Z');
    const times = new ResponseTimes(clock, seeded(42));
    for (let ms = 1; ms <= 5000; ms++) times.record(ms, labels);
    const summary = times.summary();
    expect(summary.sample_count).toBe(1000);
    expect(summary.average_ms).toBe(4500.5);
    expect(summary.p95_ms).toBe(4950);
    const minute = summary.history.at(-1)!;
    expect(minute.requests).toBe(5000);
    // A uniform sample of 1024 out of 5000: its p95 lands near the true 4750.
    expect(minute.p95_ms).toBeGreaterThan(4500);
    expect(minute.p95_ms).toBeLessThan(5000);
    expect(times.histogramSeries()).toHaveLength(1);
    expect(times.histogramSeries()[0].count).toBe(5000);
  });
});
