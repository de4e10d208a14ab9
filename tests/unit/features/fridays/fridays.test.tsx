import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { Job } from '../../../../contract/scheduler';
import { mockRecordingJob, schedulerMock } from '../../../../src/mocks/handlers/scheduler';
import { currentPath, renderApp } from '../../support/render';
import { fakeTimerUser, LONDON, notification, openScheduling, useFixedClock } from '../scheduling/helpers';
import { scaled } from '../../../../testkit/time-scale';

/** London Central Mosque's job for Friday 2026-11-27 (the coming Friday of the fixed clock), in the given state. */
function londonJob(fields: Partial<Job>): Job {
  const job = mockRecordingJob({
    mosque_id: LONDON,
    mosque_name: 'London Central Mosque',
    recording_start: '2026-11-27T11:45:00.000Z',
    timezone: 'Europe/London',
    ...fields,
  });
  schedulerMock().jobs.push(job);
  return job;
}

const fridaysTable = () => within(screen.getByRole('table', { name: 'Fridays' }));
const fridayRow = (mosque: string) => {
  const row = fridaysTable().getByText(mosque).closest('tr');
  if (!(row instanceof HTMLElement)) throw new Error(`no Fridays row for ${mosque}`);
  return within(row);
};

describe('Fridays', { timeout: scaled(40_000) }, () => {
  it('shows each active mosque of the coming Friday with its status, coverage and reason, filtered by status', async () => {
    useFixedClock();
    londonJob({
      status: 'partial',
      covered_seconds: 1500,
      expected_seconds: 7200,
      outcome_reason: 'Recorded 25 min of 2 h (20%); launched 1 h 35 min after the recording start',
    });
    const { user } = await openScheduling({ userOptions: fakeTimerUser });
    await fridaysTable().findByText('London Central Mosque');
    expect(screen.getByLabelText('Friday')).toHaveValue('2026-11-27');
    expect(fridayRow('London Central Mosque').getByText('Partial')).toBeInTheDocument();
    expect(fridayRow('London Central Mosque').getByText('25 min of 2 h (20%)')).toBeInTheDocument();
    const bar = fridayRow('London Central Mosque').getByRole('progressbar', {
      name: 'Coverage of London Central Mosque',
    });
    expect(Number(bar.getAttribute('aria-valuenow'))).toBeCloseTo(20.8, 0);
    expect(
      fridayRow('London Central Mosque').getByText(/launched 1 h 35 min after the recording start/),
    ).toBeInTheDocument();
    expect(fridayRow('East London Mosque').getByText('Unschedulable')).toBeInTheDocument();
    expect(fridayRow('East London Mosque').getByText("No coordinates or fixed Jumu'ah time")).toBeInTheDocument();
    expect(fridaysTable().queryByText('Al-Azhar Mosque')).not.toBeInTheDocument();

    await user.click(screen.getByRole('combobox', { name: 'Status' }));
    await user.click(await screen.findByRole('option', { name: 'Partial (1)' }));
    await waitFor(() => expect(fridaysTable().queryByText('East London Mosque')).not.toBeInTheDocument());
    expect(fridaysTable().getByText('London Central Mosque')).toBeInTheDocument();
  });

  it('restores a cancelled recording whose window is still open', async () => {
    useFixedClock();
    const job = londonJob({ status: 'cancelled', next_run_time: null });
    const { user } = await openScheduling({ userOptions: fakeTimerUser });
    await fridaysTable().findByText('London Central Mosque');
    expect(fridayRow('London Central Mosque').getByText('Cancelled')).toBeInTheDocument();
    await user.click(
      fridayRow('London Central Mosque').getByRole('button', { name: 'Restore recording for London Central Mosque' }),
    );
    expect(await notification(`Job ${job.id} restored`)).toBeInTheDocument();
    expect(schedulerMock().jobs.find((candidate) => candidate.id === job.id)?.status).toBe('scheduled');
    expect(await fridayRow('London Central Mosque').findByText('Scheduled')).toBeInTheDocument();
    expect(fridayRow('London Central Mosque').queryByRole('button', { name: /Restore/ })).not.toBeInTheDocument();
  });

  it('opens a past Friday and a status from the address, as the Dashboard links', async () => {
    useFixedClock();
    await renderApp('/scheduling?friday=2026-11-20&status=missed', { as: 'admin', userOptions: fakeTimerUser });
    await screen.findByRole('table', { name: 'Fridays' }, { timeout: scaled(15_000) });
    expect(
      await fridayRow('London Central Mosque').findByText('No recording was scheduled for this Friday'),
    ).toBeInTheDocument();
    expect(screen.getByLabelText('Friday')).toHaveValue('2026-11-20');
    expect(fridaysTable().queryByText('East London Mosque')).not.toBeInTheDocument();
  });

  it('searches and sorts the ledger on the server, and a link reproduces the view', async () => {
    useFixedClock();
    const { user } = await renderApp('/scheduling?q=london&sort=mosque_name&order=desc', {
      as: 'admin',
      userOptions: fakeTimerUser,
    });
    await screen.findByRole('table', { name: 'Fridays' }, { timeout: scaled(15_000) });
    await fridaysTable().findByText('London Central Mosque');
    const mosques = () =>
      fridaysTable()
        .getAllByRole('row')
        .slice(1)
        .map((row) => within(row).getAllByRole('cell')[0].textContent);
    expect(mosques()).toEqual(['London Central Mosque', 'East London Mosque']);
    expect(screen.getByLabelText('Search Fridays')).toHaveValue('london');
    await user.click(fridaysTable().getByRole('button', { name: 'Mosque' }));
    await waitFor(() => expect(mosques()).toEqual(['East London Mosque', 'London Central Mosque']));
    expect(currentPath()).toBe('/scheduling?q=london&sort=mosque_name&order=asc');
  });

  it('counts This Friday per status on the Dashboard; a count opens the Fridays view filtered by it', async () => {
    useFixedClock();
    londonJob({ status: 'failed', covered_seconds: 0, outcome_reason: 'No media was recorded: the stream never came' });
    const { user } = await renderApp('/', { as: 'admin', userOptions: fakeTimerUser });
    const panel = within(
      (await screen.findByRole('heading', { name: 'This Friday' }, { timeout: scaled(15_000) })).closest(
        'section',
      ) as HTMLElement,
    );
    expect(await panel.findByText('2026-11-27 · 2 active mosques')).toBeInTheDocument();
    expect(panel.getByRole('link', { name: 'Unschedulable: 1 mosque' })).toBeInTheDocument();
    expect(panel.getByRole('link', { name: 'Captured: 0 mosques' })).toBeInTheDocument();
    await user.click(panel.getByRole('link', { name: 'Failed: 1 mosque' }));
    await screen.findByRole('heading', { name: 'Scheduling Management', level: 1 }, { timeout: scaled(15_000) });
    expect(
      await fridayRow('London Central Mosque').findByText('No media was recorded: the stream never came'),
    ).toBeInTheDocument();
    expect(fridaysTable().queryByText('East London Mosque')).not.toBeInTheDocument();
  });
});
