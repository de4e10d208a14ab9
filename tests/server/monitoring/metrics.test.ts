import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import WebSocket from 'ws';
import type { RecordingStats, SystemMetrics } from '../../../contract/monitoring';
import { createTestApp, type TestApp } from '../helpers/test-app';

type Body<T> = { success: true; data: T };

describe('monitoring figures', () => {
  let t: TestApp;
  let token: string;
  const metrics = async (): Promise<SystemMetrics> => {
    const response = await t.request({ method: 'GET', url: '/api/monitoring/metrics', token });
    expect(response.statusCode).toBe(200);
    return response.json<Body<SystemMetrics>>().data;
  };

  beforeAll(async () => {
    t = await createTestApp({ build: { healthCheckIntervalMs: 0 } });
    token = await t.login();
  });
  afterAll(() => t.close());

  it('needs a session', async () => {
    for (const url of ['/api/monitoring/metrics', '/api/monitoring/system', '/api/monitoring/recordings']) {
      expect((await t.request({ method: 'GET', url })).statusCode).toBe(401);
    }
  });

  it('measures API response times from the requests actually served', async () => {
    const before = await metrics();
    for (let i = 0; i < 12; i++) await t.request({ method: 'GET', url: '/api/auth/verify-token', token });
    const after = await metrics();
    // The 12 calls, plus the first metrics call itself (measured once its response was sent).
    expect(after.api_response_times.sample_count).toBe(before.api_response_times.sample_count + 13);
    expect(after.api_response_times.average_ms).toEqual(expect.any(Number));
    expect(after.api_response_times.p95_ms).toBeGreaterThan(0);
    expect(after.api_response_times.window_seconds).toBe(300);
    const history = after.api_response_times.history;
    expect(history).toHaveLength(60);
    expect(history.at(-1)).toMatchObject({
      minute: '2026-11-23T09:00:00.000Z',
      requests: after.api_response_times.sample_count,
    });
    expect(history.at(-1)?.p95_ms).toEqual(expect.any(Number));
    expect(history[0]).toMatchObject({ minute: '2026-11-23T08:01:00.000Z', p95_ms: null, requests: 0 });
  });

  it('counts /api requests only', async () => {
    const first = await metrics();
    await t.request({ method: 'GET', url: '/not-an-api-path' });
    await t.request({ method: 'GET', url: '/metrics' });
    const second = await metrics();
    expect(second.api_response_times.sample_count).toBe(first.api_response_times.sample_count + 1);
  });

  it('keeps a 5-minute window, and an hour of per-minute p95', async () => {
    t.clock.advance(6 * 60_000);
    const later = await metrics();
    expect(later.api_response_times).toMatchObject({ sample_count: 0, average_ms: null, p95_ms: null });
    const history = later.api_response_times.history;
    expect(history.at(-1)?.minute).toBe('2026-11-23T09:06:00.000Z');
    expect(history.find((m) => m.minute === '2026-11-23T09:00:00.000Z')?.requests).toBeGreaterThan(12);
    t.clock.advance(61 * 60_000);
    expect((await metrics()).api_response_times.history.every((m) => m.minute > '2026-11-23T09:06:00.000Z')).toBe(true);
  });

  it('averages recorded launch durations and shows instance counts', async () => {
    expect((await metrics()).instance_metrics).toMatchObject({
      average_launch_time_seconds: null,
      launches_measured: 0,
    });
    t.app.ctx.monitoring.recordLaunchDuration(30);
    t.app.ctx.monitoring.recordLaunchDuration(51);
    t.app.ctx.monitoring.provideInstanceCounts(async () => ({ running: 2, pending: 1 }));
    expect((await metrics()).instance_metrics).toEqual({
      average_launch_time_seconds: 40.5,
      launches_measured: 2,
      by_state: { running: 2, pending: 1 },
    });
  });

  it('totals recordings by status from the registered counter', async () => {
    const read = async () =>
      (await t.request({ method: 'GET', url: '/api/monitoring/recordings', token })).json<Body<RecordingStats>>().data;
    expect((await read()).total_recordings).toBe(0);
    t.app.ctx.monitoring.provideRecordingCounts(async () => ({ completed: 4, failed: 1, recording: 2 }));
    expect(await read()).toEqual({ total_recordings: 7, by_status: { completed: 4, failed: 1, recording: 2 } });
  });

  it('counts live connections and the messages sent to them in 24 h', async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = t.app.server.address() as AddressInfo;
    const before = await metrics();
    expect(before.websocket_metrics.active_connections).toBe(0);

    const socket = new WebSocket(`ws://127.0.0.1:${port}/ws`);
    const received: string[] = [];
    socket.on('message', (data) => received.push(String(data)));
    await new Promise((resolve) => socket.once('open', resolve));
    socket.send(JSON.stringify({ action: 'client_connected', timestamp: new Date().toISOString(), token }));
    // The welcome and the initial data at least; greetings may follow them, so the count is compared once
    // every message the server counted has arrived (a message counted but never delivered still fails here).
    await vi.waitFor(async () => {
      expect(received.length).toBeGreaterThanOrEqual(2);
      const during = await metrics();
      expect(during.websocket_metrics.active_connections).toBe(1);
      expect(during.websocket_metrics.messages_sent_24h).toBe(
        before.websocket_metrics.messages_sent_24h + received.length,
      );
    });

    socket.close();
    await vi.waitFor(async () => expect((await metrics()).websocket_metrics.active_connections).toBe(0));
    t.clock.advance(25 * 3600_000);
    token = await t.login();
    expect((await metrics()).websocket_metrics.messages_sent_24h).toBe(0);
  });
});
