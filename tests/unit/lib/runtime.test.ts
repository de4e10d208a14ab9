import { describe, expect, it } from 'vitest';
import { formatRuntime } from '../../../src/lib/runtime';

describe('formatRuntime', () => {
  it('shows minutes under one hour', () => {
    expect(formatRuntime(0)).toBe('0m');
    expect(formatRuntime(0.5)).toBe('30m');
    expect(formatRuntime(0.999)).toBe('60m');
  });

  it('shows hours with one decimal from one hour', () => {
    expect(formatRuntime(1)).toBe('1.0h');
    expect(formatRuntime(2.25)).toBe('2.3h');
    expect(formatRuntime(13.04)).toBe('13.0h');
  });

  it('treats missing or invalid values as zero', () => {
    expect(formatRuntime(null)).toBe('0m');
    expect(formatRuntime(undefined)).toBe('0m');
    expect(formatRuntime(Number.NaN)).toBe('0m');
    expect(formatRuntime(-1)).toBe('0m');
  });
});
