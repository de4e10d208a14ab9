import { act, render, screen } from '@testing-library/react';
import { useEffect, useState } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Instance } from '../../../contract/instances';
import { useLive } from '../../../src/live/context';
import { LiveProvider } from '../../../src/live/LiveProvider';
import { FakeWebSocket, fakeSocketFactory } from '../support/fake-websocket';

const instance = (id: string, state: Instance['state'] = 'running'): Instance => ({
  id,
  instance_id: id,
  name: `recorder ${id}`,
  state,
  instance_type: 'local',
  runtime_hours: 0.5,
  mosque_id: null,
  launch_time: '2026-11-27T11:00:00.000Z',
  url: 'https://example.com/live.m3u8',
  method: 'api',
  duration: 7200,
  recording_status: null,
});

let lastSend: ((instanceId: string) => boolean) | null = null;

function Probe() {
  const live = useLive();
  const [logs, setLogs] = useState<string[]>([]);
  useEffect(() => live.subscribe('instance_logs', (message) => setLogs(message.logs)), [live]);
  useEffect(() => {
    lastSend = (instanceId) => live.send({ action: 'request_logs', instance_id: instanceId });
  }, [live]);
  return (
    <dl>
      <dt>connected</dt>
      <dd data-testid="connected">{String(live.connected)}</dd>
      <dt>instances</dt>
      <dd data-testid="instances">{live.instances.map((i) => `${i.id}:${i.state}`).join(',')}</dd>
      <dt>recordings</dt>
      <dd data-testid="recordings">{live.recordings.length}</dd>
      <dt>status</dt>
      <dd data-testid="status">{live.systemStatus ?? 'unknown'}</dd>
      <dt>logs</dt>
      <dd data-testid="logs">{logs.join('|')}</dd>
    </dl>
  );
}

const text = (id: string) => screen.getByTestId(id).textContent;

function mount() {
  return render(
    <LiveProvider createSocket={fakeSocketFactory} url="ws://console.test/ws">
      <Probe />
    </LiveProvider>,
  );
}

const welcome = { type: 'welcome', data: { user: {}, server_time: '2026-11-27T11:00:00.000Z' } };

