import { HttpResponse } from 'msw';
import type {
  ComponentHealth,
  RecordingStats,
  ResponseTimeMinute,
  SystemHealth,
  SystemMetrics,
} from '../../../contract/monitoring';
import type { SystemStatus } from '../../../contract/live';
import { monitoringRoutes } from '../../../contract/routes/monitoring';
import { mock } from '../endpoint';
import { store, type MockStore } from '../store';

/** What the mocks report as measured; tests change it (e.g. a failing component) through monitoringMock(). */
export interface MonitoringMockState {
  /** The three every server has, and any other a test adds (the EC2 configuration's checks). */
  components: { aws: ComponentHealth; prayer_times: ComponentHealth; database: ComponentHealth } & Record<
    string,
    ComponentHealth
  >;
  api: { average_ms: number | null; p95_ms: number | null; sample_count: number };
  /** p95 of each of the last 60 minutes, oldest first (null: no requests that minute). */
  history: Array<number | null>;
  averageLaunchSeconds: number | null;
  launchesMeasured: number;
  activeConnections: number;
  messagesSent24h: number;
  /** Recordings captured before the ones the store lists. */
  earlierRecordings: number;
}

const states = new WeakMap<MockStore, MonitoringMockState>();

const healthy = (detail: string, latency: number): ComponentHealth => ({
  status: 'healthy',
  detail,
  latency_ms: latency,
});

function seed(): MonitoringMockState {
  return {
    components: {
      aws: healthy('local driver: ffmpeg found', 3.2),
      prayer_times: healthy('prayer times computed for 12 mosques', 1.4),
      database: healthy('sqlite: query answered', 0.6),
    },
    api: { average_ms: 14.2, p95_ms: 38.5, sample_count: 412 },
    // A gentle wave with two quiet minutes, so the chart has something to show in dev:mock.
    history: Array.from({ length: 60 }, (_, i) =>
      i === 20 || i === 21 ? null : Math.round((30 + 12 * Math.sin(i / 6) + (i % 7)) * 10) / 10,
    ),
    averageLaunchSeconds: 6.4,
    launchesMeasured: 9,
    activeConnections: 1,
    messagesSent24h: 1840,
    earlierRecordings: 0,
  };
}

export function monitoringMock(): MonitoringMockState {
  let state = states.get(store);
  if (!state) {
    state = seed();
    states.set(store, state);
  }
  return state;
}

/** operational when all are healthy, down when the database is not, degraded otherwise (as the server). */
export function mockSystemHealth(): SystemHealth {
  const { components } = monitoringMock();
  const failing = Object.entries(components)
    .filter(([, component]) => component.status !== 'healthy')
    .map(([name]) => name);
  const overall: SystemStatus =
    failing.length === 0 ? 'operational' : failing.includes('database') ? 'down' : 'degraded';
  return { overall_status: overall, components, failing, checked_at: new Date().toISOString() };
}

function history(state: MonitoringMockState): ResponseTimeMinute[] {
  const now = Date.now();
  const minute = now - (now % 60_000);
  return state.history.map((p95, i) => ({
    minute: new Date(minute - (state.history.length - 1 - i) * 60_000).toISOString(),
    p95_ms: p95,
    requests: p95 === null ? 0 : 5 + (i % 4),
  }));
}

function countBy<T>(items: readonly T[], key: (item: T) => string): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const item of items) counts[key(item)] = (counts[key(item)] ?? 0) + 1;
  return counts;
}

export const monitoringHandlers = [
  mock(monitoringRoutes.system, () => HttpResponse.json({ success: true, data: mockSystemHealth() })),

  mock(monitoringRoutes.metrics, () => {
    const state = monitoringMock();
    const data: SystemMetrics = {
      api_response_times: { ...state.api, window_seconds: 300, history: history(state) },
      instance_metrics: {
        average_launch_time_seconds: state.averageLaunchSeconds,
        launches_measured: state.launchesMeasured,
        by_state: countBy(store.instances, (instance) => instance.state),
      },
      websocket_metrics: { active_connections: state.activeConnections, messages_sent_24h: state.messagesSent24h },
      generated_at: new Date().toISOString(),
    };
    return HttpResponse.json({ success: true as const, data });
  }),

  mock(monitoringRoutes.recordings, () => {
    const data: RecordingStats = {
      total_recordings: monitoringMock().earlierRecordings + store.recordings.length,
      by_status: countBy(store.recordings, (recording) => recording.status),
    };
    return HttpResponse.json({ success: true as const, data });
  }),
];
