import { beforeEach, describe, expect, it } from 'vitest';
import {
  NOTIFICATION_DURATIONS,
  SPEC_NOTIFICATION_DURATIONS,
  notificationTimeout,
} from '../../../src/lib/notifications';

describe('notification durations', () => {
  // The component tests' set-up stretches the durations in use (tests/unit/setup.ts).
  beforeEach(() => Object.assign(NOTIFICATION_DURATIONS, SPEC_NOTIFICATION_DURATIONS));

  it('defaults: success 4 s, error 8 s, warning and info 6 s', () => {
    expect(SPEC_NOTIFICATION_DURATIONS).toEqual({ success: 4000, error: 8000, warning: 6000, info: 6000 });
    expect(notificationTimeout('success')).toBe(4000);
    expect(notificationTimeout('error')).toBe(8000);
    expect(notificationTimeout('warning')).toBe(6000);
    expect(notificationTimeout('info')).toBe(6000);
  });

  it('uses a given duration', () => {
    expect(notificationTimeout('info', 1500)).toBe(1500);
  });

  it('0 or less stays until closed', () => {
    expect(notificationTimeout('error', 0)).toBeNull();
    expect(notificationTimeout('success', -1)).toBeNull();
  });
});
