import { screen, waitFor } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { afterEach, describe, expect, it } from 'vitest';
import { SCHEDULER_NOT_RUNNING_MESSAGE } from '../../../../contract/scheduler';
import { schedulerMock } from '../../../../src/mocks/handlers/scheduler';
import { errorResponse } from '../../../../src/mocks/http';
import { captureBodies, server } from '../../support/server';
import {
  dialog,
  EAST_LONDON,
  fakeTimerUser,
  LONDON,
  notification,
  openScheduling,
  upcomingRow,
  upcomingTable,
  useFixedClock,
} from './helpers';
import { scaled } from '../../../../testkit/time-scale';

afterEach(() => server.events.removeAllListeners());

async function openDialog(options: Parameters<typeof openScheduling>[0] = {}) {
  const rendered = await openScheduling(options);
  await rendered.user.click(screen.getByRole('button', { name: 'Schedule Friday Recordings' }));
  await screen.findByRole('dialog', { name: 'Schedule Friday Recordings' });
  return rendered;
}

const mosquesField = () => dialog().getByRole('combobox', { name: 'Mosques' });
const forceRefresh = () => dialog().getByRole('checkbox', { name: 'Force refresh' });
const submit = () => dialog().getByRole('button', { name: 'Schedule' });

describe('Schedule Friday Recordings', { timeout: scaled(40_000) }, () => {
  it('opens with force refresh off and an empty mosque filter (all), offering the active mosques', async () => {
    const { user } = await openDialog();
    expect(forceRefresh()).not.toBeChecked();
    expect(mosquesField()).toHaveValue('');
    expect(dialog().getByText('Leave empty to schedule every active mosque')).toBeInTheDocument();
    await user.click(mosquesField());
    const options = (await screen.findAllByRole('option')).map((option) => option.textContent);
    // Searched on the server, by name: Al-Azhar is disabled, the scheduler would not plan it.
    expect(options).toEqual(['East London Mosque (no coordinates)', 'London Central MosqueEurope/London']);
  });

  it('schedules the chosen mosques with force refresh, and shows them in Upcoming', async () => {
    useFixedClock();
    const bodies = captureBodies('POST', '/api/scheduler/schedule-friday');
    const { user } = await openDialog({ userOptions: fakeTimerUser });
    await user.click(mosquesField());
    await user.click(await screen.findByRole('option', { name: /London Central Mosque/ }));
    await user.click(forceRefresh());
    await user.click(submit());
    expect(await notification('Scheduled 1 Friday recording: 1 new, 0 updated, 0 unchanged')).toBeInTheDocument();
    expect(bodies).toEqual([{ forceRefresh: true, mosqueFilter: [LONDON] }]);
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    // The mocks' London prayer: 12:03 UTC (GMT in November), recording 20 minutes before.
    const row = upcomingRow('London Central Mosque');
    expect(row.getByText('Nov 27, 2026, 11:43 AM')).toBeInTheDocument();
    expect(row.getByText('12:03 PM')).toBeInTheDocument();
    expect(schedulerMock().jobs.map((job) => job.id)).toContain(`friday-${LONDON}-2026-11-27`);
  });

  it('sends no filter when none is chosen, and warns about the mosques it skipped', async () => {
    useFixedClock();
    const bodies = captureBodies('POST', '/api/scheduler/schedule-friday');
    const { user } = await openDialog({ userOptions: fakeTimerUser });
    await user.click(submit());
    expect(
      await notification('Scheduled 1 Friday recording: 1 new, 0 updated, 0 unchanged; 1 mosque skipped'),
    ).toBeInTheDocument();
    expect(
      await notification("Skipped 1 mosque: East London Mosque (No coordinates or fixed Jumu'ah time)"),
    ).toBeInTheDocument();
    expect(bodies).toEqual([{ forceRefresh: false, mosqueFilter: null }]);
    expect(await upcomingTable().findByText('London Central Mosque')).toBeInTheDocument();
  });

  it('warns when nothing could be scheduled', async () => {
    const { user } = await openDialog();
    await user.click(mosquesField());
    await user.click(await screen.findByRole('option', { name: /East London Mosque/ }));
    await user.click(submit());
    const message = await notification(
      'Scheduled 0 Friday recordings: 0 new, 0 updated, 0 unchanged; 1 mosque skipped',
    );
    expect(message.closest('.MuiAlert-root')).toHaveClass('MuiAlert-colorWarning');
    expect(schedulerMock().jobs.filter((job) => job.mosque_id === EAST_LONDON)).toHaveLength(0);
  });

  it('says "Failed to schedule recordings" when no answer comes, and keeps the dialog open', async () => {
    server.use(http.post('/api/scheduler/schedule-friday', () => HttpResponse.error()));
    const { user } = await openDialog();
    await user.click(submit());
    expect(await notification('Failed to schedule recordings')).toBeInTheDocument();
    expect(screen.getByRole('dialog', { name: 'Schedule Friday Recordings' })).toBeInTheDocument();
    expect(submit()).toBeEnabled();
  });

  it("shows the server's refusal, e.g. when the scheduler was stopped meanwhile", async () => {
    const { user } = await openDialog();
    schedulerMock().running = false;
    await user.click(submit());
    expect(await notification(SCHEDULER_NOT_RUNNING_MESSAGE)).toBeInTheDocument();
    server.use(
      http.post('/api/scheduler/schedule-friday', () =>
        errorResponse(503, 'Prayer times are unavailable: planner failed'),
      ),
    );
    await user.click(submit());
    expect(await notification('Prayer times are unavailable: planner failed')).toBeInTheDocument();
  });

  it('closes on Cancel without scheduling', async () => {
    const bodies = captureBodies('POST', '/api/scheduler/schedule-friday');
    const { user } = await openDialog();
    await user.click(dialog().getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(bodies).toEqual([]);
  });
});
