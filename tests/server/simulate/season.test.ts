import { beforeAll, describe, expect, it } from 'vitest';
import { simulateSeason, type SeasonReport } from '../../../bench/simulate/season';
import { scaled } from '../../../testkit/time-scale';

/*
 * The capture-assurance claim on a small season (npm run simulate runs the full one): the real
 * scheduler, fleet, ledger and alarms on an accelerated clock, recorders and streams simulated with
 * seeded faults. Every sermon not captured in full must have raised an alarm.
 */
describe('a simulated season with the default faults', () => {
  let report: SeasonReport;
  beforeAll(async () => {
    report = await simulateSeason({ mosques: 20, fridays: 2, seed: 1, faults: 'default' });
  }, scaled(120_000));

  it('alarms every sermon not captured in full, and calls nothing captured that the media do not cover', () => {
    expect(report.summary.sermons).toBe(40);
    expect(report.summary.silent).toBe(0);
    expect(report.summary.alarmed).toBe(report.summary.sermons - report.summary.captured);
    expect(report.overstated).toBe(0);
    expect(report.summary.captured).toBe(report.mediaCaptured);
  });

  it('recovers from every default fault within the window, a recorder crash included', () => {
    expect(report.summary.captured_pct).toBeGreaterThanOrEqual(99.9);
  });
});

describe('a simulated season with the harsh faults', () => {
  it(
    'alarms every sermon the harsh mix breaks, streams that never come included',
    async () => {
      const report = await simulateSeason({ mosques: 20, fridays: 2, seed: 1, faults: 'harsh' });

      expect(report.summary.sermons).toBe(40);
      expect(report.summary.failed).toBeGreaterThan(0);
      expect(report.summary.partial).toBeGreaterThan(0);
      expect(report.alarmKinds.capture_failed).toBeGreaterThan(0);
      expect(report.summary.alarmed).toBe(report.summary.sermons - report.summary.captured);
      expect(report.summary.silent).toBe(0);
      expect(report.overstated).toBe(0);
      // Operators are told (notifications reach the webhook), and not flooded: at most two per failing Friday.
      expect(report.notifications).toBeGreaterThan(0);
      expect(report.summary.notifications_per_failing_friday).toBeLessThanOrEqual(2);
    },
    scaled(120_000),
  );
});
