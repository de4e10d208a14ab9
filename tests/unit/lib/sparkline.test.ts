import { describe, expect, it } from 'vitest';
import { sparkline } from '../../../src/lib/sparkline';

describe('sparkline', () => {
  it('draws nothing without values', () => {
    expect(sparkline([], 100, 20)).toEqual({ path: '', dots: [], max: 0 });
    expect(sparkline([null, null], 100, 20).path).toBe('');
  });

  it('spreads values across the width and scales them to the height (10 % headroom)', () => {
    const { path, max } = sparkline([0, 10, 5], 104, 24, 2);
    expect(max).toBe(10);
    // x: 2, 52, 102; y: 22 - v * 20/11
    expect(path).toBe('M2 22 L52 3.8 L102 12.9');
  });

  it('breaks the line at a gap and draws a lone value as a dot', () => {
    const { path, dots } = sparkline([4, 4, null, 2, null], 50, 20, 0);
    expect(path.match(/M/g)).toHaveLength(2);
    expect(dots).toHaveLength(1);
    expect(dots[0].x).toBe(37.5);
  });
});
