import { act, screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import type { Alarm } from '../../../../contract/alarms';
import { alarmsMock, raiseMockAlarm } from '../../../../src/mocks/handlers/alarms';
import { liveSocket } from '../../../../src/mocks/handlers/live';
import { store } from '../../../../src/mocks/store';
import { currentPath, renderApp } from '../../support/render';
import { server } from '../../support/server';
import { scaled } from '../../../../testkit/time-scale';

const bell = () => within(screen.getByRole('banner')).getByRole('link', { name: /^Alarms:/ });
const alarmItem = (name: string) =>
  within(screen.getByRole('list', { name: 'Alarms' })).getByRole('listitem', { name });

const liveAlarm = (fields: Partial<Alarm> & Pick<Alarm, 'id' | 'message'>): Alarm => ({
  kind: 'launch_failed',
  severity: 'critical',
  mosque_id: 'mq02',
  mosque_name: 'Masjid Al-Huda',
  job_id: 'job-1',
  instance_id: null,
  raised_at: new Date().toISOString(),
  acknowledged_at: null,
  acknowledged_by: null,
  resolved_at: null,
  ...fields,
});

/** What the server does on a change: store it, then tell the live consoles. */
function announce(alarm: Alarm) {
  const stored = alarmsMock().find((a) => a.id === alarm.id);
  if (!stored) raiseMockAlarm(alarm);
  act(() => liveSocket.broadcast(JSON.stringify({ type: 'alarm', data: { ...alarm, deliveries: undefined } })));
}

describe('alarms in the console', { timeout: scaled(30_000) }, () => {
  it('shows the open count on the bell, red while one is critical, and opens the list', async () => {
    const { user } = await renderApp('/profile', { as: 'operator' });
    await waitFor(() => expect(bell()).toHaveAccessibleName('Alarms: 1 open, critical'));
    expect(within(bell()).getByText('1')).toBeInTheDocument();
    await user.click(bell());
    await waitFor(() => expect(currentPath()).toBe('/alarms'));
    expect(await screen.findByRole('heading', { name: 'Alarms', level: 1 })).toBeInTheDocument();
  });

  it('reads "none open" when nothing is open', async () => {
    alarmsMock().length = 0;
    await renderApp('/profile', { as: 'operator' });
    await waitFor(() => expect(bell()).toHaveAccessibleName('Alarms: none open'));
  });

  it('lists open alarms with reason, delivery state and links; All adds the resolved ones', async () => {
    const { user } = await renderApp('/alarms', { as: 'operator' });
    const item = await screen.findByRole('listitem', { name: 'Capture failed: Central Mosque' });
    expect(within(item).getByText('No media — the stream never came')).toBeInTheDocument();
    expect(within(item).getByText('Open')).toBeInTheDocument();
    expect(within(item).getByText('Webhook: delivered')).toBeInTheDocument();
    expect(within(item).getByRole('link', { name: 'Central Mosque' })).toHaveAttribute('href', '/config');
    expect(within(item).getByRole('link', { name: 'cap-0001' })).toHaveAttribute('href', '/instances');
    expect(screen.queryByRole('listitem', { name: 'No media: Central Mosque' })).not.toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'All' }));
    const resolved = await screen.findByRole('listitem', { name: 'No media: Central Mosque' });
    expect(within(resolved).getByText('Resolved')).toBeInTheDocument();
    expect(within(resolved).queryByRole('button', { name: /Acknowledge/ })).not.toBeInTheDocument();
  });

  it('titles a stall by what is missing, not by whose fault: its message names the cause', async () => {
    // The server's stall alarm for a copy of the stream that fell behind on its machine.
    raiseMockAlarm({
      id: 'alm-behind',
      kind: 'stall',
      severity: 'warning',
      mosque_name: 'Masjid Al-Huda',
      message:
        "Masjid Al-Huda: nothing recorded since 13:43:51 UTC: the recorder could not keep up with the stream on its machine (Recorder behind: ffmpeg's output is 61 s behind the stream)",
    });
    await renderApp('/alarms', { as: 'operator' });
    const item = await screen.findByRole('listitem', { name: 'No media: Masjid Al-Huda' });
    expect(within(item).getByText(/could not keep up with the stream on its machine/)).toBeInTheDocument();
    expect(within(item).queryByText(/Stream stalled/)).not.toBeInTheDocument();
  });

  it('shows a delivery that is being retried, with its attempts', async () => {
    raiseMockAlarm({
      id: 'alm-retry',
      kind: 'missed',
      severity: 'critical',
      message: 'The recording was never launched',
      mosque_name: 'Masjid Al-Huda',
      deliveries: [
        {
          channel: 'webhook',
          event: 'raised',
          state: 'retrying',
          attempts: 2,
          last_attempt_at: null,
          next_attempt_at: null,
          last_error: 'The webhook answered HTTP 502',
          delivered_at: null,
        },
      ],
    });
    await renderApp('/alarms', { as: 'operator' });
    const item = await screen.findByRole('listitem', { name: 'Friday missed: Masjid Al-Huda' });
    expect(within(item).getByText('Webhook: retrying, 2 attempts')).toBeInTheDocument();
    expect(within(item).getByText('Webhook last attempt: The webhook answered HTTP 502')).toBeInTheDocument();
  });

  it('acknowledges an alarm, naming the operator, and keeps it open', async () => {
    const { user } = await renderApp('/alarms', { as: 'operator' });
    const item = await screen.findByRole('listitem', { name: 'Capture failed: Central Mosque' });
    await user.click(within(item).getByRole('button', { name: 'Acknowledge alarm: Central Mosque' }));
    expect(await screen.findByText('Alarm acknowledged: Central Mosque')).toBeInTheDocument();
    await waitFor(() =>
      expect(within(alarmItem('Capture failed: Central Mosque')).getByText('Acknowledged')).toBeInTheDocument(),
    );
    expect(within(alarmItem('Capture failed: Central Mosque')).getByText(/by operator$/)).toBeInTheDocument();
    expect(
      within(alarmItem('Capture failed: Central Mosque')).queryByRole('button', { name: /Acknowledge/ }),
    ).not.toBeInTheDocument();
    expect(alarmsMock()[0]).toMatchObject({ id: 'alm-capture-failed', acknowledged_by: 'operator', resolved_at: null });
  });

  it('says why when acknowledging fails', async () => {
    server.use(
      http.post('/api/alarms/:id/acknowledge', () =>
        HttpResponse.json(
          { success: false, detail: 'Alarm alm-capture-failed not found', error: 'Alarm alm-capture-failed not found' },
          { status: 404 },
        ),
      ),
    );
    const { user } = await renderApp('/alarms', { as: 'operator' });
    const item = await screen.findByRole('listitem', { name: 'Capture failed: Central Mosque' });
    await user.click(within(item).getByRole('button', { name: 'Acknowledge alarm: Central Mosque' }));
    expect(await screen.findByText('Alarm alm-capture-failed not found')).toBeInTheDocument();
  });

  it('notifies at once when a critical alarm is raised live, and counts it on the bell', async () => {
    await renderApp('/profile', { as: 'operator' });
    await screen.findByText('Connected');
    await waitFor(() => expect(bell()).toHaveAccessibleName('Alarms: 1 open, critical'));
    announce(liveAlarm({ id: 'alm-new', message: 'The launch failed after 3 tries: connection refused' }));
    expect(
      await screen.findByText('Critical alarm: Masjid Al-Huda — The launch failed after 3 tries: connection refused'),
    ).toBeInTheDocument();
    await waitFor(() => expect(bell()).toHaveAccessibleName('Alarms: 2 open, critical'));
  });

  it('does not notify for a warning, nor again when a known alarm changes; a resolved one leaves the bell', async () => {
    await renderApp('/profile', { as: 'operator' });
    await screen.findByText('Connected');
    await waitFor(() => expect(bell()).toHaveAccessibleName('Alarms: 1 open, critical'));
    announce(liveAlarm({ id: 'alm-w', severity: 'warning', kind: 'stall', message: 'No media for 70 s' }));
    await waitFor(() => expect(bell()).toHaveAccessibleName('Alarms: 2 open, critical'));
    const seeded = alarmsMock().find((alarm) => alarm.id === 'alm-capture-failed');
    if (!seeded) throw new Error('seed changed');
    seeded.resolved_at = new Date().toISOString();
    announce(seeded);
    await waitFor(() => expect(bell()).toHaveAccessibleName('Alarms: 1 open'));
    expect(screen.queryByText(/^Critical alarm:/)).not.toBeInTheDocument();
  });

  it('shows the open count from the API when the live feed is down', async () => {
    store.liveAvailable = false;
    await renderApp('/profile', { as: 'operator' });
    await waitFor(() => expect(bell()).toHaveAccessibleName('Alarms: 1 open, critical'));
  });
});
