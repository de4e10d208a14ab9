import { describe, expect, it } from 'vitest';
import { CronExpression } from '../../../server/modules/scheduler/cron';
import { nextFridayPrayer } from '../../../server/modules/scheduler/in-memory';
import { localDate, localWeekday, zonedTimeToUtc } from '../../../server/modules/scheduler/time';

describe('cron expressions (UTC)', () => {
  it('finds the next matching minute strictly after the given instant', () => {
    const daily = new CronExpression('0 0 * * *');
    expect(daily.next(new Date('2026-10-31T12:00:00Z')).toISOString()).toBe('2026-11-01T00:00:00.000Z');
    expect(daily.next(new Date('2026-11-01T00:00:00Z')).toISOString()).toBe('2026-11-02T00:00:00.000Z');
    const thursdays = new CronExpression('0 6 * * 4');
    expect(thursdays.next(new Date('2026-11-05T06:00:00Z')).toISOString()).toBe('2026-11-12T06:00:00.000Z');
    expect(new CronExpression('*/15 9-10 * * 1-5').next(new Date('2026-11-06T10:50:00Z')).toISOString()).toBe('2026-11-09T09:00:00.000Z');
    expect(new CronExpression('30 12 29 2 *').next(new Date('2026-01-01T00:00:00Z')).toISOString()).toBe('2028-02-29T12:30:00.000Z');
  });

  it('rejects malformed expressions', () => {
    for (const bad of ['0 0 * *', '60 0 * * *', 'a b c d e', '0 0 * * 8', '5-1 * * * *']) {
      expect(() => new CronExpression(bad), bad).toThrow();
    }
  });
});

describe('zone arithmetic', () => {
  it('converts local wall-clock times to UTC on both sides of a DST change', () => {
    expect(zonedTimeToUtc('2026-10-30', '12:30', 'America/New_York').toISOString()).toBe('2026-10-30T16:30:00.000Z');
    expect(zonedTimeToUtc('2026-11-06', '12:30', 'America/New_York').toISOString()).toBe('2026-11-06T17:30:00.000Z');
    expect(zonedTimeToUtc('2026-10-23', '13:15', 'Europe/London').toISOString()).toBe('2026-10-23T12:15:00.000Z');
    expect(zonedTimeToUtc('2026-10-30', '13:15', 'Europe/London').toISOString()).toBe('2026-10-30T13:15:00.000Z');
    expect(zonedTimeToUtc('2026-11-06', '12:00', 'Asia/Kathmandu').toISOString()).toBe('2026-11-06T06:15:00.000Z');
  });

  it('gives the local date and weekday of an instant', () => {
    expect(localDate(new Date('2026-11-05T23:40:00Z'), 'Pacific/Auckland')).toBe('2026-11-06');
    expect(localWeekday(new Date('2026-11-05T23:40:00Z'), 'Pacific/Auckland')).toBe(5);
    expect(localWeekday(new Date('2026-11-05T23:40:00Z'), 'America/Los_Angeles')).toBe(4);
  });

  it('picks this Friday until its recording window ends, then the next one', () => {
    const at = (now: string) => nextFridayPrayer(new Date(now), '12:30', 'America/New_York').toISOString();
    expect(at('2026-11-06T05:00:00Z')).toBe('2026-11-06T17:30:00.000Z');
    expect(at('2026-11-06T19:09:59Z')).toBe('2026-11-06T17:30:00.000Z');
    expect(at('2026-11-06T19:10:00Z')).toBe('2026-11-13T17:30:00.000Z');
    expect(at('2026-11-07T03:00:00Z')).toBe('2026-11-13T17:30:00.000Z'); // Friday evening in New York
  });
});
