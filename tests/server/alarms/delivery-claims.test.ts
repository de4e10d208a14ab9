import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { alarmsResponseSchema, type AlarmDelivery } from '../../../contract/alarms';
import type { RetryTimer } from '../../../server/modules/alarms/delivery';
import { AlarmDeliveries, DELIVERY_CLAIM_MS, DELIVERY_SWEEP_MS } from '../../../server/modules/alarms/delivery';
import { AlarmDeliveriesRepository } from '../../../server/modules/alarms/delivery-repository';
import { createPeerApp, createTestApp, type TestApp } from '../helpers/test-app';
import { scaled } from '../../../testkit/time-scale';
import { startWebhookReceiver, type WebhookReceiver } from '../../../testkit/webhook-receiver';
import { expectQuietFor } from '../../../testkit/wait';

/** Retries wait for the test to run them. */
function heldTimer() {
  const held: { run: () => void; ms: number }[] = [];
  const timer: RetryTimer = (run, ms) => {
    held.push({ run, ms });
    return () => undefined;
  };
  return { timer, held, runNext: () => held.shift()?.run() };
}

const RETRIES = [2_000, 10_000, 30_000];

/**
 * Servers on one database (PostgreSQL in `npm run test:pg`) sharing one webhook: each alarm message is
 * posted once while servers start, stop and die between its attempts.
 */
