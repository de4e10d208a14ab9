import { describe, expect, it } from 'vitest';
import {
  formatCountdown,
  INACTIVITY_CHECK_MS,
  INACTIVITY_LIMIT_MS,
  INACTIVITY_WARNING_MS,
  sessionPhase,
} from '../../../src/lib/inactivity';

const HOUR = 3_600_000;

describe('sessionPhase', () => {
  it('uses 24 h, a 5 minute warning and a 60 s check', () => {
    expect(INACTIVITY_LIMIT_MS).toBe(24 * HOUR);
    expect(INACTIVITY_WARNING_MS).toBe(5 * 60_000);
    expect(INACTIVITY_CHECK_MS).toBe(60_000);
  });

  it('is active until the last 5 minutes', () => {
    expect(sessionPhase(0, 0)).toBe('active');
    expect(sessionPhase(0, 24 * HOUR - 5 * 60_000 - 1)).toBe('active');
  });

  it('warns in the last 5 minutes', () => {
    expect(sessionPhase(0, 24 * HOUR - 5 * 60_000)).toBe('warning');
    expect(sessionPhase(0, 24 * HOUR - 1)).toBe('warning');
  });

  it('expires at 24 h', () => {
    expect(sessionPhase(0, 24 * HOUR)).toBe('expired');
    expect(sessionPhase(1000, 1000 + 25 * HOUR)).toBe('expired');
  });
});

describe('formatCountdown', () => {
  it('shows minutes and two-digit seconds, rounding up', () => {
    expect(formatCountdown(5 * 60_000)).toBe('5:00');
    expect(formatCountdown(61_000)).toBe('1:01');
    expect(formatCountdown(59_001)).toBe('1:00');
    expect(formatCountdown(0)).toBe('0:00');
    expect(formatCountdown(-5)).toBe('0:00');
  });
});
