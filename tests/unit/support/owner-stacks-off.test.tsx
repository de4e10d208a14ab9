import { createElement } from 'react';
import { describe, expect, it } from 'vitest';

type DevElement = { _debugStack?: unknown };

describe('owner stacks in the component tests (tests/unit/support/owner-stacks-off.ts)', () => {
  it('gives every element the one shared stack instead of an Error of its own', () => {
    const created = [createElement('div'), createElement('span')] as unknown as DevElement[];
    const written = [<div />, <span />] as unknown as DevElement[];
    // Still React's development build: elements carry a debug stack, only not one each.
    for (const [first, second] of [created, written]) {
      expect(first._debugStack).toBeInstanceOf(Error);
      expect(second._debugStack).toBe(first._debugStack);
    }
  });
});
