import type { HTTPMethods, RouteOptions } from 'fastify';
import type { Access } from '../../../server/lib/fastify';

/** One method of one registered route, as the authorization matrix sees it. */
export interface RouteEntry {
  method: HTTPMethods;
  url: string;
  /** The declared rule; undefined when the route declares none (which the matrix treats as a failure). */
  access: Access | undefined;
  hasBody: boolean;
  websocket: boolean;
}

const ACCESS_VALUES: readonly string[] = ['public', 'session', 'superuser', 'session-or-link'] satisfies Access[];

/** Flattens what Fastify's onRoute hook reported into one entry per method, in registration order. */
export function routeEntries(routes: RouteOptions[]): RouteEntry[] {
  const entries: RouteEntry[] = [];
  for (const route of routes) {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    const declared = (route.config as { access?: unknown } | undefined)?.access;
    for (const method of methods) {
      entries.push({
        method: method.toUpperCase() as HTTPMethods,
        url: route.url,
        access: typeof declared === 'string' && ACCESS_VALUES.includes(declared) ? (declared as Access) : undefined,
        hasBody: Boolean((route.schema as { body?: unknown } | undefined)?.body),
        websocket: Boolean((route as { wsHandler?: unknown }).wsHandler),
      });
    }
  }
  return entries;
}

/**
 * A concrete URL for a route pattern: every parameter becomes an id that cannot exist, so a handler the
 * access layer lets through answers 400 or 404 and nothing real is touched.
 */
export function concreteUrl(pattern: string): string {
  return pattern.replace(/:[A-Za-z0-9_]+/g, '999999').replace(/\*$/, 'no-such-file');
}

export const label = (entry: Pick<RouteEntry, 'method' | 'url'>) => `${entry.method} ${entry.url}`;
