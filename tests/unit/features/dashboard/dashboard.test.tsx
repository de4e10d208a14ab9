import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import DashboardPage from '../../../../src/features/dashboard/DashboardPage';
import { addMockInstances, mockInstance } from '../../../../src/mocks/handlers/instances';
import { monitoringMock } from '../../../../src/mocks/handlers/monitoring';
import { renderApp } from '../../support/render';
import { server } from '../../support/server';
import { connect, drop, instance, recording, renderLive, send } from './live';
import { scaled } from '../../../../testkit/time-scale';

const card = (title: string) => {
  const heading = screen.getByText(title);
  const root = heading.closest('.MuiCard-root');
  if (!(root instanceof HTMLElement)) throw new Error(`No card ${title}`);
  return within(root);
};

const section = (name: string) => within(screen.getByRole('region', { name }));

async function openDashboard() {
  const rendered = renderLive(<DashboardPage />);
  await screen.findByRole('heading', { name: 'Dashboard', level: 1 });
  return rendered;
}

describe('Dashboard', { timeout: scaled(15_000) }, () => {
  it('shows Running (with pending and a bar full at 20), Total and Recordings from the live feed', async () => {
    monitoringMock().earlierRecordings = 41;
    await openDashboard();
    connect({
      instances: [instance('a'), instance('b'), instance('c', 'pending'), instance('d', 'terminated')],
      recordings: [recording('r1', 'a'), recording('r2', 'b'), recording('r0', 'd', { status: 'captured' })],
    });
    expect(card('Running Instances').getByText('2')).toBeInTheDocument();
    expect(card('Running Instances').getByText('1 pending')).toBeInTheDocument();
    expect(card('Running Instances').getByRole('progressbar')).toHaveAttribute('aria-valuenow', '10');
    expect(card('Total Instances').getByText('4')).toBeInTheDocument();
    expect(await card('Recordings').findByText('41')).toBeInTheDocument();
    expect(card('Recordings').getByText('2 recording now')).toBeInTheDocument();
  });

  it('shows "—" on the fleet cards and the status panel until the live feed has told the fleet, never 0', async () => {
    let answer: () => void = () => undefined;
    const answered = new Promise<void>((resolve) => (answer = resolve));
    server.use(
      http.get('/api/monitoring/recordings', async () => {
        await answered;
        return HttpResponse.json({ success: false, detail: 'Not now', error: 'Not now' }, { status: 503 });
      }),
    );
    await openDashboard();
    for (const title of ['Running Instances', 'Total Instances', 'Recordings']) {
      expect(card(title).getByText('—')).toBeInTheDocument();
      expect(card(title).queryByText('0')).not.toBeInTheDocument();
    }
    expect(card('Running Instances').queryByRole('progressbar')).not.toBeInTheDocument();
    expect(section('System Status').getAllByText('—')).toHaveLength(2);
    connect({ instances: [instance('a')], recordings: [recording('r1', 'a')] });
    expect(card('Running Instances').getByText('1')).toBeInTheDocument();
    expect(card('Recordings').getByText('1 recording now')).toBeInTheDocument();
    answer();
  });

  it('updates the counts from the live feed without a reload', async () => {
    await openDashboard();
    connect({ instances: [instance('a')] });
    expect(card('Running Instances').getByText('1')).toBeInTheDocument();
    send({ type: 'instance_status_update', data: Array.from({ length: 25 }, (_, i) => instance(`n${i}`)) });
    expect(card('Running Instances').getByText('25')).toBeInTheDocument();
    expect(card('Running Instances').getByRole('progressbar')).toHaveAttribute('aria-valuenow', '100');
    expect(card('Total Instances').getByText('25')).toBeInTheDocument();
  });

  it('asks for the recording total again when a recording starts', async () => {
    let calls = 0;
    server.use(
      http.get('/api/monitoring/recordings', () => {
        calls += 1;
        return HttpResponse.json({ success: true, data: { total_recordings: 6 + calls, by_status: {} } });
      }),
    );
    await openDashboard();
    connect({ recordings: [recording('r1', 'a')] });
    // the page's own load, then once more when the feed (re)connects with news
    await waitFor(() => expect(card('Recordings').getByText('8')).toBeInTheDocument());
    send({ type: 'recordings_update', data: [recording('r1', 'a', { bytes: 9_999_999 })] }); // progress only: no news
    send({ type: 'recordings_update', data: [recording('r2', 'b'), recording('r1', 'a')] });
    expect(await card('Recordings').findByText('9')).toBeInTheDocument();
    expect(calls).toBe(3);
  });

  it('shows connection, system status (green only when operational), active recordings, pending tasks and health', async () => {
    await openDashboard();
    connect({
      instances: [instance('a'), instance('p', 'pending'), instance('q', 'pending')],
      recordings: [recording('r1', 'a'), recording('r2', 'x', { status: 'failed' })],
      system_status: 'operational',
    });
    const panel = section('System Status');
    expect(panel.getByText('WebSocket Connected')).toBeInTheDocument();
    expect(panel.getByLabelText('System status Operational')).toHaveClass('MuiChip-colorSuccess');
    expect(panel.getByText('Active Recordings').nextElementSibling).toHaveTextContent('1');
    expect(panel.getByText('Pending Tasks').nextElementSibling).toHaveTextContent('2');
    expect(panel.getByRole('progressbar', { name: 'System health' })).toHaveAttribute('aria-valuenow', '95');

    send({ type: 'system_status_update', data: { status: 'degraded' } });
    expect(panel.getByLabelText('System status Degraded')).not.toHaveClass('MuiChip-colorSuccess');
    send({ type: 'system_health', data: { overall_health: 'down' } });
    expect(panel.getByLabelText('System status Down')).toHaveClass('MuiChip-colorError');

    drop();
    expect(panel.getByText('WebSocket Disconnected')).toBeInTheDocument();
    expect(panel.getByRole('progressbar', { name: 'System health' })).toHaveAttribute('aria-valuenow', '20');
  });

  it('warns "WebSocket connection lost" as soon as the live connection drops, and not while it is up', async () => {
    await openDashboard();
    connect();
    expect(screen.queryByText('WebSocket connection lost')).not.toBeInTheDocument();
    drop();
    expect(screen.getByText('WebSocket connection lost')).toBeInTheDocument();
    expect(screen.getByText('WebSocket connection lost').closest('.MuiAlert-root')).toHaveClass(
      'MuiAlert-colorWarning',
    );
  });

  it('warns "WebSocket connection lost" when no live connection comes up at all', async () => {
    await openDashboard(); // the socket is never opened
    expect(screen.queryByText('WebSocket connection lost')).not.toBeInTheDocument();
    expect(await screen.findByText('WebSocket connection lost', {}, { timeout: scaled(4000) })).toBeInTheDocument();
  });

  it('counts the fleet from the API while the live feed is down', async () => {
    addMockInstances(
      mockInstance({ state: 'running' }),
      mockInstance({ state: 'running' }),
      mockInstance({ state: 'pending' }),
    );
    await openDashboard(); // the socket is never opened
    expect(await card('Running Instances').findByText('2')).toBeInTheDocument();
    expect(card('Running Instances').getByText('1 pending')).toBeInTheDocument();
    expect(card('Total Instances').getByText('3')).toBeInTheDocument();
    // Once the feed is up, its list is the truth.
    connect({ instances: [instance('a')] });
    expect(card('Total Instances').getByText('1')).toBeInTheDocument();
  });

  it('lists the latest entries of the activity log, newest first', async () => {
    let limit: string | null = null;
    server.use(
      http.get('/api/activity', ({ request }) => {
        limit = new URL(request.url).searchParams.get('limit');
        const at = new Date(Date.now() - 3 * 60_000).toISOString();
        return HttpResponse.json({
          success: true,
          data: {
            entries: [
              {
                id: 9,
                at,
                actor: { id: 1, username: 'admin' },
                action: 'instance.launch',
                target: { type: 'instance', id: 'inst-9', label: null },
                detail: null,
                summary: 'admin launched instance inst-9',
              },
              {
                id: 8,
                at,
                actor: null,
                action: 'schedule.run',
                target: null,
                detail: null,
                summary: 'System scheduled Friday recordings',
              },
            ],
          },
        });
      }),
    );
    await openDashboard();
    const list = within(await screen.findByRole('list', { name: 'Recent activity' }));
    const items = list.getAllByRole('listitem');
    expect(items.map((item) => item.querySelector('.MuiListItemText-primary')?.textContent)).toEqual([
      'admin launched instance inst-9',
      'System scheduled Friday recordings',
    ]);
    expect(items[0]).toHaveTextContent('3 minutes ago');
    expect(limit).toBe('8');
  });

  it('shows a new activity entry when the live feed reports a change in the fleet', async () => {
    const { activityMock, recordMockActivity } = await import('../../../../src/mocks/handlers/activity');
    activityMock();
    await openDashboard();
    connect({ instances: [] });
    await screen.findByText('admin signed in');
    recordMockActivity('instance.launch', { id: 1, username: 'admin' }, { type: 'instance', id: 'inst-42' });
    send({ type: 'instance_status_update', data: [instance('inst-42', 'pending')] });
    expect(await screen.findByText('admin launched instance inst-42')).toBeInTheDocument();
  });

  it('says so when the activity log cannot be read', async () => {
    server.use(http.get('/api/activity', () => HttpResponse.error()));
    await openDashboard();
    expect(await section('Recent Activity').findByText('Failed to load recent activity')).toBeInTheDocument();
  });

  it('reads "No activity yet" for an empty log', async () => {
    server.use(http.get('/api/activity', () => HttpResponse.json({ success: true, data: { entries: [] } })));
    await openDashboard();
    expect(await section('Recent Activity').findByText('No activity yet')).toBeInTheDocument();
  });

  it('offers quick action chips that lead to the pages', async () => {
    await openDashboard();
    const actions = section('Quick Actions');
    const links = actions.getAllByRole('link');
    expect(links.map((link) => [link.textContent, link.getAttribute('href')])).toEqual([
      ['Launch Instance', '/instances'],
      ['Manage AMIs', '/ami'],
      ['Generate Configs', '/config'],
      ['Schedule Recordings', '/scheduling'],
      ['View Monitoring', '/monitoring'],
      ['Repository Access', '/github'],
    ]);
  });

  it('works in the whole console with the mock live feed', async () => {
    await renderApp('/', { as: 'admin' });
    await screen.findByRole('heading', { name: 'Dashboard', level: 1 });
    await waitFor(() => expect(section('System Status').getByText('WebSocket Connected')).toBeInTheDocument());
    expect(await screen.findByText('admin signed in')).toBeInTheDocument();
    expect(screen.queryByText('WebSocket connection lost')).not.toBeInTheDocument();
  });
});
