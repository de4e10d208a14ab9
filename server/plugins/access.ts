import type { FastifyRequest } from 'fastify';
import type { AppInstance } from '../lib/fastify';
import { forbidden, unauthorized } from '../lib/http-error';
import { fromFlag } from '../db';
import type { SessionService } from '../modules/auth/session-service';

export function bearerToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  const match = header ? /^Bearer\s+(\S+)$/i.exec(header) : null;
  return match?.[1];
}

/**
 * Enforces each route's declared access before its body is even read, and refuses to register an
 * /api route that declares none, so a new route cannot ship without a rule.
 */
export function registerAccessControl(app: AppInstance, sessions: SessionService): void {
  app.decorateRequest('auth', null);
  app.addHook('onRoute', (route) => {
    if (route.url.startsWith('/api') && !route.config?.access) {
      throw new Error(`Route ${route.method} ${route.url} declares no access rule`);
    }
  });
  app.addHook('onRequest', async (request) => {
    const access = request.routeOptions.config?.access;
    if (!access || access === 'public') return;
    const token = bearerToken(request);
    if (!token && access === 'session-or-link') return;
    if (!token) throw unauthorized('Not authenticated');
    const session = await sessions.authenticate(token);
    if (!session) throw unauthorized('Session expired or invalid');
    if (access === 'superuser' && !fromFlag(session.user.is_superuser)) {
      throw forbidden('Only a superuser may do this');
    }
    request.auth = session;
  });
}
