import crypto from 'node:crypto';
import {
  recordingStatsResponseSchema,
  systemHealthResponseSchema,
  systemMetricsResponseSchema,
} from '../../../contract/monitoring';
import type { AppInstance } from '../../lib/fastify';
import { HttpError } from '../../lib/http-error';
import { bearerToken } from '../../plugins/access';
import { PROMETHEUS_CONTENT_TYPE } from './prometheus';
import type { MonitoringService } from './service';

/** Measures every /api request once its response is sent (the console's figures and /metrics). */
export function registerRequestMetrics(app: AppInstance, monitoring: MonitoringService): void {
  // Callback style: no promise per request on the hot path.
  app.addHook('onResponse', (request, reply, done) => {
    if (request.url.startsWith('/api/') || request.url === '/api') {
      monitoring.recordRequest(reply.elapsedTime, {
        method: request.method,
        route: request.routeOptions.url ?? 'unmatched',
        status_code: String(reply.statusCode),
      });
    }
    done();
  });
}

const digest = (text: string) => crypto.createHash('sha256').update(text, 'utf8').digest();

export function registerMonitoringRoutes(app: AppInstance, deps: { monitoring: MonitoringService; metricsToken: string | undefined }): void {
  const { monitoring, metricsToken } = deps;

  // A health report that failed with the database would hide the one thing it must tell: the database is down.
  app.get('/api/monitoring/system', { config: { access: 'session', answersDuringDatabaseOutage: true }, schema: { response: { 200: systemHealthResponseSchema } } }, async () => ({
    success: true as const,
    data: await monitoring.system(),
  }));

  app.get('/api/monitoring/metrics', { config: { access: 'session' }, schema: { response: { 200: systemMetricsResponseSchema } } }, async () => ({
    success: true as const,
    data: await monitoring.metrics(),
  }));

  app.get(
    '/api/monitoring/recordings',
    { config: { access: 'session' }, schema: { response: { 200: recordingStatsResponseSchema } } },
    async () => ({ success: true as const, data: await monitoring.recordings() }),
  );

  // Prometheus scrape endpoint: absent (404) unless METRICS_TOKEN is set; then that bearer token is required.
  if (!metricsToken) return;
  const expected = digest(metricsToken);
  app.get('/metrics', { config: { access: 'public' } }, async (request, reply) => {
    const given = bearerToken(request);
    // Compared as fixed-length digests in constant time, so neither content nor length leaks.
    if (!given || !crypto.timingSafeEqual(digest(given), expected)) {
      throw new HttpError(401, 'A valid metrics token is required', { 'www-authenticate': 'Bearer realm="metrics"' });
    }
    return reply.type(PROMETHEUS_CONTENT_TYPE).send(await monitoring.prometheus());
  });
}
