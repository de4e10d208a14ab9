import { describe, expect, it } from 'vitest';
import { simulateSeason } from '../../../bench/simulate/season';

/*
 * The capture-assurance claim on a small season (npm run simulate runs the full one): the real
 * scheduler, fleet, ledger and alarms on an accelerated clock, recorders and streams simulated with
 * seeded faults. Every sermon not captured in full must have raised an alarm.
 */
describe('a simulated season', () => {
  it('captures every sermon of the default fault mix or alarms it, and calls nothing captured that the media do not cover', async () => {
    const report = await simulateSeason({ mosques: 20, fridays: 2, seed: 1, faults: 'default' });

    expect(report.summary.sermons).toBe(40);
    expect(report.summary.silent).toBe(0);
    expect(report.overstated).toBe(0);
    // Every default fault is recoverable: what the media cover is what the server calls captured.
    expect(report.summary.captured).toBe(report.mediaCaptured);
    expect(report.summary.captured_pct).toBeGreaterThanOrEqual(99.9);
  }, 120_000);

  it('alarms every sermon the harsh mix breaks, streams that never come included', async () => {
    const report = await simulateSeason({ mosques: 20, fridays: 2, seed: 1, faults: 'harsh' });

    expect(report.summary.sermons).toBe(40);
    expect(report.summary.failed).toBeGreaterThan(0);
    expect(report.summary.partial).toBeGreaterThan(0);
    expect(report.summary.alarmed).toBe(report.summary.sermons - report.summary.captured);
    expect(report.summary.silent).toBe(0);
    expect(report.overstated).toBe(0);
  }, 120_000);
});
