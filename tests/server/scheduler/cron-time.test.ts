import { describe, expect, it } from 'vitest';
import { localDateText, zonedParts, zonedTimeToUtc } from '../../../server/geo/timezone';
import { nextRecurringRun } from '../../../server/modules/scheduler/policy';
import { nextFridayPrayer } from '../../../testkit/scheduler-doubles';

const at = (date: string, time: string, zone: string) => {
  const [year, month, day] = date.split('-').map(Number);
  const [hour, minute] = time.split(':').map(Number);
  return zonedTimeToUtc({ year, month, day, hour, minute }, zone);
};

describe('the recurring job (daily, 00:00 UTC)', () => {
  it('runs next at the first UTC midnight strictly after the given instant', () => {
    expect(nextRecurringRun(new Date('2026-10-31T12:00:00Z')).toISOString()).toBe('2026-11-01T00:00:00.000Z');
    expect(nextRecurringRun(new Date('2026-11-01T00:00:00Z')).toISOString()).toBe('2026-11-02T00:00:00.000Z');
    expect(nextRecurringRun(new Date('2026-12-31T23:59:59.999Z')).toISOString()).toBe('2027-01-01T00:00:00.000Z');
    expect(nextRecurringRun(new Date('2028-02-28T00:00:01Z')).toISOString()).toBe('2028-02-29T00:00:00.000Z');
  });
});

describe('zone arithmetic', () => {
  it('converts local wall-clock times to UTC on both sides of a DST change', () => {
    expect(at('2026-10-30', '12:30', 'America/New_York').toISOString()).toBe('2026-10-30T16:30:00.000Z');
    expect(at('2026-11-06', '12:30', 'America/New_York').toISOString()).toBe('2026-11-06T17:30:00.000Z');
    expect(at('2026-10-23', '13:15', 'Europe/London').toISOString()).toBe('2026-10-23T12:15:00.000Z');
    expect(at('2026-10-30', '13:15', 'Europe/London').toISOString()).toBe('2026-10-30T13:15:00.000Z');
    expect(at('2026-11-06', '12:00', 'Asia/Kathmandu').toISOString()).toBe('2026-11-06T06:15:00.000Z');
  });

  it('gives the local date and weekday of an instant', () => {
    expect(localDateText(new Date('2026-11-05T23:40:00Z'), 'Pacific/Auckland')).toBe('2026-11-06');
    expect(zonedParts(new Date('2026-11-05T23:40:00Z'), 'Pacific/Auckland').weekday).toBe(5);
    expect(zonedParts(new Date('2026-11-05T23:40:00Z'), 'America/Los_Angeles').weekday).toBe(4);
  });

  it('picks this Friday until its recording window ends, then the next one', () => {
    const at = (now: string) => nextFridayPrayer(new Date(now), '12:30', 'America/New_York').toISOString();
    expect(at('2026-11-06T05:00:00Z')).toBe('2026-11-06T17:30:00.000Z');
    expect(at('2026-11-06T19:09:59Z')).toBe('2026-11-06T17:30:00.000Z');
    expect(at('2026-11-06T19:10:00Z')).toBe('2026-11-13T17:30:00.000Z');
    expect(at('2026-11-07T03:00:00Z')).toBe('2026-11-13T17:30:00.000Z'); // Friday evening in New York
  });
});
