import { act, screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { liveSocket } from '../../../../src/mocks/handlers/live';
import { addMockInstances, mockInstance, mockRecording, setMockLogs } from '../../../../src/mocks/handlers/instances';
import { store } from '../../../../src/mocks/store';
import { server } from '../../support/server';
import { openInstances, openRowMenu, seedFleet } from './helpers';
import { scaled } from '../../../../testkit/time-scale';

/** Every GET of an instance's logs, with its query. */
function recordLogReads() {
  const reads: URLSearchParams[] = [];
  server.use(
    http.get('/api/instances/:id/logs', ({ request }) => {
      reads.push(new URL(request.url).searchParams);
      return undefined;
    }),
  );
  return reads;
}

/** What the console sends on the live socket. */
function recordLiveMessages() {
  const sent: Array<{ action: string; instance_id?: string }> = [];
  server.use(
    liveSocket.addEventListener('connection', ({ client }) => {
      client.addEventListener('message', (event) =>
        sent.push(JSON.parse(String(event.data)) as { action: string; instance_id?: string }),
      );
    }),
  );
  return sent;
}

const logsDialog = () => within(screen.getByRole('dialog', { name: /^Logs:/ }));

describe('Logs viewer', { timeout: scaled(30_000) }, () => {
  afterEach(() => vi.useRealTimers());

  it('is live for a running instance: the last 100 lines, read again every 5 s', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    store.liveAvailable = false; // only the polling path here
    const fleet = seedFleet();
    setMockLogs(fleet.running.id, ['line one', 'line two']);
    const reads = recordLogReads();
    const { user } = await openInstances(undefined, { userOptions: { advanceTimers: vi.advanceTimersByTime } });
    const menu = await openRowMenu(user, fleet.running);
    await user.click(menu.getByRole('menuitem', { name: 'View Logs' }));
    expect(await logsDialog().findByText('line two')).toBeInTheDocument();
    expect(logsDialog().getByText('Live')).toBeInTheDocument();
    expect(logsDialog().getByText('Last 100 lines, refreshed every 5 seconds')).toBeInTheDocument();
    expect(reads).toHaveLength(1);
    expect(reads[0].get('lines')).toBe('100');
    expect(reads[0].get('live')).toBe('true');

    setMockLogs(fleet.running.id, ['line one', 'line two', 'line three']);
    await act(() => vi.advanceTimersByTimeAsync(4000));
    expect(reads).toHaveLength(1);
    await act(() => vi.advanceTimersByTimeAsync(1100));
    expect(await logsDialog().findByText('line three')).toBeInTheDocument();
    expect(reads).toHaveLength(2);
    await act(() => vi.advanceTimersByTimeAsync(5000));
    await waitFor(() => expect(reads).toHaveLength(3));
  });

  it('is read once, not live, for an instance that is not running', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    store.liveAvailable = false;
    const fleet = seedFleet();
    setMockLogs(fleet.terminated.id, ['finished']);
    const reads = recordLogReads();
    const { user } = await openInstances(undefined, { userOptions: { advanceTimers: vi.advanceTimersByTime } });
    const menu = await openRowMenu(user, fleet.terminated);
    await user.click(menu.getByRole('menuitem', { name: 'View Logs' }));
    expect(await logsDialog().findByText('finished')).toBeInTheDocument();
    expect(logsDialog().queryByText('Live')).not.toBeInTheDocument();
    expect(reads[0].get('live')).toBe('false');
    await act(() => vi.advanceTimersByTimeAsync(12_000));
    expect(reads).toHaveLength(1);
  });

  it('subscribes to the live feed while open and shows the lines it pushes', async () => {
    const fleet = seedFleet();
    setMockLogs(fleet.running.id, ['first']);
    const sent = recordLiveMessages();
    const { user } = await openInstances();
    await screen.findByText('Connected: Yes');
    const menu = await openRowMenu(user, fleet.running);
    await user.click(menu.getByRole('menuitem', { name: 'View Logs' }));
    expect(await logsDialog().findByText('first')).toBeInTheDocument();
    await waitFor(() => expect(sent).toContainEqual({ action: 'subscribe_logs', instance_id: fleet.running.id }));

    act(() =>
      liveSocket.broadcast(
        JSON.stringify({ type: 'instance_logs', instance_id: fleet.running.id, logs: ['first', 'pushed line'] }),
      ),
    );
    expect(await logsDialog().findByText('pushed line')).toBeInTheDocument();
    // Another instance's lines are not this viewer's.
    act(() =>
      liveSocket.broadcast(JSON.stringify({ type: 'instance_logs', instance_id: 'cap-other', logs: ['not mine'] })),
    );
    expect(logsDialog().queryByText('not mine')).not.toBeInTheDocument();

    await user.click(logsDialog().getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(sent).toContainEqual({ action: 'unsubscribe_logs', instance_id: fleet.running.id }));
  });

  it('asks the live feed for the lines of an ended instance, and again on Refresh (request_logs)', async () => {
    const fleet = seedFleet();
    setMockLogs(fleet.terminated.id, ['last words']);
    const sent = recordLiveMessages();
    const { user } = await openInstances();
    await screen.findByText('Connected: Yes');
    const menu = await openRowMenu(user, fleet.terminated);
    await user.click(menu.getByRole('menuitem', { name: 'View Logs' }));
    expect(await logsDialog().findByText('last words')).toBeInTheDocument();
    const asked = () =>
      sent.filter((message) => message.action === 'request_logs' && message.instance_id === fleet.terminated.id).length;
    await waitFor(() => expect(asked()).toBe(1));
    expect(sent.filter((message) => message.action === 'subscribe_logs')).toEqual([]);

    setMockLogs(fleet.terminated.id, ['last words', 'written after']);
    await user.click(logsDialog().getByRole('button', { name: 'Refresh' }));
    expect(await logsDialog().findByText('written after')).toBeInTheDocument();
    expect(asked()).toBe(2);
  });

  it('reports "Failed to load logs", dismissibly', async () => {
    store.liveAvailable = false;
    const fleet = seedFleet();
    server.use(
      http.get('/api/instances/:id/logs', () =>
        HttpResponse.json({ success: false, detail: 'gone', error: 'gone' }, { status: 502 }),
      ),
    );
    const { user } = await openInstances();
    const menu = await openRowMenu(user, fleet.terminated);
    await user.click(menu.getByRole('menuitem', { name: 'View Logs' }));
    const alert = await logsDialog().findByRole('alert');
    expect(alert).toHaveTextContent('Failed to load logs');
    await user.click(within(alert).getByRole('button', { name: /close/i }));
    expect(logsDialog().queryByText('Failed to load logs')).not.toBeInTheDocument();
  });
});

