import { describe, expect, it } from 'vitest';
import { declaredLimitMs, longFilesFirst } from '../../support/long-files-first';

describe('the order the suites start their files in', () => {
  it('reads the longest limit a file declares through scaled, 0 when none', () => {
    expect(declaredLimitMs("it('x', { timeout: scaled(120_000) }, f); beforeAll(g, scaled(60_000));")).toBe(120_000);
    expect(declaredLimitMs('await pause(90_000); it("y", f);')).toBe(0);
  });

  it('starts the files declaring a minute or more first, longest first; the rest keep the order vitest gave', () => {
    const file = (name: string, limitMs: number) => ({ name, limitMs });
    const vitestOrder = [
      file('quick-a', 30_000),
      file('window', 90_000),
      file('quick-b', 0),
      file('replacement', 360_000),
      file('minute', 60_000),
      file('quick-c', 59_999),
    ];
    expect(longFilesFirst(vitestOrder, (f) => f.limitMs).map((f) => f.name)).toEqual([
      'replacement',
      'window',
      'minute',
      'quick-a',
      'quick-b',
      'quick-c',
    ]);
  });
});
