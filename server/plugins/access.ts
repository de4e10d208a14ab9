import type { FastifyContextConfig, FastifyRequest } from 'fastify';
import type { Access, AppInstance, AuthenticatedSession } from '../lib/fastify';
import { addRouteHook } from '../lib/route-hooks';
import { forbidden, unauthorized } from '../lib/http-error';
import { fromFlag } from '../db';
import { isDatabaseDown } from './errors';

export function bearerToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  const match = header ? /^Bearer\s+(\S+)$/i.exec(header) : null;
  return match?.[1];
}

/** What access control asks of the sessions: the auth module's SessionService gives it (plugins never import a module). */
export interface SessionAuthority {
  authenticate(token: string): Promise<AuthenticatedSession | undefined>;
  hasValidSignature(token: string): Promise<boolean>;
  rememberedSession(token: string): AuthenticatedSession | undefined;
}

/** The rule a route declares: its route-table declaration's, else its own config's (routes outside the table). */
function accessOf(config: FastifyContextConfig | undefined): Access | undefined {
  return config?.endpoint?.access ?? config?.access;
}

/**
 * Enforces each route's declared access before its body is even read, and refuses to register an
 * /api route that declares none, so a new route cannot ship without a rule.
 */
export function registerAccessControl(app: AppInstance, sessions: SessionAuthority): void {
  app.decorateRequest('auth', null);

  const authorize = async (
    request: FastifyRequest,
    access: Exclude<Access, 'public'>,
    answersDuringDatabaseOutage: boolean,
  ) => {
    const token = bearerToken(request);
    if (!token && access === 'session-or-link') return;
    if (!token) throw unauthorized('Not authenticated');
    let session: AuthenticatedSession | undefined;
    try {
      session = await sessions.authenticate(token);
    } catch (error) {
      if (isDatabaseDown(error) && answersDuringDatabaseOutage && (await sessions.hasValidSignature(token))) return;
      throw error;
    }
    if (!session) throw unauthorized('Session expired or invalid');
    if (access === 'superuser' && !fromFlag(session.user.is_superuser)) {
      throw forbidden('Only a superuser may do this');
    }
    request.auth = session;
  };

  app.addHook('onRoute', (route) => {
    const access = accessOf(route.config);
    if (route.url.startsWith('/api') && !access) {
      throw new Error(`Route ${route.method} ${route.url} declares no access rule`);
    }
    if (!access || access === 'public') return;
    const answersDuringDatabaseOutage = route.config?.answersDuringDatabaseOutage === true;
    addRouteHook(route, 'onRequest', (request, _reply, done) => {
      // Most signed-in requests are decided from memory: then without a promise (about a tenth of a
      // cached answer's cost). Anything else, a refusal included, goes the full way.
      const token = bearerToken(request);
      const remembered = token ? sessions.rememberedSession(token) : undefined;
      if (remembered && (access !== 'superuser' || fromFlag(remembered.user.is_superuser))) {
        request.auth = remembered;
        return done();
      }
      authorize(request, access, answersDuringDatabaseOutage).then(() => done(), done);
    });
  });
}
