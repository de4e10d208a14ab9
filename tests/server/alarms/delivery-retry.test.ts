import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { alarmsResponseSchema, type AlarmDelivery } from '../../../contract/alarms';
import { buildApp, type App } from '../../../server/app';
import type { RetryTimer } from '../../../server/modules/alarms/delivery';
import { ADMIN, createTestApp, type TestApp } from '../helpers/test-app';
import { freePort } from '../../../testkit/ports';
import { scaled } from '../../../testkit/time-scale';

/** Retries wait for the test to run them, with the delay they asked for. */
function heldTimer() {
  const held: { run: () => void; ms: number }[] = [];
  const timer: RetryTimer = (run, ms) => {
    held.push({ run, ms });
    return () => undefined;
  };
  return { timer, held };
}

async function deliveriesOf(app: App, token: string, id: string): Promise<AlarmDelivery[]> {
  const response = await app.inject({
    method: 'GET',
    url: '/api/alarms?status=all',
    headers: { authorization: `Bearer ${token}` },
  });
  return alarmsResponseSchema.parse(response.json()).data.alarms.find((a) => a.id === id)?.deliveries ?? [];
}

describe('alarm delivery retries', () => {
  const first = heldTimer();
  let t: TestApp;
  let port: number;
  let receiver: http.Server | undefined;
  let bodies: string[];

  beforeAll(async () => {
    port = await freePort();
    bodies = [];
    t = await createTestApp({
      env: { ALARM_WEBHOOK_URL: `http://127.0.0.1:${port}/hook`, ALARM_GROUP_WINDOW_SECONDS: '0' },
      build: { healthCheckIntervalMs: 0, alarmDelivery: { timer: first.timer, retryDelaysMs: [2_000, 10_000] } },
    });
  });
  afterAll(async () => {
    await new Promise((resolve) => (receiver ? receiver.close(resolve) : resolve(undefined)));
    // Closes the first app again (a no-op), drops a PostgreSQL test database and removes the data directory.
    await t.close();
  });

  it('waits the back-off after a refused attempt, then delivers when the receiver is back', async () => {
    const token = await t.login();
    const alarm = await t.app.ctx.alarms.raise({ kind: 'missed', key: 'missed:job-1', message: 'Never launched' });
    // The retry is written, then scheduled: a read between the two sees it retrying with no timer yet.
    await vi.waitFor(
      async () => {
        expect((await deliveriesOf(t.app, token, alarm.id))[0]?.state).toBe('retrying');
        expect(first.held.map((h) => h.ms)).toEqual([2_000]);
      },
      { timeout: scaled(5000) },
    );

    receiver = http.createServer((request, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString()));
      request.on('end', () => {
        bodies.push(body);
        response.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => receiver?.listen(port, '127.0.0.1', resolve));
    first.held.shift()?.run();
    await vi.waitFor(
      async () =>
        expect((await deliveriesOf(t.app, token, alarm.id))[0]).toMatchObject({ state: 'delivered', attempts: 2 }),
      { timeout: scaled(5000) },
    );
    expect(bodies).toHaveLength(1);
  });

  it('carries on after a restart with a delivery that was waiting for its retry', async () => {
    await new Promise((resolve) => (receiver ? receiver.close(resolve) : resolve(undefined)));
    receiver = undefined;
    const token = await t.login();
    const alarm = await t.app.ctx.alarms.raise({ kind: 'preflight', key: 'preflight:disk', message: 'Disk low' });
    await vi.waitFor(async () => expect((await deliveriesOf(t.app, token, alarm.id))[0]?.state).toBe('retrying'), {
      timeout: scaled(5000),
    });
    await t.app.close();

    // A new server on the same database: it resumes the delivery at the time it was due.
    const second = heldTimer();
    t.clock.advance(500);
    const app = await buildApp(t.config, {
      logger: false,
      clock: t.clock,
      healthCheckIntervalMs: 0,
      alarmDelivery: { timer: second.timer, retryDelaysMs: [2_000, 10_000] },
    });
    try {
      await app.ready();
      expect(second.held.map((h) => h.ms)).toEqual([1_500]);
      receiver = http.createServer((request, response) => {
        request.resume();
        request.on('end', () => response.writeHead(200).end());
      });
      await new Promise<void>((resolve) => receiver?.listen(port, '127.0.0.1', resolve));
      second.held.shift()?.run();
      const login = await app.inject({ method: 'POST', url: '/api/auth/login', payload: ADMIN });
      const adminToken = login.json<{ access_token: string }>().access_token;
      await vi.waitFor(
        async () =>
          expect((await deliveriesOf(app, adminToken, alarm.id))[0]).toMatchObject({ state: 'delivered', attempts: 2 }),
        { timeout: scaled(5000) },
      );
    } finally {
      await app.close();
    }
  });
});
