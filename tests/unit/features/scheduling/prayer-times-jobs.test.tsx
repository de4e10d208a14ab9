import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { afterEach, describe, expect, it } from 'vitest';
import type { SchedulerPrayerTime } from '../../../../contract/scheduler';
import { MOCK_RECURRING_JOB_ID, schedulerMock } from '../../../../src/mocks/handlers/scheduler';
import { errorResponse } from '../../../../src/mocks/http';
import { server } from '../../support/server';
import {
  confirmWith,
  dialog,
  fakeTimerUser,
  jobItem,
  jobsList,
  notification,
  openScheduling,
  seedRecordings,
  useFixedClock,
} from './helpers';
import { scaled } from '../../../../testkit/time-scale';

afterEach(() => server.events.removeAllListeners());

const RECURRING = 'Schedule the coming Friday recordings (daily, 00:00 UTC)';

const prayer = (
  fields: Partial<SchedulerPrayerTime> & Pick<SchedulerPrayerTime, 'mosque_id' | 'mosque_name'>,
): SchedulerPrayerTime => ({
  friday_prayer: '2026-11-27T12:03:00.000Z',
  recording_start: '2026-11-27T11:43:00.000Z',
  recording_time: '11:43',
  prayer_time: '12:03',
  timezone: 'Europe/London',
  calculation_method: 'MuslimWorldLeague',
  ...fields,
});

const prayerCard = (name: string) => within(screen.getByRole('article', { name }));