describe('alarm deliveries claimed across servers', () => {
  let hook: WebhookReceiver;
  let servers: TestApp[];

  const start = async (timer: RetryTimer, sweepMs?: number) => {
    const build = { healthCheckIntervalMs: 0, alarmDelivery: { timer, retryDelaysMs: RETRIES, sweepMs } };
    const server =
      servers.length === 0
        ? await createTestApp({ env: { ALARM_WEBHOOK_URL: hook.url, ALARM_GROUP_WINDOW_SECONDS: '0' }, build })
        : await createPeerApp(servers[0], build);
    await server.app.ready();
    servers.push(server);
    return server;
  };
  const delivery = async (t: TestApp, alarmId: string): Promise<AlarmDelivery | undefined> => {
    const response = await t.request({ method: 'GET', url: '/api/alarms?status=all', token: await t.login() });
    return alarmsResponseSchema.parse(response.json()).data.alarms.find((alarm) => alarm.id === alarmId)?.deliveries[0];
  };
  const postsAbout = (alarmId: string) => hook.requests.filter((request) => request.body.includes(alarmId));

  beforeEach(async () => {
    hook = await startWebhookReceiver();
    servers = [];
  });
  afterEach(async () => {
    // Peers first: the first server's close drops the database.
    for (const server of servers.reverse()) await server.close();
    await hook.close();
  });

  it('a server that starts during the retries leaves them to their holder; one that stops hands them over at once, to one server', async () => {
    hook.statuses.push(503, 503);
    const a = heldTimer();
    const first = await start(a.timer);
    const alarm = await first.app.ctx.alarms.raise({
      kind: 'missed',
      key: 'missed:claims-1',
      message: 'Never launched',
    });
    await vi.waitFor(() => expect(a.held).toHaveLength(1), { timeout: scaled(5000) });

    // Started while A waits for its retry: they find it held, and send nothing.
    const b = heldTimer();
    const c = heldTimer();
    await start(b.timer);
    a.runNext();
    await vi.waitFor(() => expect(a.held).toHaveLength(1), { timeout: scaled(5000) });
    await start(c.timer);
    first.clock.advance(DELIVERY_SWEEP_MS);
    await expectQuietFor(200, () => expect([b.held, c.held]).toEqual([[], []]));
    expect(postsAbout(alarm.id)).toHaveLength(2);

    // A stops cleanly: its claim is let go, and the next sweep of B and C (at the same moment) gives it to one of them.
    await servers[0].app.close();
    first.clock.advance(DELIVERY_SWEEP_MS);
    await vi.waitFor(() => expect(b.held.length + c.held.length).toBe(1), { timeout: scaled(5000) });
    await expectQuietFor(200, () => expect(b.held.length + c.held.length).toBe(1));
    b.runNext();
    c.runNext();
    await vi.waitFor(
      async () => expect(await delivery(servers[1], alarm.id)).toMatchObject({ state: 'delivered', attempts: 3 }),
      { timeout: scaled(5000) },
    );
    expect(postsAbout(alarm.id)).toHaveLength(3);
  });

  it('a server that dies holding a delivery is relieved of it when its claim lapses, and posts nothing when it wakes', async () => {
    hook.statuses.push(503);
    // A stands for a server that hangs or dies: it never renews its claim, and its retry runs only when the test says.
    const a = heldTimer();
    const first = await start(a.timer, 24 * 3_600_000);
    const alarm = await first.app.ctx.alarms.raise({
      kind: 'missed',
      key: 'missed:claims-2',
      message: 'Never launched',
    });
    await vi.waitFor(() => expect(a.held).toHaveLength(1), { timeout: scaled(5000) });
    const b = heldTimer();
    await start(b.timer);

    // Within the claim's lease B leaves it alone, even after its retry was due.
    first.clock.advance(DELIVERY_CLAIM_MS - DELIVERY_SWEEP_MS);
    await expectQuietFor(200, () => expect(b.held).toEqual([]));
    // Its lease lapsed: B's next sweep takes it over, with its retry due at once.
    first.clock.advance(DELIVERY_SWEEP_MS + 1000);
    await vi.waitFor(() => expect(b.held.map((h) => h.ms)).toEqual([0]), { timeout: scaled(5000) });
    b.runNext();
    await vi.waitFor(
      async () => expect(await delivery(servers[1], alarm.id)).toMatchObject({ state: 'delivered', attempts: 2 }),
      { timeout: scaled(5000) },
    );

    // A wakes and runs the retry it had scheduled: the delivery is no longer its own, and nothing is posted twice.
    a.runNext();
    // A's close waits for the attempts it has in flight: that retry has run, or found the message taken.
    await first.app.close();
    expect(postsAbout(alarm.id)).toHaveLength(2);
  });

  it('a sweep that comes while a sent message is being recorded as delivered leaves it alone', async () => {
    const a = heldTimer();
    const first = await start(a.timer);
    // The first attempt's write of "delivered" waits until a sweep has run in between.
    let release = () => undefined as void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const updateMessage = AlarmDeliveriesRepository.prototype.updateMessage;
    const recording = vi
      .spyOn(AlarmDeliveriesRepository.prototype, 'updateMessage')
      .mockImplementationOnce(async function (this: AlarmDeliveriesRepository, ...args) {
        await released;
        return updateMessage.apply(this, args);
      });
    const sweep = vi.spyOn(AlarmDeliveries.prototype, 'sweep');
    const alarm = await first.app.ctx.alarms.raise({
      kind: 'missed',
      key: 'missed:claims-3',
      message: 'Never launched',
    });
    await vi.waitFor(() => expect(recording).toHaveBeenCalled(), { timeout: scaled(5000) });
    expect(postsAbout(alarm.id)).toHaveLength(1);
    first.clock.advance(DELIVERY_SWEEP_MS);
    await vi.waitFor(() => expect(sweep).toHaveBeenCalled(), { timeout: scaled(5000) });
    await sweep.mock.results[0].value;
    release();
    await vi.waitFor(
      async () => expect(await delivery(first, alarm.id)).toMatchObject({ state: 'delivered', attempts: 1 }),
      { timeout: scaled(5000) },
    );
    // The sweep found it still owed; taken for one to carry on, it was scheduled (and posted) again.
    expect(a.held).toEqual([]);
    expect(postsAbout(alarm.id)).toHaveLength(1);
  });
});