describe('LiveProvider', () => {
  beforeEach(() => {
    FakeWebSocket.reset();
    localStorage.setItem('token', 'session-token');
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('opens one socket to /ws and sends client_connected with the token first', async () => {
    mount();
    expect(FakeWebSocket.instances).toHaveLength(1);
    const socket = FakeWebSocket.latest();
    expect(socket.url).toBe('ws://console.test/ws');
    expect(socket.sent).toHaveLength(0);
    act(() => socket.open());
    const [first] = socket.messages();
    expect(first).toEqual({ action: 'client_connected', timestamp: expect.any(String), token: 'session-token' });
    expect(Number.isNaN(Date.parse(String(first.timestamp)))).toBe(false);
  });

  it('does not connect without a token', async () => {
    localStorage.clear();
    mount();
    expect(FakeWebSocket.instances).toHaveLength(0);
  });

  it('is connected once the server welcomes it, and disconnected when it drops', async () => {
    mount();
    const socket = FakeWebSocket.latest();
    act(() => socket.open());
    expect(text('connected')).toBe('false');
    act(() => socket.receive(welcome));
    expect(text('connected')).toBe('true');
    act(() => socket.drop());
    expect(text('connected')).toBe('false');
  });

  it('keeps the latest instances, recordings and system status', async () => {
    mount();
    const socket = FakeWebSocket.latest();
    act(() => socket.open());
    act(() =>
      socket.receive({
        type: 'initial_data',
        data: {
          instances: [instance('a'), instance('b', 'pending')],
          recordings: [{ id: 'r1' }],
          system_status: 'operational',
        },
      }),
    );
    expect(text('connected')).toBe('true');
    expect(text('instances')).toBe('a:running,b:pending');
    expect(text('recordings')).toBe('1');
    expect(text('status')).toBe('operational');
    act(() => socket.receive({ type: 'instance_status_update', data: [instance('b', 'running')] }));
    expect(text('instances')).toBe('b:running');
    act(() => socket.receive({ type: 'recordings_update', data: [{ id: 'r1' }, { id: 'r2' }] }));
    expect(text('recordings')).toBe('2');
    act(() => socket.receive({ type: 'system_status_update', data: { status: 'degraded' } }));
    expect(text('status')).toBe('degraded');
    act(() => socket.receive({ type: 'system_health', data: { overall_health: 'down' } }));
    expect(text('status')).toBe('down');
  });

  it('pings every 30 s while open', async () => {
    mount();
    const socket = FakeWebSocket.latest();
    act(() => socket.open());
    act(() => void vi.advanceTimersByTime(29_999));
    expect(socket.messages().map((m) => m.action)).toEqual(['client_connected']);
    act(() => void vi.advanceTimersByTime(1));
    act(() => void vi.advanceTimersByTime(30_000));
    expect(socket.messages().map((m) => m.action)).toEqual(['client_connected', 'ping', 'ping']);
  });

  it('reconnects after 1 s, doubling up to 30 s, and gives up after 10 attempts', async () => {
    mount();
    act(() => FakeWebSocket.latest().drop());
    const expected = [1000, 2000, 4000, 8000, 16000, 30000, 30000, 30000, 30000, 30000];
    for (const [index, delay] of expected.entries()) {
      act(() => void vi.advanceTimersByTime(delay - 1));
      expect(FakeWebSocket.instances).toHaveLength(index + 1);
      act(() => void vi.advanceTimersByTime(1));
      expect(FakeWebSocket.instances).toHaveLength(index + 2);
      act(() => FakeWebSocket.latest().drop());
    }
    act(() => void vi.advanceTimersByTime(10 * 60_000));
    expect(FakeWebSocket.instances).toHaveLength(11);
  });

  it('starts the back-off again once a reconnection is welcomed', async () => {
    mount();
    act(() => FakeWebSocket.latest().drop());
    act(() => void vi.advanceTimersByTime(1000));
    act(() => FakeWebSocket.latest().drop());
    act(() => void vi.advanceTimersByTime(2000));
    const socket = FakeWebSocket.latest();
    act(() => socket.open());
    act(() => socket.receive(welcome));
    act(() => socket.drop());
    act(() => void vi.advanceTimersByTime(1000));
    expect(FakeWebSocket.instances).toHaveLength(4);
  });

  it('sends nothing when not connected', async () => {
    mount();
    const socket = FakeWebSocket.latest();
    expect(lastSend?.('i-1')).toBe(false);
    act(() => socket.open());
    expect(lastSend?.('i-1')).toBe(true);
    expect(socket.messages().at(-1)).toEqual({ action: 'request_logs', instance_id: 'i-1' });
    act(() => socket.drop());
    expect(lastSend?.('i-1')).toBe(false);
    expect(socket.sent).toHaveLength(2);
  });

  it('delivers messages to subscribers', async () => {
    mount();
    const socket = FakeWebSocket.latest();
    act(() => socket.open());
    act(() => socket.receive({ type: 'instance_logs', instance_id: 'i-1', logs: ['one', 'two'] }));
    expect(text('logs')).toBe('one|two');
  });

  it('only logs parse errors and unknown message types', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    mount();
    const socket = FakeWebSocket.latest();
    act(() => socket.open());
    act(() => socket.receive('{not json'));
    act(() => socket.receive({ type: 'surprise', data: 1 }));
    expect(warn).toHaveBeenCalledTimes(2);
    expect(text('connected')).toBe('false');
    act(() => socket.receive(welcome));
    expect(text('connected')).toBe('true');
  });

  it('closes the socket and stops retrying when unmounted', async () => {
    const { unmount } = mount();
    const socket = FakeWebSocket.latest();
    act(() => socket.open());
    unmount();
    expect(socket.closedByClient).toBe(true);
    act(() => void vi.advanceTimersByTime(60_000));
    expect(FakeWebSocket.instances).toHaveLength(1);
  });
});
