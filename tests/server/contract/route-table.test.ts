import type { RouteOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { endpointLabel } from '../../../contract/endpoint';
import { allEndpoints } from '../../../contract/routes';
import { createTestApp, type TestApp } from '../helpers/test-app';

/**
 * Routes that are no calls of the console: the live socket, Prometheus' scrape, the demo stream's files,
 * and the signed server-to-server calls of several servers on one database (tests/server/servers).
 */
const NOT_CONSOLE_CALLS = [
  'GET /ws',
  'GET /metrics',
  'GET /demo/:file',
  'GET /internal/instances/:id/logs',
  'GET /internal/recordings/:id/media',
  'POST /internal/instances/terminate',
  'POST /internal/recordings/:id/delete',
];

describe('route table (contract/routes) and the routes the server registers', () => {
  let t: TestApp;
  const routes: RouteOptions[] = [];

  beforeAll(async () => {
    // With a metrics token, as in production, so Prometheus' route is there too.
    t = await createTestApp({
      env: { METRICS_TOKEN: 'metrics-token-for-the-table-0001' },
      build: { onRoute: (route) => routes.push(route), healthCheckIntervalMs: 0 },
    });
  });
  afterAll(() => t.close());

  /** One label per method; HEAD is Fastify's automatic twin of every GET. */
  function registered(): Map<string, RouteOptions> {
    const byLabel = new Map<string, RouteOptions>();
    for (const route of routes) {
      for (const method of [route.method].flat()) {
        if (method === 'HEAD') continue;
        byLabel.set(endpointLabel({ method: method as 'GET', path: route.url }), route);
      }
    }
    return byLabel;
  }

  it('registers every declared endpoint from its declaration, with its access and schemas', () => {
    const byLabel = registered();
    const missing = allEndpoints.map(endpointLabel).filter((label) => !byLabel.has(label));
    expect(missing, 'declared in contract/routes but not registered by the server').toEqual([]);
    for (const declaration of allEndpoints) {
      const route = byLabel.get(endpointLabel(declaration));
      expect(route?.config?.endpoint, `${endpointLabel(declaration)} is registered by hand, not from the table`).toBe(
        declaration,
      );
      expect(route?.config?.access).toBe(declaration.access);
      expect(route?.schema?.body).toBe(declaration.body);
      expect(route?.schema?.params).toBe(declaration.params);
      expect(route?.schema?.querystring).toBe(declaration.query);
    }
  });

  it('registers no route that the table does not declare, beyond the reviewed list', () => {
    const declared = new Set(allEndpoints.map(endpointLabel));
    const undeclared = [...registered().keys()].filter((label) => !declared.has(label));
    expect(undeclared.sort()).toEqual([...NOT_CONSOLE_CALLS].sort());
  });

  it('declares each endpoint once', () => {
    const labels = allEndpoints.map(endpointLabel);
    expect(labels.filter((label, index) => labels.indexOf(label) !== index)).toEqual([]);
  });
});
