import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../../testkit/manual-clock';
import { percentile } from '../../../server/lib/percentile';
import { ResponseTimes } from '../../../server/modules/monitoring/response-times';

describe('ResponseTimes', () => {
  it('computes nearest-rank percentiles', () => {
    expect(percentile([], 95)).toBeNull();
    expect(percentile([5], 95)).toBe(5);
    expect(
      percentile(
        Array.from({ length: 100 }, (_, i) => i + 1),
        95,
      ),
    ).toBe(95);
    expect(percentile([10, 1, 7, 3], 50)).toBe(3);
  });

  it('keeps the latest 1000 requests for the window and a bounded summary per minute', () => {
    const clock = new ManualClock('2026-11-23T09:00:00Z');
    const times = new ResponseTimes(clock);
    for (let ms = 1; ms <= 5000; ms++) times.record(ms);
    const summary = times.summary();
    expect(summary.sample_count).toBe(1000);
    expect(summary.average_ms).toBe(4500.5);
    expect(summary.p95_ms).toBe(4950);
    const minute = summary.history.at(-1)!;
    expect(minute.requests).toBe(5000);
    // The minute's summary estimates its p95 near the true 4750.
    expect(minute.p95_ms).toBeGreaterThan(4700);
    expect(minute.p95_ms).toBeLessThan(4800);
  });

  it("reads each minute's p95 within 10% of the exact one, however the durations spread", () => {
    const clock = new ManualClock('2026-11-23T09:00:00Z');
    const times = new ResponseTimes(clock);
    // Mostly fast answers with a slow tail, spread over five orders of magnitude.
    const durations = Array.from({ length: 2000 }, (_, i) => (i % 20 === 0 ? 150 + i / 10 : 0.3 + (i % 97) / 40));
    for (const ms of durations) times.record(ms);
    const exact = percentile(durations, 95)!;
    const read = times.history().at(-1)!.p95_ms!;
    expect(Math.abs(read - exact) / exact).toBeLessThan(0.1);
  });

  it('forgets minutes older than an hour and shows minutes without requests as empty', () => {
    const clock = new ManualClock('2026-11-23T09:00:30Z');
    const times = new ResponseTimes(clock);
    times.record(12);
    clock.advance(2 * 60_000);
    times.record(30);
    const history = times.history();
    expect(history).toHaveLength(60);
    expect(history.slice(-3).map((m) => [m.requests, m.p95_ms])).toEqual([
      [1, 12],
      [0, null],
      [1, 30],
    ]);
    clock.advance(60 * 60_000);
    expect(times.history().every((m) => m.requests === 0)).toBe(true);
  });
});
