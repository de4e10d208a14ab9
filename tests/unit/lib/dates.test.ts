import { describe, expect, it } from 'vitest';
import { formatDateTime, formatLongDateTime, NEVER } from '../../../src/lib/dates';

// Built from local parts so the expectations hold in any time zone.
const instant = new Date(2026, 10, 27, 14, 5, 9).toISOString();

describe('formatDateTime (medium date and time)', () => {
  it('formats an instant', () => {
    expect(formatDateTime(instant)).toBe('Nov 27, 2026, 2:05 PM');
  });

  it('reads Never when missing', () => {
    expect(formatDateTime(null)).toBe(NEVER);
    expect(formatDateTime(undefined)).toBe('Never');
    expect(formatDateTime('')).toBe('Never');
  });

  it('shows the raw value when it cannot be read', () => {
    expect(formatDateTime('yesterday-ish')).toBe('yesterday-ish');
  });
});

describe('formatLongDateTime (profile: long date, time with seconds)', () => {
  it('formats an instant with seconds', () => {
    expect(formatLongDateTime(instant)).toBe('November 27, 2026, 2:05:09 PM');
  });

  it('reads Never when missing and the raw value when unreadable', () => {
    expect(formatLongDateTime(null)).toBe('Never');
    expect(formatLongDateTime('2026-13-45')).toBe('2026-13-45');
  });
});