describe('Details viewer', { timeout: scaled(30_000) }, () => {
  const { createObjectURL, revokeObjectURL } = URL;
  afterEach(() => {
    Object.assign(URL, { createObjectURL, revokeObjectURL });
  });

  it('shows basic info, recording info, metrics and actions', async () => {
    const [instance] = addMockInstances(
      mockInstance({
        name: 'capture-m9-done01',
        state: 'terminated',
        mosque_id: 'm9',
        url: 'https://example.com/m9.m3u8',
        duration: 600,
        recording_status: 'captured',
      }),
    );
    store.recordings.push(
      mockRecording(instance, { file_name: 'm9-20260105-093000.mp4', bytes: 3 * 1024 * 1024, duration_seconds: 125 }),
    );
    const { user } = await openInstances();
    const menu = await openRowMenu(user, instance);
    await user.click(menu.getByRole('menuitem', { name: 'View Details' }));
    const details = within(await screen.findByRole('dialog', { name: /Instance Details/ }));
    const basic = within(await details.findByRole('region', { name: 'Basic Information' }));
    expect(basic.getByText('capture-m9-done01')).toBeInTheDocument();
    expect(basic.getByText('m9')).toBeInTheDocument();
    const recording = within(details.getByRole('region', { name: 'Recording Information' }));
    expect(recording.getByText('https://example.com/m9.m3u8')).toBeInTheDocument();
    expect(recording.getByText('1280 x 720')).toBeInTheDocument();
    expect(recording.getByText('10m 0s')).toBeInTheDocument();
    expect(recording.getByText('m9-20260105-093000.mp4')).toBeInTheDocument();
    expect(recording.getByText('captured')).toBeInTheDocument();
    const metrics = within(details.getByRole('region', { name: 'Metrics' }));
    expect(metrics.getByText('3.0 MB')).toBeInTheDocument();
    expect(metrics.getByText('2m 5s')).toBeInTheDocument();
    const actions = within(details.getByRole('region', { name: 'Actions' }));
    expect(actions.getByRole('button', { name: 'View Logs' })).toBeInTheDocument();
    expect(actions.queryByRole('button', { name: 'Terminate' })).not.toBeInTheDocument();
    expect(actions.getByRole('button', { name: 'Download Recording' })).toBeEnabled();
  });

  it("draws a running recording's live loudness: its conditions and the strip of its last minutes", async () => {
    const started = Date.now() - 12 * 60_000;
    const [instance] = addMockInstances(
      mockInstance({ name: 'capture-m9-live01', state: 'running', launch_time: new Date(started).toISOString() }),
    );
    const recording = mockRecording(instance, {
      status: 'recording',
      started_at: new Date(started).toISOString(),
      ended_at: null,
    });
    store.recordings.push(recording);
    // Three readings of a speaker, then two silent ones: the microphone was muted 20 s ago.
    const windows = [-21, -19.5, -22, null, null].map((loudness, i) => ({
      start: new Date(started + (60 + i) * 10_000).toISOString(),
      measured_seconds: 10,
      loudness_lufs: loudness,
      momentary_max_lufs: loudness === null ? -80 : loudness + 5,
      silent_seconds: loudness === null ? 10 : 0,
      frozen_seconds: 0,
      black_seconds: 0,
    }));
    const since = new Date(started + 63 * 10_000).toISOString();
    server.use(
      http.get(`/api/instances/${instance.id}`, () =>
        HttpResponse.json({
          success: true,
          data: {
            ...instance,
            provider: 'aws',
            provider_instance_id: 'i-0123456789abcdef0',
            width: 1280,
            height: 720,
            running_at: instance.launch_time,
            ended_at: null,
            state_reason: null,
            job_id: null,
            image_id: null,
            recording,
            live_content: {
              measured_seconds: 650,
              integrated_lufs: -20.8,
              peak_dbfs: -3.2,
              longest_silence_seconds: 140,
              silent_seconds: 140,
              frozen_seconds: 0,
              black_seconds: 0,
              windows,
              conditions: [{ kind: 'audio_silent', since, seconds: 140 }],
            },
          },
        }),
      ),
    );
    const { user } = await openInstances();
    await user.click((await openRowMenu(user, instance)).getByRole('menuitem', { name: 'View Details' }));
    const dialog = within(await screen.findByRole('dialog', { name: /Instance Details/ }));
    const live = within(await dialog.findByRole('region', { name: 'Live loudness' }));
    expect(live.getByText(/^Audio silent for 2 min \(since /)).toBeInTheDocument();
    expect(live.getByTestId('content-summary')).toHaveTextContent(
      'Integrated loudness -20.8 LUFS · longest silence 2 min · peak -3.2 dBFS',
    );
    // One bar per reading with sound, the silent ones marked in the silent lane.
    const strip = live.getByRole('img', { name: /^Loudness over the recording/ });
    const bars = [...strip.querySelectorAll('rect:not([data-testid])')];
    expect(bars).toHaveLength(3);
    expect(live.getAllByTestId('strip-silent')).toHaveLength(2);
    // The strip spans the last 5 minutes: its five readings end at its right edge, the rest still to come.
    expect(strip.getAttribute('viewBox')).toMatch(/^0 0 30 /);
    expect(bars.map((bar) => bar.getAttribute('x'))).toEqual(['25', '26', '27']);
  });

  it('says a running recording has no loudness readings yet, and a finished one has no live section', async () => {
    const [running, done] = addMockInstances(
      mockInstance({ name: 'capture-m9-fresh1', state: 'running' }),
      mockInstance({ name: 'capture-m9-ended1', state: 'terminated', recording_status: 'captured' }),
    );
    // The mock recorder's first reading is settled 30 s after its start: this one started just now.
    store.recordings.push(
      mockRecording(running, { status: 'recording', started_at: new Date().toISOString(), ended_at: null }),
      mockRecording(done),
    );
    const { user } = await openInstances();
    await user.click((await openRowMenu(user, running)).getByRole('menuitem', { name: 'View Details' }));
    const live = within(
      await within(await screen.findByRole('dialog', { name: /Instance Details/ })).findByRole('region', {
        name: 'Live loudness',
      }),
    );
    expect(live.getByText('Sound and picture as expected')).toBeInTheDocument();
    expect(live.getByText(/^No loudness readings yet/)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());

    await user.click((await openRowMenu(user, done)).getByRole('menuitem', { name: 'View Details' }));
    const dialog = within(await screen.findByRole('dialog', { name: /Instance Details/ }));
    await dialog.findByRole('region', { name: 'Recording Information' });
    expect(dialog.queryByRole('region', { name: 'Live loudness' })).not.toBeInTheDocument();
  });

  it('says who stopped the recording instead of its partial status', async () => {
    const [instance] = addMockInstances(
      mockInstance({ name: 'capture-m9-stop01', state: 'terminated', recording_status: 'partial' }),
    );
    store.recordings.push(mockRecording(instance, { status: 'partial', reason: 'Stopped by operator' }));
    const { user } = await openInstances();
    await user.click((await openRowMenu(user, instance)).getByRole('menuitem', { name: 'View Details' }));
    const recording = within(
      await within(await screen.findByRole('dialog', { name: /Instance Details/ })).findByRole('region', {
        name: 'Recording Information',
      }),
    );
    expect(recording.getByText('Stopped by operator', { selector: '.MuiChip-label' })).toBeInTheDocument();
    expect(recording.queryByText('partial')).not.toBeInTheDocument();
  });

  it('downloads the recording with the session token and saves it under its file name', async () => {
    const [instance] = addMockInstances(
      mockInstance({ name: 'capture-adhoc-dl0001', state: 'terminated', recording_status: 'captured' }),
    );
    store.recordings.push(
      mockRecording(instance, {
        id: 'rec-dl0001',
        file_name: 'adhoc-dl.mp4',
        download_url: '/api/recordings/rec-dl0001/media?download=1',
      }),
    );
    let authorization: string | null = null;
    server.use(
      http.get('/api/recordings/:id/media', ({ request }) => {
        authorization = request.headers.get('authorization');
        return undefined;
      }),
    );
    const createUrl = vi.fn((_blob: Blob) => 'blob:recording');
    Object.assign(URL, { createObjectURL: createUrl, revokeObjectURL: vi.fn() });
    const saved: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      saved.push(`${this.download} ${this.getAttribute('href')}`);
    });

    const { user } = await openInstances();
    const menu = await openRowMenu(user, instance);
    await user.click(menu.getByRole('menuitem', { name: 'View Details' }));
    await user.click(await screen.findByRole('button', { name: 'Download Recording' }));
    await waitFor(() => expect(saved).toEqual(['adhoc-dl.mp4 blob:recording']));
    expect(authorization).toMatch(/^Bearer /);
    expect(createUrl.mock.calls[0][0]).toBeInstanceOf(Blob);
  });

  it('offers Terminate for a running instance and View Logs opens the logs', async () => {
    const fleet = seedFleet();
    setMockLogs(fleet.running.id, ['from details']);
    const { user } = await openInstances();
    const menu = await openRowMenu(user, fleet.running);
    await user.click(menu.getByRole('menuitem', { name: 'View Details' }));
    const actions = within(await screen.findByRole('region', { name: 'Actions' }));
    expect(actions.getByRole('button', { name: 'Terminate' })).toBeInTheDocument();
    await user.click(actions.getByRole('button', { name: 'View Logs' }));
    expect(await logsDialog().findByText('from details')).toBeInTheDocument();
  });
});
