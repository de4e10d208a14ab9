import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { SystemHealth } from '../../../contract/monitoring';
import type { ServerMessage } from '../../../contract/live';
import { createTestApp, type TestApp } from '../helpers/test-app';
import { scaled } from '../../../testkit/time-scale';

const METRICS_TOKEN = 'scrape-token-0123456789abcdef';

describe('alarms in health and metrics', () => {
  let t: TestApp;
  let token: string;

  const system = async (): Promise<SystemHealth> => {
    const response = await t.request({ method: 'GET', url: '/api/monitoring/system', token });
    expect(response.statusCode).toBe(200);
    return response.json<{ data: SystemHealth }>().data;
  };
  const scrape = async () =>
    (await t.request({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).body;

  beforeAll(async () => {
    t = await createTestApp({ env: { METRICS_TOKEN }, build: { healthCheckIntervalMs: 0 } });
    token = await t.login();
    // Only the alarms term may move the overall status in this test.
    t.app.ctx.monitoring.registerHealthCheck('aws', async () => ({ status: 'healthy' }));
    await t.app.ctx.monitoring.refresh();
  });
  afterAll(() => t.close());

  it('is degraded, with the reason, while a critical alarm is open, and tells live consoles at once', async () => {
    expect((await system()).overall_status).toBe('operational');
    await t.app.ctx.alarms.raise({ kind: 'stall', key: 'stall:cap-1', message: 'No media for 90 s' });
    expect((await t.app.ctx.monitoring.refresh()).overall_status).toBe('operational');

    const publish = vi.spyOn(t.app.ctx.hub, 'publish');
    await t.app.ctx.alarms.raise({
      kind: 'capture_failed',
      key: 'outcome:rec-1',
      message: 'No media: the stream never came',
      mosqueName: 'Al Noor Mosque',
    });
    const sent = () => publish.mock.calls.map(([message]) => message as ServerMessage);
    await vi.waitFor(
      () => expect(sent()).toContainEqual({ type: 'system_status_update', data: { status: 'degraded' } }),
      { timeout: scaled(5000) },
    );
    expect(sent()).toContainEqual({ type: 'system_health', data: { overall_health: 'degraded' } });
    const health = await system();
    expect(health).toMatchObject({ overall_status: 'degraded', failing: ['alarms'] });
    expect(health.components.alarms.detail).toBe(
      'A critical alarm is open: Al Noor Mosque: No media: the stream never came',
    );

    // Acknowledging is not fixing: still degraded until the cause clears.
    const [open] = (await t.app.ctx.alarms.list('open', 10)).filter((a) => a.severity === 'critical');
    await t.app.ctx.alarms.acknowledge(open.id, { id: 1, username: 'admin' });
    expect((await t.app.ctx.monitoring.refresh()).overall_status).toBe('degraded');

    await t.app.ctx.alarms.resolve('outcome:rec-1');
    await vi.waitFor(
      () => expect(sent()).toContainEqual({ type: 'system_status_update', data: { status: 'operational' } }),
      { timeout: scaled(5000) },
    );
    expect((await system()).overall_status).toBe('operational');
  });

  it('exports open alarms by kind and severity', async () => {
    await t.app.ctx.alarms.raise({ kind: 'missed', key: 'missed:job-1', message: 'Never launched' });
    await t.app.ctx.alarms.raise({ kind: 'missed', key: 'missed:job-2', message: 'Never launched' });
    const text = await scrape();
    expect(text).toContain('# TYPE capture_alarms_open gauge');
    expect(text).toContain('capture_alarms_open{kind="missed",severity="critical"} 2');
    expect(text).toContain('capture_alarms_open{kind="stall",severity="warning"} 1');
    expect(text).toContain('capture_alarms_open{kind="capture_failed",severity="critical"} 0');
    await t.app.ctx.alarms.resolve('missed:job-1', 'missed:job-2');
    expect(await scrape()).toContain('capture_alarms_open{kind="missed",severity="critical"} 0');
  });
});
