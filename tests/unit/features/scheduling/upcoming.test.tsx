import { act, screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { UpcomingRecording } from '../../../../contract/scheduler';
import { TIMING_LABELS } from '../../../../src/features/scheduling/timing-label';
import { mockRecordingJob, schedulerMock } from '../../../../src/mocks/handlers/scheduler';
import { errorResponse } from '../../../../src/mocks/http';
import { server } from '../../support/server';
import {
  confirmWith,
  fakeTimerUser,
  figure,
  notification,
  NOW,
  openScheduling,
  seedRecordings,
  upcomingRow,
  upcomingRows,
  upcomingTable,
  useFixedClock,
} from './helpers';
import { scaled } from '../../../../testkit/time-scale';

afterEach(() => server.events.removeAllListeners());

const minutesFromNow = (minutes: number) => new Date(NOW.getTime() + minutes * 60_000).toISOString();

function upcoming(fields: Partial<UpcomingRecording> & Pick<UpcomingRecording, 'mosque_name'>): UpcomingRecording {
  return {
    job_id: `job-${fields.mosque_name}`,
    mosque_id: 'mosque0001',
    recording_time: minutesFromNow(120),
    prayer_time: minutesFromNow(140),
    timezone: 'UTC',
    status: 'scheduled',
    next_run_time: null,
    attempts: 0,
    last_error: null,
    ...fields,
  };
}

/** London Central Mosque's Friday job, 27 November 2026. */
const londonCentralFriday = () =>
  mockRecordingJob({
    mosque_id: 'lcm4r8k2p1',
    mosque_name: 'London Central Mosque',
    recording_start: '2026-11-27T11:43:00.000Z',
    timezone: 'Europe/London',
  });

const timingOf = (mosqueName: string) => upcomingRow(mosqueName).getByRole('img');

describe('Scheduling Management: Upcoming Recordings', { timeout: scaled(40_000) }, () => {
  it('tells a one-off recording (a launch at a chosen time) from a Friday one', async () => {
    useFixedClock();
    schedulerMock().jobs.push(londonCentralFriday(), {
      ...mockRecordingJob({
        mosque_id: 'elm7q2w9z3',
        mosque_name: 'East London Mosque',
        recording_start: '2026-11-29T10:00:00.000Z',
      }),
      id: 'oneoff-3f2a9c1b7d04',
      name: 'One-off recording: elm7q2w9z3',
      friday_date: null,
      // As the server stores a one-off: no mosque name, only its id.
      mosque_name: null,
    });
    await openScheduling({ userOptions: fakeTimerUser });
    // The one-off's mosque is named from its id.
    await waitFor(() =>
      expect(upcomingRows().map((row) => within(row).getAllByRole('cell')[0].textContent)).toEqual([
        'London Central MosqueFriday 2026-11-27',
        'East London Mosqueelm7q2w9z3One-off',
      ]),
    );
  });

  it('lists mosque, recording time and prayer time on the mosque clock, its zone, and the operator time', async () => {
    useFixedClock();
    schedulerMock().jobs.push(
      londonCentralFriday(),
      mockRecordingJob({
        mosque_id: 'riy0000001',
        mosque_name: 'Riyadh Grand Mosque',
        recording_start: '2026-11-27T08:33:00.000Z',
        timezone: 'Asia/Riyadh',
      }),
    );
    await openScheduling({ userOptions: fakeTimerUser });
    const headers = upcomingTable()
      .getAllByRole('columnheader')
      .map((cell) => cell.textContent);
    expect(headers).toEqual(['Mosque', 'Recording Time', 'Prayer Time', 'Timezone', 'Actions']);
    // Soonest first, each with the Friday it records.
    expect(upcomingRows().map((row) => within(row).getAllByRole('cell')[0].textContent)).toEqual([
      'Riyadh Grand MosqueFriday 2026-11-27',
      'London Central MosqueFriday 2026-11-27',
    ]);

    const riyadh = upcomingRow('Riyadh Grand Mosque');
    expect(riyadh.getByText('Nov 27, 2026, 11:33 AM')).toBeInTheDocument();
    expect(riyadh.getByText('Your time: Nov 27, 8:33 AM UTC')).toBeInTheDocument();
    expect(riyadh.getByText('11:53 AM')).toBeInTheDocument();
    expect(riyadh.getByText('Asia/Riyadh')).toBeInTheDocument();
    expect(riyadh.getByText('GMT+3')).toBeInTheDocument();

    const london = upcomingRow('London Central Mosque');
    expect(london.getByText('Nov 27, 2026, 11:43 AM')).toBeInTheDocument();
    expect(london.getByText('12:03 PM')).toBeInTheDocument();
    expect(london.getByText('Europe/London')).toBeInTheDocument();
    expect(london.getByText('GMT')).toBeInTheDocument();
  });

  it('gives each row its timing icon: error when past, warning within the hour or without a time, success otherwise', async () => {
    useFixedClock();
    server.use(
      http.get('/api/scheduler/upcoming', () =>
        HttpResponse.json({
          success: true,
          data: {
            upcoming_recordings: [
              upcoming({ mosque_name: 'Past', recording_time: minutesFromNow(-5) }),
              upcoming({ mosque_name: 'Soon', recording_time: minutesFromNow(30) }),
              upcoming({ mosque_name: 'Edge', recording_time: minutesFromNow(60) }),
              upcoming({ mosque_name: 'Later', recording_time: minutesFromNow(61) }),
              upcoming({ mosque_name: 'Unknown', recording_time: '' }),
            ],
          },
        }),
      ),
    );
    await openScheduling({ userOptions: fakeTimerUser });
    await upcomingTable().findByText('Past');
    expect(timingOf('Past')).toHaveAccessibleName(TIMING_LABELS.past);
    expect(timingOf('Past')).toHaveAttribute('data-timing', 'error');
    expect(timingOf('Soon')).toHaveAccessibleName(TIMING_LABELS.soon);
    expect(timingOf('Soon')).toHaveAttribute('data-timing', 'warning');
    expect(timingOf('Edge')).toHaveAttribute('data-timing', 'warning');
    expect(timingOf('Later')).toHaveAccessibleName(TIMING_LABELS.later);
    expect(timingOf('Later')).toHaveAttribute('data-timing', 'success');
    expect(timingOf('Unknown')).toHaveAccessibleName(TIMING_LABELS.none);
    expect(timingOf('Unknown')).toHaveAttribute('data-timing', 'warning');
    expect(upcomingRow('Unknown').getByText('Not set')).toBeInTheDocument();
  });

  it('turns an icon to warning when its recording comes within the hour, without a new answer', async () => {
    useFixedClock();
    seedRecordings(1, minutesFromNow(62));
    await openScheduling({ userOptions: fakeTimerUser });
    const row = await upcomingTable().findByText('Mosque 01');
    expect(row).toBeInTheDocument();
    expect(timingOf('Mosque 01')).toHaveAttribute('data-timing', 'success');
    await act(async () => {
      await vi.advanceTimersByTimeAsync(2 * 60_000 + 15_000);
    });
    await waitFor(() => expect(timingOf('Mosque 01')).toHaveAttribute('data-timing', 'warning'));
  });

  it('pages the recordings 10 at a time, with 10, 25, 50 and 100 rows per page', async () => {
    useFixedClock();
    seedRecordings(24);
    const { user } = await openScheduling({ userOptions: fakeTimerUser });
    await upcomingTable().findByText('Mosque 01');
    // The list holds the next 20 (docs/reference.md section 9); the rest is counted.
    expect(upcomingRows()).toHaveLength(10);
    expect(screen.getByText('1–10 of 20')).toBeInTheDocument();
    expect(screen.getByText('The next 20 of 24 scheduled recordings')).toBeInTheDocument();

    await user.click(screen.getAllByRole('button', { name: 'Go to next page' })[0]);
    expect(upcomingRows()).toHaveLength(10);
    expect(upcomingTable().getByText('Mosque 11')).toBeInTheDocument();
    expect(upcomingTable().queryByText('Mosque 01')).not.toBeInTheDocument();
    expect(screen.getByText('11–20 of 20')).toBeInTheDocument();

    await user.click(screen.getAllByRole('combobox', { name: /Rows per page/ })[0]);
    const options = screen.getAllByRole('option').map((option) => option.textContent);
    expect(options).toEqual(['10', '25', '50', '100']);
    await user.click(screen.getByRole('option', { name: '25' }));
    expect(upcomingRows()).toHaveLength(20);
    expect(screen.getByText('1–20 of 20')).toBeInTheDocument();
  });

  it('cancels a recording: its job is cancelled, the row goes and the figures follow', async () => {
    useFixedClock();
    const [first] = seedRecordings(2);
    const { user } = await openScheduling({ userOptions: fakeTimerUser });
    await upcomingTable().findByText('Mosque 01');
    expect(figure('Active Schedules').getByText('2')).toBeInTheDocument();
    await user.click(upcomingRow('Mosque 01').getByRole('button', { name: 'Cancel recording for Mosque 01' }));
    // Nothing is cancelled until confirmed: Keep leaves the job as it was.
    await confirmWith(user, 'Keep');
    expect(schedulerMock().jobs.find((job) => job.id === first.id)?.status).toBe('scheduled');
    await user.click(upcomingRow('Mosque 01').getByRole('button', { name: 'Cancel recording for Mosque 01' }));
    await confirmWith(user, 'Cancel Recording');
    expect(await notification(`Job ${first.id} cancelled`)).toBeInTheDocument();
    await waitFor(() => expect(upcomingTable().queryByText('Mosque 01')).not.toBeInTheDocument());
    expect(await figure('Active Schedules').findByText('1')).toBeInTheDocument();
    expect(schedulerMock().jobs.find((job) => job.id === first.id)?.status).toBe('cancelled');
  });

  it('says "Failed to cancel job", or the server\'s error, when cancelling fails', async () => {
    seedRecordings(1, '2030-01-04T09:00:00.000Z');
    server.use(http.post('/api/scheduler/cancel/:id', () => HttpResponse.error()));
    const { user } = await openScheduling();
    const cancel = await upcomingTable().findByRole('button', { name: 'Cancel recording for Mosque 01' });
    await user.click(cancel);
    await confirmWith(user, 'Cancel Recording');
    expect(await notification('Failed to cancel job')).toBeInTheDocument();
    expect(upcomingTable().getByText('Mosque 01')).toBeInTheDocument();

    server.use(
      http.post('/api/scheduler/cancel/:id', () =>
        errorResponse(409, 'Job was already launched; terminate the recording from Instances'),
      ),
    );
    await user.click(cancel);
    await confirmWith(user, 'Cancel Recording');
    expect(await notification('Job was already launched; terminate the recording from Instances')).toBeInTheDocument();
  });

  it('shows a launch in progress and a retry, and offers no cancel while launching', async () => {
    useFixedClock();
    seedRecordings(1, minutesFromNow(-1), { status: 'launching' });
    const [retrying] = seedRecordings(1, minutesFromNow(-2), {
      mosque_name: 'Retry Mosque',
      attempts: 2,
      last_error: 'Connection refused',
    });
    retrying.next_run_time = minutesFromNow(1);
    const { user } = await openScheduling({ userOptions: fakeTimerUser });
    await upcomingTable().findByText('Mosque 01');
    expect(upcomingRow('Mosque 01').getByText('Launching')).toBeInTheDocument();
    expect(upcomingRow('Mosque 01').getByRole('button', { name: 'Cancel recording for Mosque 01' })).toBeDisabled();
    const chip = upcomingRow('Retry Mosque').getByText('Retrying (2)');
    await user.hover(chip);
    expect(await screen.findByRole('tooltip')).toHaveTextContent(
      'Attempt 2 failed: Connection refused. Next try 10:01 AM (your time).',
    );
    expect(
      upcomingRow('Retry Mosque').getByRole('button', { name: 'Cancel recording for Retry Mosque' }),
    ).toBeEnabled();
  });

  it('says when nothing is scheduled', async () => {
    await openScheduling();
    expect(await screen.findByText('No upcoming recordings')).toBeInTheDocument();
    expect(screen.getByText('Schedule Friday recordings to see them here.')).toBeInTheDocument();
    // No pager over an empty list.
    expect(
      within(screen.getByRole('region', { name: 'Upcoming Recordings' })).queryByText(/Rows per page/),
    ).not.toBeInTheDocument();
  });
});
