import { describe, expect, it } from 'vitest';
import { countOf } from '../../../contract/plural';

describe('countOf', () => {
  it('writes the noun as English does for the count, never "(s)"', () => {
    expect(countOf(1, 'mosque')).toBe('1 mosque');
    expect(countOf(0, 'mosque')).toBe('0 mosques');
    expect(countOf(2003, 'mosque')).toBe('2,003 mosques');
    expect(countOf(2, 'Friday recording')).toBe('2 Friday recordings');
    expect(countOf(3, 'person', 'people')).toBe('3 people');
  });
});
