import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ServerMessage } from '../../../contract/live';
import type { SystemHealth } from '../../../contract/monitoring';
import { HealthChecks } from '../../../server/modules/monitoring/health';
import { createTestApp, type TestApp } from '../helpers/test-app';
import { scaled } from '../../../testkit/time-scale';
import { expectQuietFor } from '../../../testkit/wait';

type Body<T> = { success: true; data: T };
const healthy = async () => ({ status: 'healthy' as const, detail: 'ok' });
/** What the local capture driver reports when its ffmpeg binary is gone. */
const ffmpegMissing = async () => ({ status: 'unhealthy' as const, detail: 'ffmpeg not found at /nonexistent/ffmpeg' });

describe('system health', () => {
  let t: TestApp | undefined;
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });

  const open = async (build: { healthCheckIntervalMs?: number; healthCheckTimeoutMs?: number } = {}) => {
    t = await createTestApp({ build: { healthCheckIntervalMs: 0, ...build } });
    return t;
  };
  const system = async (app: TestApp) => {
    const response = await app.request({ method: 'GET', url: '/api/monitoring/system', token: await app.login() });
    expect(response.statusCode).toBe(200);
    return response.json<Body<SystemHealth>>().data;
  };
  const published = (spy: { mock: { calls: unknown[][] } }) =>
    spy.mock.calls.map(([message]) => message as ServerMessage);

  it('checks the database, prayer times and the capture provider', async () => {
    const app = await open();
    const report = await system(app);
    expect(report.components.database).toMatchObject({ status: 'healthy', detail: 'Answered a test query' });
    expect(report.components.prayer_times).toMatchObject({ status: 'healthy' });
    expect(report.components.aws.status).toMatch(/^(healthy|unhealthy)$/);
    expect(report.checked_at).toBe(app.clock.now().toISOString());
  });

  it('counts the capture provider as failing while none is registered', async () => {
    const app = await open();
    const checks = new HealthChecks(app.app.ctx.db.kysely, app.clock);
    const report = await checks.run();
    expect(report.components.aws).toMatchObject({ status: 'unhealthy', detail: 'No capture provider is registered' });
    expect(report).toMatchObject({ overall_status: 'degraded', failing: ['aws'] });
  });

  it('is operational only when every component is healthy', async () => {
    const app = await open();
    app.app.ctx.monitoring.registerHealthCheck('aws', healthy);
    expect(await system(app)).toMatchObject({ overall_status: 'operational', failing: [] });
  });

  it('turns degraded, naming the component, when the capture check fails (ffmpeg missing)', async () => {
    const app = await open();
    app.app.ctx.monitoring.registerHealthCheck('aws', healthy);
    app.app.ctx.monitoring.registerHealthCheck('aws', ffmpegMissing);
    const report = await system(app);
    expect(report).toMatchObject({ overall_status: 'degraded', failing: ['aws'] });
    expect(report.components.aws).toMatchObject({
      status: 'unhealthy',
      detail: 'ffmpeg not found at /nonexistent/ffmpeg',
    });
  });

  it("maps the capture provider's own health (operational, degraded, down) onto the aws component", async () => {
    const app = await open();
    let provider = { status: 'operational', detail: 'ffmpeg 6.1 (system); 0 recorders active' };
    app.app.ctx.monitoring.registerCaptureProvider({ health: async () => provider });
    expect(await system(app)).toMatchObject({
      overall_status: 'operational',
      components: { aws: { status: 'healthy', detail: provider.detail } },
    });
    provider = { status: 'down', detail: 'ffmpeg was not found: set FFMPEG_PATH or install ffmpeg' };
    app.clock.advance(11_000);
    const report = await system(app);
    expect(report).toMatchObject({
      overall_status: 'degraded',
      failing: ['aws'],
      components: { aws: { status: 'unhealthy', detail: provider.detail } },
    });
  });

  it('counts a check that throws or hangs as unhealthy', async () => {
    // Long enough that the real checks (the database's on a busy PostgreSQL) answer within it: only the hanging one may miss it.
    const app = await open({ healthCheckTimeoutMs: 2000 });
    app.app.ctx.monitoring.registerHealthCheck('aws', async () => {
      throw new Error('DescribeInstances failed: UnauthorizedOperation');
    });
    app.app.ctx.monitoring.registerHealthCheck('prayer_times', () => new Promise(() => undefined));
    const report = await system(app);
    expect(report.components.aws.detail).toBe('Check failed: DescribeInstances failed: UnauthorizedOperation');
    expect(report.components.prayer_times).toMatchObject({ status: 'unhealthy', detail: 'No answer within 2 s' });
    expect(report.failing.sort()).toEqual(['aws', 'prayer_times']);
  });

  it('is down when the database is closed', async () => {
    const app = await open();
    app.app.ctx.monitoring.registerHealthCheck('aws', healthy);
    expect((await app.app.ctx.monitoring.refresh()).overall_status).toBe('operational');
    const publish = vi.spyOn(app.app.ctx.hub, 'publish');
    await app.app.ctx.db.kysely.destroy();
    const report = await app.app.ctx.monitoring.refresh();
    expect(report.overall_status).toBe('down');
    expect(report.failing).toEqual(['database']);
    expect(report.components.database.status).toBe('unhealthy');
    expect(report.components.database.detail).toMatch(/^Check failed: /);
    expect(published(publish)).toEqual([
      { type: 'system_status_update', data: { status: 'down' } },
      { type: 'system_health', data: { overall_health: 'down' } },
    ]);
  });

  it('pushes system_status_update and system_health when, and only when, the status changes', async () => {
    const app = await open();
    let ffmpegPresent = true;
    app.app.ctx.monitoring.registerHealthCheck('aws', () => (ffmpegPresent ? healthy() : ffmpegMissing()));
    await app.app.ctx.monitoring.refresh();
    const publish = vi.spyOn(app.app.ctx.hub, 'publish');

    await app.app.ctx.monitoring.refresh();
    expect(publish).not.toHaveBeenCalled();

    ffmpegPresent = false;
    await app.app.ctx.monitoring.refresh();
    await app.app.ctx.monitoring.refresh();
    ffmpegPresent = true;
    await app.app.ctx.monitoring.refresh();
    expect(published(publish)).toEqual([
      { type: 'system_status_update', data: { status: 'degraded' } },
      { type: 'system_health', data: { overall_health: 'degraded' } },
      { type: 'system_status_update', data: { status: 'operational' } },
      { type: 'system_health', data: { overall_health: 'operational' } },
    ]);
    expect(app.app.ctx.monitoring.lastKnownStatus()).toBe('operational');
  });

  it('re-checks on its own at the configured interval, and stops on close', async () => {
    const app = await open({ healthCheckIntervalMs: 20 });
    let runs = 0;
    app.app.ctx.monitoring.registerHealthCheck('aws', async () => {
      runs++;
      return runs >= 3 ? ffmpegMissing() : healthy();
    });
    const publish = vi.spyOn(app.app.ctx.hub, 'publish');
    await app.app.ready();
    await vi.waitFor(
      () => expect(published(publish)).toContainEqual({ type: 'system_status_update', data: { status: 'degraded' } }),
      { timeout: scaled(5000) },
    );
    await app.close();
    t = undefined;
    const after = runs;
    await expectQuietFor(100, () => expect(runs).toBe(after));
  });

  it('reuses a fresh report for polls and re-checks a stale one', async () => {
    const app = await open();
    let runs = 0;
    app.app.ctx.monitoring.registerHealthCheck('aws', async () => {
      runs++;
      return healthy();
    });
    await system(app);
    await system(app);
    expect(runs).toBe(1);
    app.clock.advance(11_000);
    await system(app);
    expect(runs).toBe(2);
  });
});
