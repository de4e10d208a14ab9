import { act, screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { STOPPED_WARNING } from '../../../../src/features/scheduling/UpcomingRecordingsSection';
import { schedulerMock } from '../../../../src/mocks/handlers/scheduler';
import { errorResponse } from '../../../../src/mocks/http';
import { server } from '../../support/server';
import {
  confirmWith,
  countRequests,
  dialog,
  fakeTimerUser,
  figure,
  notification,
  openScheduling,
  seedRecordings,
  statusCard,
  useFixedClock,
} from './helpers';
import { scaled } from '../../../../testkit/time-scale';

afterEach(() => server.events.removeAllListeners());

const DATA_PATHS = [
  '/api/scheduler/status',
  '/api/scheduler/upcoming',
  '/api/scheduler/prayer-times',
  '/api/scheduler/jobs',
];
const scheduleButton = () => screen.getByRole('button', { name: 'Schedule Friday Recordings' });

describe('Scheduling Management: status and controls', { timeout: scaled(40_000) }, () => {
  it('shows the title, Auto Refresh (on), Refresh, and the running scheduler with its figures', async () => {
    useFixedClock();
    seedRecordings(3);
    await openScheduling({ userOptions: fakeTimerUser });
    expect(screen.getByRole('switch', { name: 'Auto Refresh' })).toBeChecked();
    expect(screen.getByRole('button', { name: 'Refresh' })).toBeInTheDocument();
    expect(statusCard().getByText('Running').closest('.MuiChip-root')).toHaveClass('MuiChip-colorSuccess');
    expect(scheduleButton()).toBeEnabled();
    expect(statusCard().getByRole('button', { name: 'Stop Scheduler' })).toBeEnabled();
    expect(statusCard().queryByRole('button', { name: 'Start Scheduler' })).not.toBeInTheDocument();
    // Three recordings and the recurring job.
    expect(figure('Total Jobs').getByText('4')).toBeInTheDocument();
    expect(figure('Active Schedules').getByText('3')).toBeInTheDocument();
    expect(figure('Next Recording').getByText('Nov 27, 2026, 9:00 AM UTC')).toBeInTheDocument();
    expect(figure('Next Recording').getByText('Mosque 01')).toBeInTheDocument();
  });

  it('shows a stopped scheduler: Stopped chip, Start Scheduler, Schedule Friday Recordings disabled', async () => {
    schedulerMock().running = false;
    await openScheduling();
    expect(statusCard().getByText('Stopped').closest('.MuiChip-root')).toHaveClass('MuiChip-colorError');
    expect(statusCard().getByRole('button', { name: 'Start Scheduler' })).toBeEnabled();
    expect(scheduleButton()).toBeDisabled();
    expect(figure('Next Recording').getByText('None scheduled')).toBeInTheDocument();
    expect(await screen.findByText('Start the scheduler, then schedule Friday recordings.')).toBeInTheDocument();
  });

  it('starts the scheduler: "Scheduler started", Running, and scheduling becomes possible', async () => {
    schedulerMock().running = false;
    const { user } = await openScheduling();
    await user.click(statusCard().getByRole('button', { name: 'Start Scheduler' }));
    expect(await notification('Scheduler started')).toBeInTheDocument();
    expect(statusCard().getByText('Running')).toBeInTheDocument();
    expect(scheduleButton()).toBeEnabled();
    expect(schedulerMock().running).toBe(true);
  });

  it('stops the scheduler: "Scheduler stopped", Stopped, scheduling disabled, and a warning over the waiting recordings', async () => {
    seedRecordings(1, '2030-01-04T09:00:00.000Z');
    const { user } = await openScheduling();
    await screen.findByText('Mosque 01', { selector: 'td p' });
    expect(screen.queryByText(STOPPED_WARNING)).not.toBeInTheDocument();
    await user.click(statusCard().getByRole('button', { name: 'Stop Scheduler' }));
    expect(dialog().getByText(/no Friday recording is launched/)).toBeInTheDocument();
    await confirmWith(user, 'Stop');
    expect(await notification('Scheduler stopped')).toBeInTheDocument();
    expect(statusCard().getByText('Stopped')).toBeInTheDocument();
    expect(scheduleButton()).toBeDisabled();
    expect(schedulerMock().running).toBe(false);
    expect(await screen.findByText(STOPPED_WARNING)).toBeInTheDocument();
  });

  it('says "Failed to start scheduler", or the server\'s error, when starting fails', async () => {
    schedulerMock().running = false;
    server.use(http.post('/api/scheduler/start', () => HttpResponse.error()));
    const { user } = await openScheduling();
    await user.click(statusCard().getByRole('button', { name: 'Start Scheduler' }));
    expect(await notification('Failed to start scheduler')).toBeInTheDocument();
    expect(statusCard().getByText('Stopped')).toBeInTheDocument();

    server.use(http.post('/api/scheduler/start', () => errorResponse(503, 'Database is unavailable')));
    await user.click(statusCard().getByRole('button', { name: 'Start Scheduler' }));
    expect(await notification('Database is unavailable')).toBeInTheDocument();
  });

  it('says "Failed to stop scheduler", or the server\'s error, when stopping fails', async () => {
    server.use(http.post('/api/scheduler/stop', () => HttpResponse.error()));
    const { user } = await openScheduling();
    await user.click(statusCard().getByRole('button', { name: 'Stop Scheduler' }));
    await confirmWith(user, 'Stop');
    expect(await notification('Failed to stop scheduler')).toBeInTheDocument();
    expect(statusCard().getByText('Running')).toBeInTheDocument();

    server.use(http.post('/api/scheduler/stop', () => errorResponse(403, 'Not allowed')));
    await user.click(statusCard().getByRole('button', { name: 'Stop Scheduler' }));
    await confirmWith(user, 'Stop');
    expect(await notification('Not allowed')).toBeInTheDocument();
  });

  it('keeps the scheduler running when Stop Scheduler is not confirmed', async () => {
    const { user } = await openScheduling();
    await user.click(statusCard().getByRole('button', { name: 'Stop Scheduler' }));
    await confirmWith(user, 'Keep Running');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(schedulerMock().running).toBe(true);
    expect(statusCard().getByText('Running')).toBeInTheDocument();
  });

  it('says "Failed to load scheduler data" in a dismissible banner when a call gets no answer', async () => {
    server.use(http.get('/api/scheduler/upcoming', () => HttpResponse.error()));
    const { user } = await openScheduling();
    const banner = (await screen.findByText('Failed to load scheduler data')).closest('.MuiAlert-root');
    expect(banner).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Close' }));
    expect(screen.queryByText('Failed to load scheduler data')).not.toBeInTheDocument();
  });

  it("says a paged section's failure in that section", async () => {
    server.use(http.get('/api/scheduler/jobs', () => HttpResponse.error()));
    await openScheduling();
    const jobs = within(screen.getByRole('region', { name: 'Active Jobs' }));
    expect(await jobs.findByText('Failed to load scheduler data')).toBeInTheDocument();
  });

  it("prefers the server's error when loading fails", async () => {
    server.use(
      http.get('/api/scheduler/prayer-times', () =>
        errorResponse(503, 'Prayer times are unavailable: no coordinates service'),
      ),
    );
    await openScheduling();
    expect(await screen.findByText('Prayer times are unavailable: no coordinates service')).toBeInTheDocument();
  });

  it('asks for every scheduler figure again every 30 s while Auto Refresh is on, and not when off', async () => {
    useFixedClock();
    const counts = countRequests(DATA_PATHS);
    const { user } = await openScheduling({ userOptions: fakeTimerUser });
    await waitFor(() => expect(Object.values(counts)).toEqual([1, 1, 1, 1]));
    await act(async () => {
      await vi.advanceTimersByTimeAsync(29_000);
    });
    expect(Object.values(counts)).toEqual([1, 1, 1, 1]);
    await act(async () => {
      await vi.advanceTimersByTimeAsync(1_500);
    });
    await waitFor(() => expect(Object.values(counts)).toEqual([2, 2, 2, 2]));

    await user.click(screen.getByRole('switch', { name: 'Auto Refresh' }));
    expect(screen.getByRole('switch', { name: 'Auto Refresh' })).not.toBeChecked();
    await act(async () => {
      await vi.advanceTimersByTimeAsync(95_000);
    });
    expect(Object.values(counts)).toEqual([2, 2, 2, 2]);

    await user.click(screen.getByRole('switch', { name: 'Auto Refresh' }));
    await act(async () => {
      await vi.advanceTimersByTimeAsync(30_500);
    });
    await waitFor(() => expect(Object.values(counts)).toEqual([3, 3, 3, 3]));
  });

  it('asks for everything again on Refresh', async () => {
    const counts = countRequests(DATA_PATHS);
    const { user } = await openScheduling();
    await waitFor(() => expect(Object.values(counts)).toEqual([1, 1, 1, 1]));
    seedRecordings(2);
    await user.click(screen.getByRole('button', { name: 'Refresh' }));
    await waitFor(() => expect(Object.values(counts)).toEqual([2, 2, 2, 2]));
    expect(await figure('Active Schedules').findByText('2')).toBeInTheDocument();
  });
});
