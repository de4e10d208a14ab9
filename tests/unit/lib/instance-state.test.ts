import { describe, expect, it } from 'vitest';
import { instanceStateColor } from '../../../src/lib/instance-state';

describe('instanceStateColor', () => {
  it.each([
    ['pending', 'warning'],
    ['running', 'success'],
    ['stopping', 'info'],
    ['stopped', 'default'],
    ['terminated', 'default'],
    ['shutting-down', 'error'],
    ['', 'error'],
  ])('%s -> %s', (state, color) => {
    expect(instanceStateColor(state)).toBe(color);
  });

  it('treats a missing state as an error', () => {
    expect(instanceStateColor(undefined)).toBe('error');
  });
});
