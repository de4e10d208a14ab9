import { describe, expect, it } from 'vitest';
import { AVATAR_COLORS, avatarColor, initials } from '../../../src/lib/avatar';

describe('initials', () => {
  it('takes the first letters of the first two words of the full name', () => {
    expect(initials('Amina Yusuf', 'amina')).toBe('AY');
    expect(initials('amina bint yusuf', 'x')).toBe('AB');
    expect(initials('  Omar   Farouk ', 'x')).toBe('OF');
  });

  it('uses one letter for a one-word full name', () => {
    expect(initials('Bilal', 'b')).toBe('B');
  });

  it('falls back to the first two letters of the username, upper-cased', () => {
    expect(initials(null, 'operator')).toBe('OP');
    expect(initials('', 'admin')).toBe('AD');
    expect(initials('   ', 'z')).toBe('Z');
  });

  it('never returns an empty string', () => {
    expect(initials(null, '')).toBe('?');
  });
});

describe('avatarColor', () => {
  it('has 8 colours', () => {
    expect(AVATAR_COLORS).toHaveLength(8);
    expect(new Set(AVATAR_COLORS).size).toBe(8);
  });

  it('chooses by the first character only', () => {
    expect(avatarColor('admin')).toBe(avatarColor('alice'));
    expect(avatarColor('admin')).toBe(AVATAR_COLORS['a'.charCodeAt(0) % 8]);
    expect(avatarColor('b')).toBe(AVATAR_COLORS['b'.charCodeAt(0) % 8]);
    expect(avatarColor('a')).not.toBe(avatarColor('b'));
  });

  it('handles an empty username', () => {
    expect(avatarColor('')).toBe(AVATAR_COLORS[0]);
  });
});
