import type { onRequestHookHandler, onResponseHookHandler, RouteOptions } from 'fastify';

type RouteHooks = { onRequest: onRequestHookHandler; onResponse: onResponseHookHandler };

/**
 * Adds a hook to one route as it is registered (from an onRoute hook), after those the route declares.
 * A hook that needs a route's settings closes over them here: a hook on every route would read them
 * through request.routeOptions, which Fastify builds afresh on every read (about 4% of a cheap answer's CPU).
 */
export function addRouteHook<Name extends keyof RouteHooks>(
  route: RouteOptions,
  name: Name,
  hook: RouteHooks[Name],
): void {
  const declared = route[name] as RouteHooks[Name] | RouteHooks[Name][] | undefined;
  const hooks = declared === undefined ? [] : Array.isArray(declared) ? declared : [declared];
  (route as unknown as Record<Name, RouteHooks[Name][]>)[name] = [...hooks, hook];
}
