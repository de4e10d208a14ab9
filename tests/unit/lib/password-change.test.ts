import { describe, expect, it } from 'vitest';
import { validatePasswordChange } from '../../../src/lib/password-change';

const form = (currentPassword: string, newPassword: string, confirmPassword: string) => ({
  currentPassword,
  newPassword,
  confirmPassword,
});

describe('validatePasswordChange', () => {
  it('requires all three fields first', () => {
    expect(validatePasswordChange(form('', 'abc', 'xyz'))).toBe('All fields are required');
    expect(validatePasswordChange(form('old', '', ''))).toBe('All fields are required');
    expect(validatePasswordChange(form('old', 'newpassword', ''))).toBe('All fields are required');
  });

  it('then that new and confirmation match', () => {
    expect(validatePasswordChange(form('old', 'abc', 'abd'))).toBe('New passwords do not match');
  });

  it('then a length of at least 8', () => {
    expect(validatePasswordChange(form('old', 'abcdefg', 'abcdefg'))).toBe(
      'Password must be at least 8 characters long',
    );
    expect(validatePasswordChange(form('old', 'abcdefgh', 'abcdefgh'))).toBeNull();
  });

  it('then that the new password differs from the current one', () => {
    expect(validatePasswordChange(form('samepassword', 'samepassword', 'samepassword'))).toBe(
      'New password must be different from current password',
    );
  });

  it('enforces only the length among the checklist rules', () => {
    expect(validatePasswordChange(form('old', 'alllowercase', 'alllowercase'))).toBeNull();
  });
});
