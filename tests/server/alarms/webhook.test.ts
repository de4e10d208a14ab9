import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { alarmsResponseSchema, type Alarm, type AlarmDelivery } from '../../../contract/alarms';
import { createTestApp, type TestApp } from '../helpers/test-app';
import { scaled } from '../../../testkit/time-scale';
import { startWebhookReceiver, type WebhookReceiver } from '../../../testkit/webhook-receiver';

const SECRET = 'webhook-secret-0123456789';

describe('alarm webhook', () => {
  let hook: WebhookReceiver;
  let t: TestApp;
  let token: string;

  const deliveriesOf = async (id: string): Promise<AlarmDelivery[]> => {
    const response = await t.request({ method: 'GET', url: '/api/alarms?status=all', token });
    return alarmsResponseSchema.parse(response.json()).data.alarms.find((a) => a.id === id)?.deliveries ?? [];
  };

  beforeAll(async () => {
    hook = await startWebhookReceiver();
    t = await createTestApp({
      env: {
        ALARM_WEBHOOK_URL: `${hook.origin}/hooks/T000/B000/token-in-path`,
        ALARM_WEBHOOK_SECRET: SECRET,
        ALARM_GROUP_WINDOW_SECONDS: '0',
      },
      build: { healthCheckIntervalMs: 0, alarmDelivery: { retryDelaysMs: [50, 100] } },
    });
    token = await t.login();
  });
  afterAll(async () => {
    await t.close();
    await hook.close();
  });

  it('posts a signed one-line text with the alarm, and retries after a failed attempt', async () => {
    hook.statuses.push(503);
    const alarm = await t.app.ctx.alarms.raise({
      kind: 'capture_failed',
      key: 'outcome:rec-1',
      message: 'No media — the stream never came',
      mosqueId: 'm1',
      mosqueName: 'Al Noor Mosque',
    });

    await vi.waitFor(async () => expect((await deliveriesOf(alarm.id))[0]?.state).toBe('delivered'), {
      timeout: scaled(5000),
    });
    expect(hook.requests).toHaveLength(2);
    const [failed, delivered] = hook.requests;
    expect(delivered.body).toBe(failed.body);
    // The receiver checks the signature over the exact bytes it got.
    const expected = `sha256=${crypto.createHmac('sha256', SECRET).update(delivered.body).digest('hex')}`;
    expect(delivered.headers['x-signature-256']).toBe(expected);
    expect(delivered.headers['content-type']).toBe('application/json');
    const payload = JSON.parse(delivered.body) as { text: string; event: string; alarm: Alarm };
    // The test clock starts on Monday 2026-11-23.
    expect(payload.text).toBe('🔴 CRITICAL Al Noor Mosque: No media — the stream never came (Monday 2026-11-23)');
    expect(payload).toMatchObject({
      event: 'raised',
      alarm: { id: alarm.id, kind: 'capture_failed', severity: 'critical' },
    });

    const [delivery] = await deliveriesOf(alarm.id);
    expect(delivery).toMatchObject({
      channel: 'webhook',
      event: 'raised',
      attempts: 2,
      last_error: null,
      next_attempt_at: null,
    });
    expect(delivery.delivered_at).not.toBeNull();
  });

  it('announces the resolution too', async () => {
    hook.requests.length = 0;
    const alarm = await t.app.ctx.alarms.raise({
      kind: 'stall',
      key: 'stall:cap-7',
      message: 'The recorder stopped',
      instanceId: 'cap-7',
    });
    // Resolved once announced: an alarm already cleared when its announcement is decided is not told at all.
    await vi.waitFor(async () => expect((await deliveriesOf(alarm.id))[0]?.state).toBe('delivered'), {
      timeout: scaled(5000),
    });
    await t.app.ctx.alarms.resolve('stall:cap-7');
    await vi.waitFor(
      async () =>
        expect((await deliveriesOf(alarm.id)).map((d) => `${d.event}:${d.state}`).sort()).toEqual([
          'raised:delivered',
          'resolved:delivered',
        ]),
      { timeout: scaled(20_000) },
    );
    const texts = hook.requests.map((r) => (JSON.parse(r.body) as { text: string }).text).sort();
    expect(texts).toEqual([
      '✅ RESOLVED cap-7: The recorder stopped (Monday 2026-11-23)',
      '🟠 WARNING cap-7: The recorder stopped (Monday 2026-11-23)',
    ]);
  });

  it('gives up after its retries, and says why without showing the URL', async () => {
    hook.requests.length = 0;
    hook.statuses.push(500, 500, 500);
    const alarm = await t.app.ctx.alarms.raise({
      kind: 'missed',
      key: 'missed:job-3',
      message: 'The recording was never launched',
    });
    await vi.waitFor(async () => expect((await deliveriesOf(alarm.id))[0]?.state).toBe('failed'), {
      timeout: scaled(5000),
    });
    expect(hook.requests).toHaveLength(3);
    const [delivery] = await deliveriesOf(alarm.id);
    expect(delivery).toMatchObject({
      attempts: 3,
      last_error: 'The webhook answered HTTP 500',
      next_attempt_at: null,
      delivered_at: null,
    });
  });
});

describe('alarm webhook that cannot be reached', () => {
  it('records the refused attempts, with the cause and no URL, and keeps retrying', async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise((resolve) => closed.close(resolve));
    const t = await createTestApp({
      env: { ALARM_WEBHOOK_URL: `http://127.0.0.1:${port}/secret-token`, ALARM_GROUP_WINDOW_SECONDS: '0' },
      build: { healthCheckIntervalMs: 0, alarmDelivery: { retryDelaysMs: [60_000] } },
    });
    try {
      const token = await t.login();
      const alarm = await t.app.ctx.alarms.raise({
        kind: 'preflight',
        key: 'preflight:disk',
        message: 'Free disk is below what this Friday needs',
      });
      await vi.waitFor(
        async () => {
          const response = await t.request({ method: 'GET', url: '/api/alarms', token });
          const [delivery] =
            alarmsResponseSchema.parse(response.json()).data.alarms.find((a) => a.id === alarm.id)?.deliveries ?? [];
          expect(delivery).toMatchObject({
            state: 'retrying',
            attempts: 1,
            last_error: 'The webhook could not be reached: ECONNREFUSED',
          });
          expect(delivery.next_attempt_at).toBe(new Date(t.clock.now().getTime() + 60_000).toISOString());
          expect(response.body).not.toContain('secret-token');
        },
        { timeout: scaled(5000) },
      );
    } finally {
      await t.close();
    }
  });
});