describe('Scheduling Management: Prayer Times and Active Jobs', { timeout: scaled(40_000) }, () => {
  it('shows one prayer time card per mosque, on the mosque clock', async () => {
    server.use(
      http.get('/api/scheduler/prayer-times', () =>
        HttpResponse.json({
          success: true,
          data: {
            prayer_times: [
              prayer({ mosque_id: 'lcm4r8k2p1', mosque_name: 'London Central Mosque' }),
              prayer({
                mosque_id: 'azh3c5v8n6',
                mosque_name: 'Al-Azhar Mosque',
                friday_prayer: '2026-11-27T10:00:00.000Z',
                recording_start: '2026-11-27T09:40:00.000Z',
                timezone: 'Africa/Cairo',
                calculation_method: 'Fixed',
              }),
            ],
          },
        }),
      ),
    );
    await openScheduling();
    const region = within(screen.getByRole('region', { name: 'Prayer Times' }));
    expect(await region.findAllByRole('article')).toHaveLength(2);
    const london = prayerCard('London Central Mosque');
    expect(london.getByText('Fri, Nov 27, 2026')).toBeInTheDocument();
    expect(london.getByText('Friday prayer').nextElementSibling).toHaveTextContent('12:03 PM');
    expect(london.getByText('Recording starts').nextElementSibling).toHaveTextContent('11:43 AM');
    expect(london.getByText('Recording starts').nextElementSibling).toHaveTextContent(
      'Your time: Nov 27, 11:43 AM UTC',
    );
    expect(london.getByText('Timezone').nextElementSibling).toHaveTextContent('Europe/London (GMT)');
    expect(london.getByText('Method').nextElementSibling).toHaveTextContent('Muslim World League');
    const cairo = prayerCard('Al-Azhar Mosque');
    expect(cairo.getByText('Friday prayer').nextElementSibling).toHaveTextContent('12:00 PM');
    expect(cairo.getByText('Timezone').nextElementSibling).toHaveTextContent('Africa/Cairo (GMT+2)');
    expect(cairo.getByText('Method').nextElementSibling).toHaveTextContent("Fixed Jumu'ah time");
  });

  it('reads the prayer times of the mocks: active mosques with coordinates only', async () => {
    await openScheduling();
    const region = within(screen.getByRole('region', { name: 'Prayer Times' }));
    expect(await region.findByRole('article', { name: 'London Central Mosque' })).toBeInTheDocument();
    expect(region.getAllByRole('article')).toHaveLength(1);
  });

  it('lists each job with function, next run and trigger; the recurring job cannot be cancelled', async () => {
    useFixedClock();
    seedRecordings(1);
    await openScheduling({ userOptions: fakeTimerUser });
    const recording = jobItem('Friday recording: Mosque 01');
    expect(recording.getByText('record_friday_prayer')).toBeInTheDocument();
    expect(recording.getByText('Nov 27, 2026, 9:00 AM UTC')).toBeInTheDocument();
    expect(recording.getByText('date[2026-11-27T09:00:00Z]')).toBeInTheDocument();
    expect(recording.getByText('scheduled')).toBeInTheDocument();
    expect(recording.getByRole('button', { name: 'Cancel job friday-mosque0001-2026-11-27' })).toBeEnabled();

    const recurring = jobItem(RECURRING);
    expect(recurring.getByText('schedule_friday_recordings')).toBeInTheDocument();
    expect(recurring.getByText('cron[0 0 * * *]')).toBeInTheDocument();
    expect(recurring.getByText('Nov 27, 2026, 12:00 AM UTC')).toBeInTheDocument();
    expect(recurring.getByRole('button', { name: `Cancel job ${MOCK_RECURRING_JOB_ID}` })).toBeDisabled();
  });

  it('cancels a job from the list', async () => {
    const [job] = seedRecordings(1, '2030-01-04T09:00:00.000Z');
    const { user } = await openScheduling();
    await user.click(await jobsList().findByRole('button', { name: `Cancel job ${job.id}` }));
    expect(
      dialog().getByText(
        /^Mosque 01, Friday 2030-01-04: the recording starting Jan 4, 2030, 9:00 AM UTC will not be launched/,
      ),
    ).toBeInTheDocument();
    await confirmWith(user, 'Cancel Recording');
    expect(await notification(`Job ${job.id} cancelled`)).toBeInTheDocument();
    await waitFor(() => expect(jobItem(`Friday recording: Mosque 01`).getByText('cancelled')).toBeInTheDocument());
    expect(jobItem('Friday recording: Mosque 01').getByRole('button', { name: `Cancel job ${job.id}` })).toBeDisabled();
  });

  it('says the server\'s error, else "Failed to cancel job", when cancelling a job fails', async () => {
    const [job] = seedRecordings(1, '2030-01-04T09:00:00.000Z');
    server.use(http.post('/api/scheduler/cancel/:id', () => errorResponse(404, `Job ${job.id} not found`)));
    const { user } = await openScheduling();
    const cancel = await jobsList().findByRole('button', { name: `Cancel job ${job.id}` });
    await user.click(cancel);
    await confirmWith(user, 'Cancel Recording');
    expect(await notification(`Job ${job.id} not found`)).toBeInTheDocument();
    server.use(http.post('/api/scheduler/cancel/:id', () => new HttpResponse(null, { status: 500 })));
    await user.click(cancel);
    await confirmWith(user, 'Cancel Recording');
    expect(await notification('Failed to cancel job')).toBeInTheDocument();
  });

  it('shows finished jobs after the waiting ones, with their error', async () => {
    useFixedClock();
    const [done] = seedRecordings(1, '2026-11-26T08:00:00.000Z', {
      mosque_name: 'Missed Mosque',
      status: 'missed',
      last_error: 'The server was down during the whole window',
    });
    done.next_run_time = null;
    seedRecordings(1);
    await openScheduling({ userOptions: fakeTimerUser });
    const names = jobsList()
      .getAllByRole('listitem')
      .map((item) => item.getAttribute('aria-label'));
    // Waiting jobs by next run (the recurring one runs at midnight), then the finished ones.
    expect(names).toEqual([RECURRING, 'Friday recording: Mosque 01', 'Friday recording: Missed Mosque']);
    const missed = jobItem('Friday recording: Missed Mosque');
    expect(missed.getByText('missed')).toBeInTheDocument();
    expect(missed.getByText('None')).toBeInTheDocument();
    expect(missed.getByText('The server was down during the whole window')).toBeInTheDocument();
  });

  it('pages the jobs with 10, 25, 50 and 100 per page', async () => {
    useFixedClock();
    seedRecordings(120);
    const { user } = await openScheduling({ userOptions: fakeTimerUser });
    await jobsList().findByRole('listitem', { name: 'Friday recording: Mosque 01' });
    const region = within(screen.getByRole('region', { name: 'Active Jobs' }));
    const pageSize = async (size: string) => {
      await user.click(region.getByRole('combobox', { name: /Rows per page/ }));
      await user.click(screen.getByRole('option', { name: size }));
    };
    expect(jobsList().getAllByRole('listitem')).toHaveLength(10);
    expect(region.getByText('1–10 of 121')).toBeInTheDocument();
    await pageSize('25');
    expect(jobsList().getAllByRole('listitem')).toHaveLength(25);
    await pageSize('50');
    expect(jobsList().getAllByRole('listitem')).toHaveLength(50);
    await pageSize('100');
    expect(jobsList().getAllByRole('listitem')).toHaveLength(100);
    await user.click(region.getByRole('button', { name: 'Go to next page' }));
    expect(jobsList().getAllByRole('listitem')).toHaveLength(21);
    expect(region.getByText('101–121 of 121')).toBeInTheDocument();
    expect(schedulerMock().jobs).toHaveLength(121);
  });
});
