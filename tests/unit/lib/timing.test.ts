import { describe, expect, it } from 'vitest';
import { timingStatus } from '../../../src/lib/timing';

const now = new Date('2026-11-27T10:00:00Z');
const at = (offsetMs: number) => new Date(now.getTime() + offsetMs).toISOString();

describe('timingStatus', () => {
  it('warns when there is no time', () => {
    expect(timingStatus(null, now)).toBe('warning');
    expect(timingStatus(undefined, now)).toBe('warning');
    expect(timingStatus('', now)).toBe('warning');
    expect(timingStatus('not a date', now)).toBe('warning');
  });

  it('is an error once the time is past', () => {
    expect(timingStatus(at(-1), now)).toBe('error');
    expect(timingStatus(at(-86_400_000), now)).toBe('error');
  });

  it('warns within the hour, inclusive', () => {
    expect(timingStatus(at(0), now)).toBe('warning');
    expect(timingStatus(at(30 * 60_000), now)).toBe('warning');
    expect(timingStatus(at(3_600_000), now)).toBe('warning');
  });

  it('is fine beyond the hour', () => {
    expect(timingStatus(at(3_600_001), now)).toBe('success');
    expect(timingStatus(at(7 * 86_400_000), now)).toBe('success');
  });
});
