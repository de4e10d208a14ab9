import { describe, expect, it } from 'vitest';
import { pageTitle } from '../../../src/lib/page-title';

describe('pageTitle', () => {
  it.each([
    ['/', 'Dashboard'],
    ['/instances', 'Instances'],
    ['/ami', 'AMI Manager'],
    ['/config', 'Config Generator'],
    ['/scheduling', 'Scheduling'],
    ['/monitoring', 'Monitoring'],
    ['/github', 'GitHub'],
    ['/profile', 'My Profile'],
    ['/change-password', 'Change Password'],
    ['/users', 'User Management'],
    ['/users/', 'User Management'],
  ])('%s -> %s', (path, title) => {
    expect(pageTitle(path)).toBe(title);
  });

  it('defaults to Dashboard', () => {
    expect(pageTitle('/nowhere')).toBe('Dashboard');
    expect(pageTitle('')).toBe('Dashboard');
  });
});
