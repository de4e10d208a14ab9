import { act } from '@testing-library/react';
import type { ReactElement } from 'react';
import type { Instance, Recording } from '../../../../contract/instances';
import type { ServerMessage, SystemStatus } from '../../../../contract/live';
import { LiveProvider } from '../../../../src/live/LiveProvider';
import { FakeWebSocket, fakeSocketFactory } from '../../support/fake-websocket';
import { renderWithProviders, type Rendered } from '../../support/render';

/*
 * Pages of issue 6 mounted with a scripted live feed: the test opens the socket, feeds it
 * initial_data and updates, and drops it, as the server would.
 */

export function instance(id: string, state: Instance['state'] = 'running', extra: Partial<Instance> = {}): Instance {
  return {
    id,
    instance_id: `i-${id}`,
    name: `recorder-${id}`,
    state,
    instance_type: 'local',
    runtime_hours: 0.5,
    mosque_id: null,
    launch_time: '2026-11-27T11:00:00.000Z',
    url: 'https://streams.example/live.m3u8',
    method: 'api',
    duration: 7200,
    recording_status: state === 'running' || state === 'pending' ? 'recording' : null,
    ...extra,
  };
}

export function recording(id: string, instanceId: string, extra: Partial<Recording> = {}): Recording {
  return {
    id,
    instance_id: instanceId,
    mosque_id: null,
    url: 'https://streams.example/live.m3u8',
    status: 'recording',
    started_at: '2026-11-27T11:00:00.000Z',
    ended_at: null,
    bytes: 1_000_000,
    duration_seconds: 12,
    file_name: null,
    reason: null,
    download_url: null,
    expected_seconds: 7200,
    covered_seconds: 12,
    gaps: [],
    reconnects: 0,
    stopped_by: null,
    ...extra,
  };
}

/** `ui` inside a live provider whose socket the test drives, signed in as `as`. */
export function renderLive(ui: ReactElement, as = 'admin'): Rendered {
  FakeWebSocket.reset();
  return renderWithProviders(
    <LiveProvider createSocket={fakeSocketFactory} url="ws://console.test/ws">
      {ui}
    </LiveProvider>,
    { as },
  );
}

export function send(message: ServerMessage): void {
  act(() => FakeWebSocket.latest().receive(message));
}

/** The server accepts the console and sends what it has. */
export function connect(
  data: { instances?: Instance[]; recordings?: Recording[]; system_status?: SystemStatus } = {},
): void {
  act(() => FakeWebSocket.latest().open());
  send({
    type: 'welcome',
    data: {
      user: {
        id: 1,
        username: 'admin',
        email: 'admin@example.com',
        full_name: null,
        generated_credentials: false,
        role: 'admin',
        is_active: true,
        is_superuser: true,
        last_login: null,
        created_at: '2026-01-01T00:00:00.000Z',
        updated_at: '2026-01-01T00:00:00.000Z',
      },
      server_time: '2026-11-27T11:00:00.000Z',
    },
  });
  send({
    type: 'initial_data',
    data: {
      instances: data.instances ?? [],
      recordings: data.recordings ?? [],
      system_status: data.system_status ?? 'operational',
    },
  });
}

/** The connection drops (the provider then retries later). */
export function drop(): void {
  act(() => FakeWebSocket.latest().drop());
}
