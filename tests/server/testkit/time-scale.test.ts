import { describe, expect, it } from 'vitest';
import { timeScaleOf } from '../../../testkit/time-scale';

describe('TEST_TIME_SCALE', () => {
  it('is 1 unless set, and takes any number of at least 1', () => {
    expect(timeScaleOf(undefined)).toBe(1);
    expect(timeScaleOf('')).toBe(1);
    expect(timeScaleOf('2.5')).toBe(2.5);
  });

  it('refuses a value that would shorten the limits or is no number, naming it', () => {
    for (const raw of ['0.5', '0', '-1', 'fast', 'Infinity']) expect(() => timeScaleOf(raw)).toThrow(`not "${raw}"`);
  });
});
