import { screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Job } from '../../../../contract/scheduler';
import { addMockInstances, mockInstance, mockRecording } from '../../../../src/mocks/handlers/instances';
import { mockGapsOfEveryCause } from '../../../../src/mocks/handlers/recordings';
import { mockRecordingJob, schedulerMock } from '../../../../src/mocks/handlers/scheduler';
import { store } from '../../../../src/mocks/store';
import type { Recording } from '../../../../contract/instances';
import { EAST_LONDON, fakeTimerUser, LONDON, openScheduling, useFixedClock } from '../scheduling/helpers';
import { scaled } from '../../../../testkit/time-scale';

const START = '2026-11-27T11:45:00.000Z';

/** A job of the coming Friday (2026-11-27 on the fixed clock) whose recording is in the mock store with `fields`. */
function jobWithRecording(mosque: { id: string; name: string }, job: Partial<Job>, fields: Partial<Recording>): void {
  const instance = addMockInstances(mockInstance({ mosque_id: mosque.id, state: 'terminated', launch_time: START }))[0];
  const recording = mockRecording(instance, { expected_seconds: 7200, ...fields });
  store.recordings.push(recording);
  schedulerMock().jobs.push(
    mockRecordingJob({
      mosque_id: mosque.id,
      mosque_name: mosque.name,
      recording_start: START,
      timezone: 'Europe/London',
      recording_id: recording.id,
      ...job,
    }),
  );
}

const fridayRow = (mosque: string) =>
  within(
    within(screen.getByRole('table', { name: 'Fridays' }))
      .getByText(mosque)
      .closest('tr') as HTMLElement,
  );

describe('holes and stops in the Friday ledger', { timeout: scaled(40_000) }, () => {
  // The operator's clock is not UTC here, so each instant shows on it and in UTC.
  beforeEach(() => {
    vi.stubEnv('TZ', 'Asia/Karachi');
  });
  afterEach(() => {
    vi.unstubAllEnvs();
  });

  it("counts a Friday's holes and content lost on its row and lists them under it", async () => {
    useFixedClock();
    jobWithRecording(
      { id: LONDON, name: 'London Central Mosque' },
      {
        status: 'partial',
        covered_seconds: 6934,
        expected_seconds: 7200,
        outcome_reason: 'Recorded 1 h 55 min of 2 h (96%)',
      },
      { status: 'partial', gaps: mockGapsOfEveryCause(START) },
    );
    const { user } = await openScheduling({ userOptions: fakeTimerUser });
    const toggle = await fridayRow('London Central Mosque').findByRole('button', { name: '10 holes · 340 s lost' });
    await user.click(toggle);
    const holes = within(screen.getByRole('table', { name: 'Holes of London Central Mosque on 2026-11-27' }));
    expect(holes.getAllByRole('row')).toHaveLength(11);
    const serverDown = within(holes.getByText('Server down').closest('tr') as HTMLElement);
    expect(serverDown.getByText('12:35:00 UTC')).toBeInTheDocument();
    expect(serverDown.getByText('12:36:30 UTC')).toBeInTheDocument();
    expect(serverDown.getByText('5:35:00 PM GMT+5')).toBeInTheDocument();
    expect(serverDown.getByText('90 s')).toBeInTheDocument();
    expect(holes.queryByText('The stream dropped (HTTP 502)')).not.toBeInTheDocument();
    expect(fridayRow('London Central Mosque').getByText('Partial')).toBeInTheDocument();
  });

  it('says who stopped a Friday recording instead of partial', async () => {
    useFixedClock();
    jobWithRecording(
      { id: EAST_LONDON, name: 'East London Mosque' },
      {
        status: 'partial',
        covered_seconds: 2400,
        expected_seconds: 7200,
        outcome_reason: 'Recorded 40 min of 2 h (33%); Stopped by operator',
      },
      { status: 'partial', reason: 'Stopped by operator' },
    );
    await openScheduling({ userOptions: fakeTimerUser });
    const row = fridayRow('East London Mosque');
    expect(await row.findByText('Stopped by operator')).toBeInTheDocument();
    expect(row.queryByText('Partial')).not.toBeInTheDocument();
    expect(row.queryByRole('button', { name: /holes?/ })).not.toBeInTheDocument();
  });
});
