import { describe, expect, it } from 'vitest';
import { gapCauseSchema } from '../../../contract/instances';
import { mockGapsOfEveryCause } from '../../../src/mocks/handlers/recordings';
import { GAP_CAUSE_LABELS, holeInstant, holesOf, holesSummary, lostSeconds } from '../../../src/lib/gap-causes';

const gaps = mockGapsOfEveryCause('2026-11-27T11:40:00.000Z');

describe('gap causes', () => {
  it('has a label for every cause of the vocabulary, each its own', () => {
    const labels = gapCauseSchema.options.map((cause) => GAP_CAUSE_LABELS[cause]);
    expect(labels.every((label) => typeof label === 'string' && label.length > 0)).toBe(true);
    expect(new Set(labels).size).toBe(gapCauseSchema.options.length);
  });

  it('lists gaps of 10 s or more as holes, earliest first, and counts what they lost', () => {
    const holes = holesOf([...gaps].reverse());
    expect(holes.map((hole) => hole.cause)).toEqual(gapCauseSchema.options);
    expect(holes.some((hole) => hole.reason === 'The stream dropped (HTTP 502)')).toBe(false);
    expect(lostSeconds(holes)).toBe(340);
    expect(holesSummary(holes)).toBe('10 holes · 340 s lost');
    expect(holesSummary(holes.slice(0, 1))).toBe('1 hole · nothing lost');
    // A gap of exactly 10 s is a hole; 9.9 s is not.
    const exactly = (seconds: number) => ({
      ...gaps[0],
      end: new Date(Date.parse(gaps[0].start) + seconds * 1000).toISOString(),
    });
    expect(holesOf([exactly(10), exactly(9.9)])).toHaveLength(1);
  });

  it('gives each instant of a hole to the second on the operator clock and in UTC', () => {
    expect(holeInstant('2026-11-27T11:52:10.000Z', 'Asia/Karachi')).toEqual({
      local: '4:52:10 PM GMT+5',
      utc: '11:52:10 UTC',
    });
    expect(holeInstant('2026-07-03T23:05:00.000Z', 'Europe/London')).toEqual({
      local: '12:05:00 AM GMT+1',
      utc: '23:05:00 UTC',
    });
  });
});
