import { describe, expect, it } from 'vitest';
import { passwordRequirements, passwordStrength } from '../../../src/lib/password-strength';

describe('passwordStrength', () => {
  it.each([
    ['', 0, 'Weak', 'error'],
    ['abc', 0, 'Weak', 'error'],
    ['abcdefg', 0, 'Weak', 'error'], // 7 characters: no length point
    ['abcdefgh', 1, 'Weak', 'error'], // 8: one point
    ['abcdefghijkl', 2, 'Weak', 'error'], // 12: two points
    ['Abcdefgh', 2, 'Weak', 'error'], // length + mixed case
    ['Abcdefg1', 3, 'Fair', 'warning'],
    ['Abcdefghijk1', 4, 'Good', 'info'],
    ['Abcdefg1!', 4, 'Good', 'info'],
    ['Abcdefghij1!', 5, 'Strong', 'success'],
  ] as const)('%j scores %i (%s, %s)', (password, points, label, color) => {
    const strength = passwordStrength(password);
    expect(strength).toMatchObject({ points, label, color });
    expect(strength.percent).toBe((points / 5) * 100);
  });

  it('needs both cases for the case point', () => {
    expect(passwordStrength('ABCDEFGH').points).toBe(1);
    expect(passwordStrength('abcdefgh').points).toBe(1);
    expect(passwordStrength('aBcdefgh').points).toBe(2);
  });

  it('counts a digit and a special character once each', () => {
    expect(passwordStrength('1').points).toBe(1);
    expect(passwordStrength('123').points).toBe(1);
    expect(passwordStrength('#').points).toBe(1);
    expect(passwordStrength('# ').points).toBe(1);
  });
});

describe('passwordRequirements', () => {
  it('lists the five requirements in order, unmet for an empty password', () => {
    expect(passwordRequirements('')).toEqual([
      { label: 'At least 8 characters', met: false },
      { label: 'One uppercase letter', met: false },
      { label: 'One lowercase letter', met: false },
      { label: 'One number', met: false },
      { label: 'One special character', met: false },
    ]);
  });

  it('ticks each requirement independently', () => {
    const met = (password: string) => passwordRequirements(password).map((r) => r.met);
    expect(met('abcdefgh')).toEqual([true, false, true, false, false]);
    expect(met('A')).toEqual([false, true, false, false, false]);
    expect(met('9')).toEqual([false, false, false, true, false]);
    expect(met('_')).toEqual([false, false, false, false, true]);
    expect(met('Abcdef1!')).toEqual([true, true, true, true, true]);
  });
});
