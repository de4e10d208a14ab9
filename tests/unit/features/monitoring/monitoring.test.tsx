import { act, screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it, vi } from 'vitest';
import MonitoringPage from '../../../../src/features/monitoring/MonitoringPage';
import { monitoringMock } from '../../../../src/mocks/handlers/monitoring';
import { renderApp } from '../../support/render';
import { server } from '../../support/server';
import { connect, drop, instance, recording, renderLive, send } from '../dashboard/live';
import { scaled } from '../../../../testkit/time-scale';

const card = (title: string) => {
  const root = screen.getByText(title, { selector: 'p' }).closest('.MuiCard-root');
  if (!(root instanceof HTMLElement)) throw new Error(`No card ${title}`);
  return within(root);
};

const table = () => within(screen.getByRole('table', { name: 'Live instance monitoring' }));

function rowOf(name: string) {
  const tr = table().getByText(name).closest('tr');
  if (!tr) throw new Error(`No row ${name}`);
  return within(tr);
}

const chip = (row: string, label: string) => rowOf(row).getByText(label).closest('.MuiChip-root');

async function openMonitoring() {
  const rendered = renderLive(<MonitoringPage />);
  await screen.findByRole('heading', { name: 'Monitoring', level: 1 });
  return rendered;
}

describe('Monitoring', { timeout: scaled(20_000) }, () => {
  it('shows Active Instances, Recordings (total captured) and System Health', async () => {
    monitoringMock().earlierRecordings = 17;
    await openMonitoring();
    connect({ instances: [instance('a'), instance('b'), instance('c', 'pending'), instance('d', 'stopped')] });
    expect(card('Active Instances').getByText('2')).toBeInTheDocument();
    expect(card('Active Instances').getByText('1 pending, 4 listed')).toBeInTheDocument();
    expect(await card('Recordings').findByText('17')).toBeInTheDocument();
    expect(card('Recordings').getByText('Total captured')).toBeInTheDocument();
    expect(await card('System Health').findByText('Operational')).toBeInTheDocument();
    expect(card('System Health').getByText('All components healthy')).toBeInTheDocument();
  });

  it('shows "—" for Active Instances until the fleet is known, never 0', async () => {
    // Neither the live feed nor the fleet read (asked while the feed is not connected) has answered yet.
    let answer: () => void = () => undefined;
    const answered = new Promise<void>((resolve) => (answer = resolve));
    server.use(
      http.get('/api/instances', async () => {
        await answered;
        return HttpResponse.json({ success: false, detail: 'Not now', error: 'Not now' }, { status: 503 });
      }),
    );
    await openMonitoring();
    expect(card('Active Instances').getByText('—')).toBeInTheDocument();
    expect(card('Active Instances').queryByText('0')).not.toBeInTheDocument();
    expect(card('Active Instances').queryByText(/pending/)).not.toBeInTheDocument();
    expect(screen.getByText('Loading instances…')).toBeInTheDocument();
    connect({ instances: [instance('a')] });
    expect(card('Active Instances').getByText('1')).toBeInTheDocument();
    expect(card('Active Instances').getByText('0 pending, 1 listed')).toBeInTheDocument();
    answer();
  });

  it('lists the first 10 instances: name, mosque, state, runtime and a health chip', async () => {
    await openMonitoring();
    const many = Array.from({ length: 12 }, (_, i) =>
      instance(`n${i}`, 'running', { mosque_id: i === 0 ? 'mq01abcdef' : null, runtime_hours: i === 0 ? 2.25 : 0.5 }),
    );
    connect({ instances: many, recordings: many.map((item, i) => recording(`r${i}`, item.id)) });
    const headers = table()
      .getAllByRole('columnheader')
      .map((cell) => cell.textContent);
    expect(headers).toEqual(['Name', 'Mosque', 'State', 'Runtime', 'Health']);
    expect(table().getAllByRole('row')).toHaveLength(11);
    expect(table().queryByText('recorder-n10')).not.toBeInTheDocument();
    const first = rowOf('recorder-n0');
    expect(first.getByText('mq01abcdef')).toBeInTheDocument();
    expect(first.getByText('running')).toBeInTheDocument();
    expect(first.getByText('2.3h')).toBeInTheDocument();
    expect(first.getByText('Healthy')).toBeInTheDocument();
    expect(rowOf('recorder-n1').getByText('N/A')).toBeInTheDocument();
    expect(rowOf('recorder-n1').getByText('30m')).toBeInTheDocument();
  });

  it('derives the health chip from each recorder: progressing, stalled, failed, starting', async () => {
    await openMonitoring();
    connect({
      instances: [
        instance('ok'),
        instance('stall', 'terminated', { recording_status: 'partial' }),
        instance('bad', 'terminated', { recording_status: 'failed' }),
        instance('new', 'pending'),
      ],
      recordings: [
        recording('r-ok', 'ok'),
        recording('r-stall', 'stall', { status: 'partial', reason: 'No media for 60 s: the stream stalled' }),
        recording('r-bad', 'bad', { status: 'failed', bytes: 0, reason: 'Connection refused' }),
        recording('r-new', 'new', { bytes: 0, duration_seconds: null }),
      ],
    });
    expect(chip('recorder-ok', 'Healthy')).toHaveClass('MuiChip-colorSuccess');
    expect(chip('recorder-stall', 'Stalled')).toHaveClass('MuiChip-colorWarning');
    expect(chip('recorder-bad', 'Failed')).toHaveClass('MuiChip-colorError');
    expect(rowOf('recorder-new').getByText('Starting')).toBeInTheDocument();
  });

  it('turns a running recorder Stalled when its recording stops growing, and Healthy again when it grows', async () => {
    vi.useFakeTimers({
      shouldAdvanceTime: true,
      toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'],
    });
    await openMonitoring();
    connect({ instances: [instance('a')], recordings: [recording('r1', 'a', { bytes: 5000 })] });
    expect(rowOf('recorder-a').getByText('Healthy')).toBeInTheDocument();
    await act(async () => {
      await vi.advanceTimersByTimeAsync(15_000);
    });
    send({ type: 'recordings_update', data: [recording('r1', 'a', { bytes: 5000 })] }); // no progress
    await act(async () => {
      await vi.advanceTimersByTimeAsync(10_000);
    });
    expect(rowOf('recorder-a').getByText('Stalled')).toBeInTheDocument();
    send({ type: 'recordings_update', data: [recording('r1', 'a', { bytes: 9000, duration_seconds: 40 })] });
    expect(rowOf('recorder-a').getByText('Healthy')).toBeInTheDocument();
  });

  it('lists websocket, cloud connectivity, prayer time service and database health', async () => {
    monitoringMock().components.aws = {
      status: 'unhealthy',
      detail: 'ffmpeg was not found: set FFMPEG_PATH or install ffmpeg',
      latency_ms: 1.2,
    };
    await openMonitoring();
    connect();
    const list = within(screen.getByRole('list', { name: 'System health' }));
    expect(list.getByLabelText('WebSocket: Connected')).toBeInTheDocument();
    expect(await list.findByLabelText('Cloud Connectivity: Unhealthy')).toHaveClass('MuiChip-colorError');
    expect(list.getByText(/ffmpeg was not found/)).toBeInTheDocument();
    expect(list.getByLabelText('Prayer Time Service: Healthy')).toBeInTheDocument();
    expect(list.getByLabelText('Database: Healthy')).toBeInTheDocument();
    expect(card('System Health').getByText('Degraded')).toBeInTheDocument();
    expect(card('System Health').getByText('Failing: aws')).toBeInTheDocument();
    drop();
    expect(list.getByLabelText('WebSocket: Disconnected')).toBeInTheDocument();
  });

  it("shows the EC2 configuration's checks under cloud connectivity, each with what is wrong", async () => {
    Object.assign(monitoringMock().components, {
      aws_credentials: { status: 'healthy', detail: 'Long-lived access keys', latency_ms: 0.4 },
      aws_upload_signing: {
        status: 'unhealthy',
        detail: "Recorders' uploads would be signed with temporary credentials (a session token)",
        latency_ms: 0.3,
      },
      aws_image: { status: 'healthy', detail: 'AWS_IMAGE_ID ami-0abc (recorder) is available', latency_ms: 12 },
    });
    await openMonitoring();
    connect();
    const list = within(screen.getByRole('list', { name: 'System health' }));
    expect(await list.findByLabelText('Upload Signing: Unhealthy')).toHaveClass('MuiChip-colorError');
    expect(list.getByText(/would be signed with temporary credentials/)).toBeInTheDocument();
    expect(list.getByLabelText('Cloud Credentials: Healthy')).toBeInTheDocument();
    expect(list.getByLabelText('Recorder Image: Healthy')).toBeInTheDocument();
    expect(card('System Health').getByText('Failing: aws_upload_signing')).toBeInTheDocument();
  });

  it('shows no EC2 configuration rows for a server on the local driver', async () => {
    await openMonitoring();
    connect();
    const list = within(screen.getByRole('list', { name: 'System health' }));
    expect(await list.findByLabelText('Cloud Connectivity: Healthy')).toBeInTheDocument();
    expect(list.queryByLabelText(/Upload Signing|Cloud Credentials|Recorder Image/)).not.toBeInTheDocument();
  });

  it('shows the performance metrics in an expandable section, with a p95 chart of the last hour', async () => {
    const { user } = await openMonitoring();
    connect();
    const api = within(await screen.findByRole('region', { name: 'API Response Times' }));
    expect(await api.findByText('14 ms')).toBeInTheDocument();
    expect(api.getByText('Average').nextElementSibling).toHaveTextContent('14 ms');
    expect(api.getByText('95th percentile').nextElementSibling).toHaveTextContent('39 ms');
    const chart = api.getByRole('img', { name: /p95 response time per minute over the last hour/ });
    expect(chart.querySelector('path')?.getAttribute('d')).toMatch(/^M[\d.]+ [\d.]+ L/);
    const instances = within(screen.getByRole('region', { name: 'Instance Metrics' }));
    expect(instances.getByText('Average launch time').nextElementSibling).toHaveTextContent('6.4 s');
    const websocket = within(screen.getByRole('region', { name: 'WebSocket' }));
    expect(websocket.getByText('Active connections').nextElementSibling).toHaveTextContent('1');
    expect(websocket.getByText('Messages sent (24 h)').nextElementSibling).toHaveTextContent('1840');

    const toggle = screen.getByRole('button', { name: 'Performance Metrics' });
    expect(toggle).toHaveAttribute('aria-expanded', 'true');
    await user.click(toggle);
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
  });

  it('asks for every figure again every 30 s', async () => {
    vi.useFakeTimers({
      shouldAdvanceTime: true,
      toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'],
    });
    const calls = { system: 0, metrics: 0, recordings: 0 };
    server.events.on('request:start', ({ request }) => {
      const path = new URL(request.url).pathname;
      if (path === '/api/monitoring/system') calls.system += 1;
      if (path === '/api/monitoring/metrics') calls.metrics += 1;
      if (path === '/api/monitoring/recordings') calls.recordings += 1;
    });
    try {
      await openMonitoring();
      connect();
      await waitFor(() => expect(calls).toEqual({ system: 1, metrics: 1, recordings: 1 }));
      await act(async () => {
        await vi.advanceTimersByTimeAsync(29_000);
      });
      expect(calls).toEqual({ system: 1, metrics: 1, recordings: 1 });
      await act(async () => {
        await vi.advanceTimersByTimeAsync(1_500);
      });
      await waitFor(() => expect(calls).toEqual({ system: 2, metrics: 2, recordings: 2 }));
    } finally {
      server.events.removeAllListeners();
    }
  });

  it('warns "WebSocket connection lost" when the live connection drops', async () => {
    await openMonitoring();
    connect();
    expect(screen.queryByText('WebSocket connection lost')).not.toBeInTheDocument();
    drop();
    expect(screen.getByText('WebSocket connection lost')).toBeInTheDocument();
  });

  it('reports figures that cannot be loaded', async () => {
    server.use(http.get('/api/monitoring/metrics', () => HttpResponse.error()));
    await openMonitoring();
    expect(await screen.findByText('Failed to load monitoring data')).toBeInTheDocument();
  });

  it('works in the whole console with the mock live feed', async () => {
    await renderApp('/monitoring', { as: 'admin' });
    await screen.findByRole('heading', { name: 'Monitoring', level: 1 });
    expect(await screen.findByLabelText('WebSocket: Connected')).toBeInTheDocument();
    expect(await screen.findByText('No instances to monitor')).toBeInTheDocument();
    expect(screen.queryByText('WebSocket connection lost')).not.toBeInTheDocument();
  });
});
