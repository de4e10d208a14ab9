import { afterEach, describe, expect, it, vi } from 'vitest';
import { jobsInOrder } from '../../../../contract/scheduler';
import {
  NO_TIME,
  zoneAbbreviation,
  zonedDate,
  zonedDateTime,
  zonedTime,
} from '../../../../src/features/scheduling/zoned-time';
import { mockRecordingJob } from '../../../../src/mocks/handlers/scheduler';

describe('times on a mosque clock', () => {
  afterEach(() => {
    vi.unstubAllEnvs();
  });

  it("shows the operator's own zone as it is now, after the machine's zone changed", () => {
    vi.stubEnv('TZ', 'UTC');
    expect(`${zonedDateTime('2026-11-27T09:00:00Z')} ${zoneAbbreviation('2026-11-27T09:00:00Z')}`).toBe(
      'Nov 27, 2026, 9:00 AM UTC',
    );
    vi.stubEnv('TZ', 'Asia/Karachi');
    expect(`${zonedDateTime('2026-11-27T09:00:00Z')} ${zoneAbbreviation('2026-11-27T09:00:00Z')}`).toBe(
      'Nov 27, 2026, 2:00 PM GMT+5',
    );
  });

  it('follows daylight saving time of the zone', () => {
    // London: BST (UTC+1) until 25 October 2026, GMT after.
    expect(zonedDateTime('2026-10-23T11:40:00Z', 'Europe/London')).toBe('Oct 23, 2026, 12:40 PM');
    expect(zoneAbbreviation('2026-10-23T11:40:00Z', 'Europe/London')).toBe('GMT+1');
    expect(zonedDateTime('2026-10-30T11:40:00Z', 'Europe/London')).toBe('Oct 30, 2026, 11:40 AM');
    expect(zoneAbbreviation('2026-10-30T11:40:00Z', 'Europe/London')).toBe('GMT');
  });

  it('crosses the date line with the zone', () => {
    expect(zonedDate('2026-11-26T23:30:00Z', 'Pacific/Auckland')).toBe('Fri, Nov 27, 2026');
    expect(zonedTime('2026-11-26T23:30:00Z', 'Pacific/Auckland')).toBe('12:30 PM');
    expect(zonedTime('2026-11-27T00:05:00Z', 'UTC')).toBe('12:05 AM');
  });

  it('reads a missing or unreadable time as "Not set", and an unknown zone as UTC', () => {
    expect(zonedDateTime(null, 'UTC')).toBe(NO_TIME);
    expect(zonedDateTime('', 'UTC')).toBe(NO_TIME);
    expect(zonedTime('not a time', 'UTC')).toBe(NO_TIME);
    expect(zonedDateTime('2026-11-27T11:09:00Z', 'Nowhere/Atlantis')).toBe('Nov 27, 2026, 11:09 AM');
  });
});

describe('job order', () => {
  it('puts waiting jobs first by next run, then finished ones latest first', () => {
    const soon = mockRecordingJob({
      mosque_id: 'a000000001',
      mosque_name: 'A',
      recording_start: '2026-11-27T09:00:00Z',
    });
    const later = mockRecordingJob({
      mosque_id: 'b000000001',
      mosque_name: 'B',
      recording_start: '2026-11-27T12:00:00Z',
      status: 'launching',
    });
    const oldDone = {
      ...mockRecordingJob({ mosque_id: 'c000000001', mosque_name: 'C', recording_start: '2026-11-20T09:00:00Z' }),
      status: 'captured' as const,
      next_run_time: null,
      updated_at: '2026-11-20T11:00:00Z',
    };
    const newDone = { ...oldDone, id: 'd', status: 'failed' as const, updated_at: '2026-11-21T11:00:00Z' };
    expect(jobsInOrder([oldDone, later, newDone, soon]).map((job) => job.mosque_name + job.status)).toEqual([
      'Ascheduled',
      'Blaunching',
      'Cfailed',
      'Ccaptured',
    ]);
  });
});
