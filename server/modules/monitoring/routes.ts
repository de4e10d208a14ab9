import crypto from 'node:crypto';
import { monitoringRoutes } from '../../../contract/routes/monitoring';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppInstance } from '../../lib/fastify';
import { addRouteHook } from '../../lib/route-hooks';
import { handle } from '../../lib/route-table';
import { HttpError } from '../../lib/http-error';
import { bearerToken } from '../../plugins/access';
import { PROMETHEUS_CONTENT_TYPE } from './prometheus';
import type { MonitoringService } from './service';

const isApiPath = (url: string) => url === '/api' || url.startsWith('/api/');

/**
 * Measures every /api request once its response is sent (the console's figures and /metrics): each
 * /api route gets its own hook with its label, and other routes (the console's files) none.
 */
export function registerRequestMetrics(app: AppInstance, monitoring: MonitoringService): void {
  app.addHook('onRoute', (route) => {
    if (!isApiPath(route.url)) return;
    const record = monitoring.routeRecorder(route.url);
    addRouteHook(route, 'onResponse', (request, reply, done) => {
      record(request.method, reply.statusCode, reply.elapsedTime);
      done();
    });
  });
}

/** Measures each /api request that matched no route (so no route hook measures it), as it is answered. */
export function unmatchedRequestRecorder(
  monitoring: MonitoringService,
): (request: FastifyRequest, reply: FastifyReply) => void {
  const record = monitoring.routeRecorder('unmatched');
  return (request, reply) => record(request.method, reply.statusCode, reply.elapsedTime);
}

const digest = (text: string) => crypto.createHash('sha256').update(text, 'utf8').digest();

export function registerMonitoringRoutes(
  app: AppInstance,
  deps: { monitoring: MonitoringService; metricsToken: string | undefined },
): void {
  const { monitoring, metricsToken } = deps;

  handle(app, monitoringRoutes.system, async () => ({ success: true as const, data: await monitoring.system() }));
  handle(app, monitoringRoutes.metrics, async () => ({ success: true as const, data: await monitoring.metrics() }));
  handle(app, monitoringRoutes.recordings, async () => ({
    success: true as const,
    data: await monitoring.recordings(),
  }));

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
