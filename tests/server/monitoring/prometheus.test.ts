import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../../server/config';
import { DURATION_BUCKETS_SECONDS } from '../../../server/modules/monitoring/prometheus';
import { waitFor } from '../../../testkit/wait';
import { createPeerApp, createTestApp, type TestApp } from '../helpers/test-app';

const METRICS_TOKEN = 'scrape-token-0123456789abcdef';

describe('GET /metrics', () => {
  it('does not exist unless METRICS_TOKEN is set', async () => {
    const t = await createTestApp({ build: { healthCheckIntervalMs: 0 } });
    try {
      const response = await t.request({
        method: 'GET',
        url: '/metrics',
        headers: { authorization: `Bearer ${METRICS_TOKEN}` },
      });
      expect(response.statusCode).toBe(404);
    } finally {
      await t.close();
    }
  });

  it('refuses a METRICS_TOKEN too short to be a secret', () => {
    expect(() => loadConfig({ METRICS_TOKEN: 'short' })).toThrow(ConfigError);
  });

  describe('when enabled', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp({ env: { METRICS_TOKEN }, build: { healthCheckIntervalMs: 0 } });
    });
    afterAll(() => t.close());
    const scrape = () =>
      t.request({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
    /** The scrape with this server's label taken out (the figures are what these tests look at). */
    const withoutServerLabel = (text: string) => {
      const label = `server="${t.app.ctx.servers.id}"`;
      return text.replaceAll(`{${label}}`, '').replaceAll(`,${label}`, '').replaceAll(`${label},`, '');
    };

    it('needs the bearer token', async () => {
      const none = await t.request({ method: 'GET', url: '/metrics' });
      expect(none.statusCode).toBe(401);
      expect(none.headers['www-authenticate']).toMatch(/^Bearer/);
      const wrong = await t.request({
        method: 'GET',
        url: '/metrics',
        headers: { authorization: `Bearer ${METRICS_TOKEN}x` },
      });
      expect(wrong.statusCode).toBe(401);
      // A console session is not a scrape token.
      const session = await t.request({ method: 'GET', url: '/metrics', token: await t.login() });
      expect(session.statusCode).toBe(401);
    });

    it('serves the Prometheus text format', async () => {
      const token = await t.login();
      for (let i = 0; i < 3; i++) await t.request({ method: 'GET', url: '/api/auth/verify-token', token });
      const response = await scrape();
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toBe('text/plain; version=0.0.4; charset=utf-8');
      const text = withoutServerLabel(response.body);
      expect(text).toContain('# TYPE http_request_duration_seconds histogram');
      const route = 'method="GET",route="/api/auth/verify-token",status_code="200"';
      // Label order inside the braces carries no meaning; prom-client writes `le` first.
      expect(text).toContain(`http_request_duration_seconds_bucket{le="+Inf",${route}} 3`);
      expect(text).toContain(`http_request_duration_seconds_count{${route}} 3`);
      expect(text).toMatch(
        new RegExp(`http_request_duration_seconds_sum\\{${route.replace(/[/.]/g, '\\$&')}\\} [0-9.e-]+`),
      );
      expect(text).toContain('# TYPE capture_websocket_connections gauge\ncapture_websocket_connections 0\n');
      expect(text).toContain('# TYPE capture_instances gauge');
      expect(text).not.toContain('route="/metrics"');
      // Every sample line is `name{labels} value`.
      for (const line of text
        .trim()
        .split('\n')
        .filter((l) => !l.startsWith('#'))) {
        expect(line).toMatch(/^[a-zA-Z_:][a-zA-Z0-9_:]*(\{[^}]*\})? [-+0-9.eInfNa]+$/);
      }
      // Buckets are cumulative.
      const buckets = [
        ...text.matchAll(
          new RegExp(
            `http_request_duration_seconds_bucket\\{le="[^"]+",${route.replace(/[/.]/g, '\\$&')}\\} (\\d+)`,
            'g',
          ),
        ),
      ].map((m) => Number(m[1]));
      expect(buckets).toHaveLength(DURATION_BUCKETS_SECONDS.length + 1);
      expect(buckets).toEqual([...buckets].sort((a, b) => a - b));
    });

    it('counts /api requests that match no route under one "unmatched" label, not their URLs', async () => {
      for (const url of ['/api/no/such/thing', '/api/nor/this'])
        expect((await t.request({ method: 'GET', url })).statusCode).toBe(404);
      const text = withoutServerLabel((await scrape()).body);
      expect(text).toContain('http_request_duration_seconds_count{method="GET",route="unmatched",status_code="404"} 2');
      expect(text).not.toContain('/api/no/such/thing');
    });

    it('exports what other modules provide: instances, recordings, scheduler jobs, extra gauges', async () => {
      const monitoring = t.app.ctx.monitoring;
      monitoring.provideInstanceCounts(async () => ({ running: 2, terminated: 5 }));
      monitoring.provideRecordingCounts(async () => ({ completed: 3 }));
      monitoring.provideSchedulerJobCounts(async () => ({ scheduled: 4, missed: 1 }));
      monitoring.registerGauge({
        name: 'capture_test_gauge',
        help: 'A "quoted"\nhelp',
        labelNames: ['mosque'],
        collect: () => [{ labels: { mosque: 'Al "Noor"\\East' }, value: 1.5 }],
      });
      monitoring.registerGauge({
        name: 'capture_broken_gauge',
        help: 'Fails',
        collect: () => Promise.reject(new Error('boom')),
      });
      monitoring.recordLaunchDuration(42);
      monitoring.registerHealthCheck('aws', async () => ({ status: 'unhealthy', detail: 'ffmpeg was not found' }));
      await monitoring.refresh();
      const text = withoutServerLabel((await scrape()).body);
      expect(text).toContain('capture_instances{state="running"} 2\ncapture_instances{state="terminated"} 5\n');
      expect(text).toContain('capture_recordings{status="completed"} 3\n');
      expect(text).toContain(
        'capture_scheduler_jobs{status="scheduled"} 4\ncapture_scheduler_jobs{status="missed"} 1\n',
      );
      expect(text).toContain('capture_instance_launch_seconds_average 42\n');
      expect(text).toContain('capture_component_healthy{component="database"} 1\n');
      expect(text).toContain('capture_component_healthy{component="aws"} 0\n');
      expect(text).toContain('# HELP capture_test_gauge A "quoted"\\nhelp\n');
      expect(text).toContain('capture_test_gauge{mosque="Al \\"Noor\\"\\\\East"} 1.5\n');
      expect(text).not.toContain('capture_broken_gauge');
      expect(() => monitoring.registerGauge({ name: 'bad name', help: '', collect: () => [] })).toThrow();
    });

    // Several servers share PostgreSQL only; on SQLite the one server exports everything.
    it.skipIf(!process.env.TEST_DATABASE_URL)(
      'labels the series of each server with its id, and not the fleet gauges, which only one server of a database exports',
      async () => {
        const peer = await createPeerApp(t, { healthCheckIntervalMs: 0 });
        try {
          // Registered in the servers table once listening; one of them (the longest running) exports the fleet gauges.
          await t.app.listen({ port: 0, host: '127.0.0.1' });
          await peer.app.listen({ port: 0, host: '127.0.0.1' });
          const servers = [t, peer];
          // Each registers as it starts listening: scrape once both see both, or each may believe it is alone.
          const ids = servers.map((server) => server.app.ctx.servers.id).sort();
          for (const server of servers) {
            await waitFor(async () => {
              const seen = (await server.app.ctx.servers.live()).map((row) => row.id).filter((id) => ids.includes(id));
              return seen.length === ids.length || undefined;
            }, 'both servers to see each other in the servers table');
          }
          const scrapes = await Promise.all(
            servers.map((server) =>
              server.request({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${METRICS_TOKEN}` } }),
            ),
          );
          const texts = scrapes.map((response) => response.body);
          texts.forEach((text, i) =>
            expect(text).toContain(`capture_websocket_connections{server="${servers[i].app.ctx.servers.id}"} 0`),
          );
          // Each server's own heartbeat: how late its beats land, and whether another server took its lease.
          texts.forEach((text, i) => {
            const server = `server="${servers[i].app.ctx.servers.id}"`;
            expect(text).toMatch(new RegExp(`capture_heartbeat_lateness_seconds\\{${server}\\} [0-9.]+\n`));
            expect(text).toMatch(new RegExp(`capture_heartbeat_lateness_max_seconds\\{${server}\\} [0-9.]+\n`));
            expect(text).toContain(`capture_heartbeat_lease_lost{${server}} 0\n`);
          });
          const fleet = ['capture_instances', 'capture_recordings', 'capture_scheduler_jobs', 'capture_alarms_open'];
          const exporters = texts.map((text) => fleet.filter((name) => text.includes(`# TYPE ${name} gauge`)).length);
          expect([...exporters].sort()).toEqual([0, fleet.length]);
          const exporter = exporters.indexOf(fleet.length);
          expect(
            texts[exporter]
              .split('\n')
              .filter((line) => line.startsWith('capture_alarms_open'))
              .every((line) => !line.includes('server=')),
          ).toBe(true);
          // The exporter stops (for an upgrade): the other server takes the fleet gauges over.
          await servers[exporter].app.ctx.servers.stop();
          const other = servers[1 - exporter];
          expect(
            (
              await other.request({
                method: 'GET',
                url: '/metrics',
                headers: { authorization: `Bearer ${METRICS_TOKEN}` },
              })
            ).body,
          ).toContain('# TYPE capture_alarms_open gauge');
        } finally {
          await peer.close();
        }
      },
    );
  });
});
