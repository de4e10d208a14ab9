import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ServerMessage } from '../../../contract/live';
import { defaultLiveUrl, KNOWN_TYPES, LiveConnection } from '../../../src/live/connection';
import { FakeWebSocket, fakeSocketFactory } from '../support/fake-websocket';

describe('defaultLiveUrl', () => {
  it('uses wss on https pages and ws otherwise, on the same host', async () => {
    expect(defaultLiveUrl({ protocol: 'https:', host: 'console.example.org' })).toBe('wss://console.example.org/ws');
    expect(defaultLiveUrl({ protocol: 'http:', host: '127.0.0.1:8000' })).toBe('ws://127.0.0.1:8000/ws');
  });
});

describe('KNOWN_TYPES', () => {
  it('lists every message type the server sends (docs/reference.md section 7, Live socket)', () => {
    expect([...KNOWN_TYPES].sort()).toEqual(
      [
        'alarm',
        'alarms',
        'error',
        'initial_data',
        'instance_logs',
        'instance_status_update',
        'launch_complete',
        'launch_error',
        'mosque_update',
        'pong',
        'recordings_update',
        'refetch',
        'system_health',
        'system_status_update',
        'user_update',
        'welcome',
      ].sort(),
    );
  });
});

describe('resuming the live feed after a reconnect (to this server or another)', () => {
  const user = {
    id: 1,
    username: 'admin',
    email: 'a@example.com',
    full_name: null,
    role: 'admin',
    is_active: true,
    is_superuser: true,
    created_at: '2026-11-23T09:00:00Z',
    last_login: null,
  };
  const welcome = (lastEventId?: number) => ({
    type: 'welcome',
    data: {
      user,
      server_time: '2026-11-23T09:00:00Z',
      ...(lastEventId === undefined ? {} : { last_event_id: lastEventId }),
    },
  });
  const launched = (eventId: number) => ({
    type: 'launch_complete',
    event_id: eventId,
    data: { instance_id: `i-${eventId}`, mosque_id: null, job_id: null, message: 'Launched' },
  });
  let received: ServerMessage[];
  let onRefetch: ReturnType<typeof vi.fn<() => void>>;
  let live: LiveConnection;

  beforeEach(() => {
    FakeWebSocket.reset();
    vi.useFakeTimers();
    received = [];
    onRefetch = vi.fn<() => void>();
    live = new LiveConnection({
      url: 'ws://console.test/ws',
      getToken: () => 'session-token',
      onConnectedChange: () => undefined,
      onMessage: (m) => received.push(m),
      onRefetch,
      createSocket: fakeSocketFactory,
    });
    live.start();
  });
  afterEach(() => {
    live.stop();
    vi.useRealTimers();
  });

  const reconnect = () => {
    FakeWebSocket.latest().drop();
    vi.advanceTimersByTime(1000);
    FakeWebSocket.latest().open();
    return FakeWebSocket.latest().messages()[0];
  };

  it('names no event on its first connection, then the newest it received; repeats of a replay are dropped', () => {
    FakeWebSocket.latest().open();
    expect(FakeWebSocket.latest().messages()[0]).not.toHaveProperty('last_event_id');
    FakeWebSocket.latest().receive(welcome(4));
    FakeWebSocket.latest().receive(launched(7));
    FakeWebSocket.latest().receive(launched(5));
    expect(reconnect()).toMatchObject({ action: 'client_connected', token: 'session-token', last_event_id: 7 });
    // The server replays from a little before 7: 5 and 7 came already, 6 did not.
    FakeWebSocket.latest().receive(welcome(9));
    for (const id of [5, 6, 7, 8]) FakeWebSocket.latest().receive(launched(id));
    expect(received.filter((m) => m.type === 'launch_complete').map((m) => m.event_id)).toEqual([7, 5, 6, 8]);
    expect(reconnect()).toMatchObject({ last_event_id: 8 });
  });

  it('resumes from the newest event of its welcome when none came before the connection dropped', () => {
    FakeWebSocket.latest().open();
    FakeWebSocket.latest().receive(welcome(12));
    expect(reconnect()).toMatchObject({ last_event_id: 12 });
  });

  it('asks the page to refetch when the server no longer has what it missed', () => {
    FakeWebSocket.latest().open();
    FakeWebSocket.latest().receive(welcome(3));
    reconnect();
    FakeWebSocket.latest().receive({ type: 'refetch', data: { reason: 'Events you missed are no longer kept' } });
    expect(onRefetch).toHaveBeenCalledTimes(1);
  });
});
