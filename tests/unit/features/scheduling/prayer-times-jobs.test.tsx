import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { afterEach, describe, expect, it } from 'vitest';
import type { SchedulerPrayerTime } from '../../../../contract/scheduler';
import { MOCK_RECURRING_JOB_ID, schedulerMock } from '../../../../src/mocks/handlers/scheduler';
import { errorResponse } from '../../../../src/mocks/http';
import { ActiveJobsSection } from '../../../../src/features/scheduling/ActiveJobsSection';
import { currentPath, renderWithProviders } from '../../support/render';
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
  it('lists one row per mosque on the mosque clock, and opens its card from its name', async () => {
    const asked: URLSearchParams[] = [];
    server.use(
      http.get('/api/scheduler/prayer-times', ({ request }) => {
        asked.push(new URL(request.url).searchParams);
        return HttpResponse.json({
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
            total: 2_000,
          },
        });
      }),
    );
    const { user } = await openScheduling();
    const table = within(await screen.findByRole('table', { name: 'Prayer Times' }));
    const london = within((await table.findByRole('button', { name: 'London Central Mosque' })).closest('tr')!);
    // One page is asked for, never the whole fleet.
    expect(asked[0].get('limit')).toBe('10');
    expect(asked[0].get('offset')).toBe('0');
    expect(london.getByText('12:03 PM')).toBeInTheDocument();
    expect(london.getByText('Fri, Nov 27, 2026')).toBeInTheDocument();
    expect(london.getByText('11:43 AM')).toBeInTheDocument();
    expect(london.getByText('Your time: Nov 27, 11:43 AM UTC')).toBeInTheDocument();
    expect(london.getByText('Europe/London (GMT)')).toBeInTheDocument();
    expect(london.getByText('Muslim World League')).toBeInTheDocument();
    const cairo = within(table.getByRole('button', { name: 'Al-Azhar Mosque' }).closest('tr')!);
    expect(cairo.getByText('12:00 PM')).toBeInTheDocument();
    expect(cairo.getByText('Africa/Cairo (GMT+2)')).toBeInTheDocument();
    expect(cairo.getByText("Fixed Jumu'ah time")).toBeInTheDocument();
    expect(screen.getByText('1–10 of 2,000')).toBeInTheDocument();

    expect(screen.queryByRole('article')).not.toBeInTheDocument();
    await user.click(table.getByRole('button', { name: 'Al-Azhar Mosque' }));
    const card = prayerCard('Al-Azhar Mosque');
    expect(card.getByText('Friday prayer').nextElementSibling).toHaveTextContent('12:00 PM');
    expect(card.getByText('Recording starts').nextElementSibling).toHaveTextContent('Your time: Nov 27, 9:40 AM UTC');
    expect(card.getByText('Timezone').nextElementSibling).toHaveTextContent('Africa/Cairo (GMT+2)');
    expect(card.getByText('Method').nextElementSibling).toHaveTextContent("Fixed Jumu'ah time");
    await user.click(card.getByRole('button', { name: 'Close the prayer time of Al-Azhar Mosque' }));
    expect(screen.queryByRole('article')).not.toBeInTheDocument();
  });

  it('searches, sorts and pages on the server, with the view in the address beside the Fridays view', async () => {
    const asked: URLSearchParams[] = [];
    server.events.on('request:start', ({ request }) => {
      const url = new URL(request.url);
      if (url.pathname === '/api/scheduler/prayer-times') asked.push(url.searchParams);
    });
    const { user } = await openScheduling();
    const table = within(await screen.findByRole('table', { name: 'Prayer Times' }));
    expect(await table.findByRole('button', { name: 'London Central Mosque' })).toBeInTheDocument();
    await user.click(table.getByRole('button', { name: 'Recording Starts' }));
    await waitFor(() => expect(asked.at(-1)?.get('sort')).toBe('recording_start'));
    expect(asked.at(-1)?.get('order')).toBe('asc');
    await user.type(screen.getByRole('textbox', { name: 'Search prayer times' }), 'nowhere');
    await waitFor(() => expect(asked.at(-1)?.get('q')).toBe('nowhere'));
    expect(await table.findByText(/^No prayer times/)).toBeInTheDocument();
    const address = new URLSearchParams(currentPath().split('?')[1]);
    expect(address.get('prayer.q')).toBe('nowhere');
    expect(address.get('prayer.sort')).toBe('recording_start');
    // The Fridays ledger keeps its own search.
    expect(address.get('q')).toBeNull();
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
    // The section alone: its paging is the subject, not the page's other sections (status, upcoming, prayer times).
    const { user } = renderWithProviders(
      <ActiveJobsSection
        polling={false}
        cancelling={null}
        onCancel={() => expect.unreachable('nothing is cancelled')}
      />,
      { path: '/scheduling', as: 'admin', userOptions: fakeTimerUser },
    );
    await screen.findByRole('list', { name: 'Scheduler jobs' }, { timeout: scaled(15_000) });
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
