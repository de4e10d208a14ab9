import type { RouteOptions } from 'fastify';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorBodySchema } from '../../../contract/common';
import { LIVE_CLOSE_UNAUTHORIZED } from '../../../contract/live';
import type { AppInstance } from '../../../server/lib/fastify';
import type { SessionService } from '../../../server/modules/auth/session-service';
import { registerAccessControl } from '../../../server/plugins/access';
import { ADMIN, createTestApp, type TestApp } from '../helpers/test-app';
import { connect, connectAs, listen } from '../live/live-client';
import { concreteUrl, label, routeEntries, type RouteEntry } from './routes';

const METRICS_TOKEN = 'metrics-token-for-the-matrix-0001';

/**
 * Routes that are public to the session layer but guarded by something else, with what that guard
 * answers to each caller. Anything listed here is a deliberate, reviewed exception.
 */
const OWN_GUARD: Record<string, { status: number; detail: string }> = {
  // Prometheus scrapes with METRICS_TOKEN, not with a console session (docs/reference.md, section 7, Monitoring).
  'GET /metrics': { status: 401, detail: 'A valid metrics token is required' },
  'HEAD /metrics': { status: 401, detail: '' },
  // Calls between servers sharing the database carry a signature made with the shared SECRET_KEY (docs/architecture.md, "Several servers").
  'POST /internal/instances/terminate': { status: 401, detail: 'A valid internal signature is required' },
  'GET /internal/instances/:id/logs': { status: 401, detail: 'A valid internal signature is required' },
  'HEAD /internal/instances/:id/logs': { status: 401, detail: '' },
  'GET /internal/recordings/:id/media': { status: 401, detail: 'A valid internal signature is required' },
  'HEAD /internal/recordings/:id/media': { status: 401, detail: '' },
  'POST /internal/recordings/:id/delete': { status: 401, detail: 'A valid internal signature is required' },
};

type Caller = 'anonymous' | 'user' | 'superuser';

/** What each caller must get, from the route's declared access. */
function expectation(entry: RouteEntry, caller: Caller): { status?: number; notStatus?: number[]; detail?: string } {
  const guard = OWN_GUARD[label(entry)];
  if (guard) return { status: guard.status };
  if (entry.access === 'public') return { notStatus: [401, 403] };
  if (caller === 'anonymous') return { status: 401, detail: 'Not authenticated' };
  if (entry.access === 'superuser' && caller === 'user') return { status: 403, detail: 'Only a superuser may do this' };
  return { notStatus: [401, 403] };
}

describe('authorization matrix: every registered route x {no token, user, superuser}', () => {
  let t: TestApp;
  const routes: RouteOptions[] = [];
  let entries: RouteEntry[];
  const tokens: Partial<Record<Caller, string>> = {};
  const credentials: Record<Exclude<Caller, 'anonymous'>, [string, string]> = {
    user: ['matrix-user', 'Matrix-user-1'],
    superuser: [ADMIN.username, ADMIN.password],
  };

  beforeAll(async () => {
    t = await createTestApp({
      // GitHub on a closed port: nothing in the matrix may reach the network.
      env: { METRICS_TOKEN, GITHUB_API_URL: 'http://127.0.0.1:9' },
      build: { onRoute: (route) => routes.push(route), healthCheckIntervalMs: 0 },
    });
    await t.createUser({ username: credentials.user[0], password: credentials.user[1], role: 'admin' });
    entries = routeEntries(routes);
  });
  afterAll(() => t.close());

  /** A live token for the caller; a route that ended the session (logout) gets a new one next time. */
  async function tokenOf(caller: Caller): Promise<string | undefined> {
    if (caller === 'anonymous') return undefined;
    const known = tokens[caller];
    if (known && (await t.app.ctx.sessions.authenticate(known))) return known;
    tokens[caller] = await t.login(...credentials[caller]);
    return tokens[caller];
  }

  it('sees the whole route table, and every route declares an access rule', () => {
    expect(entries.length).toBeGreaterThan(40);
    const labels = entries.map(label);
    for (const known of [
      'POST /api/auth/login',
      'GET /api/auth/users',
      'PUT /api/auth/users/:id',
      'POST /api/instances/terminate-all',
      'DELETE /api/config/mosques/:mosque_id',
      'POST /api/scheduler/cancel/:job_id',
      'GET /api/recordings/:id/file',
      'DELETE /api/ami/:ami_id',
      'POST /api/github/configure',
      'GET /api/monitoring/system',
      'GET /ws',
      'GET /metrics',
    ]) {
      expect(labels).toContain(known);
    }
    const withoutRule = entries.filter((entry) => !entry.access).map(label);
    expect(withoutRule, 'routes without config.access').toEqual([]);
    const publicApi = entries.filter((e) => e.access === 'public' && e.url.startsWith('/api')).map(label);
    // docs/architecture.md: every /api route but login needs a live session; user management needs a superuser
    // (and so does saving repository access). Loosening any of these must be a deliberate edit here.
    // The login page's first-run hint answers only whether the password file exists (tests/server/auth/first-run.test.ts).
    expect(publicApi).toEqual(['GET /api/auth/first-run', 'HEAD /api/auth/first-run', 'POST /api/auth/login']);
    const superuserOnly = entries
      .filter((e) => e.access === 'superuser' && e.method !== 'HEAD')
      .map(label)
      .sort();
    expect(superuserOnly).toEqual(
      [
        'GET /api/auth/users',
        'POST /api/auth/users',
        'PUT /api/auth/users/:id',
        'POST /api/auth/register',
        'POST /api/github/configure',
        'DELETE /api/recordings/:id',
        'POST /api/recordings/bulk-delete',
      ].sort(),
    );
    // A <video> element cannot send a bearer header: media also opens with a signed link (tested in recordings/library).
    const sessionOrLink = entries.filter((e) => e.access === 'session-or-link').map(label);
    expect(sessionOrLink).toEqual(['GET /api/recordings/:id/media', 'HEAD /api/recordings/:id/media']);
  });

  it('refuses to register an /api route that declares no access rule', async () => {
    const bare = Fastify({ logger: false }) as unknown as AppInstance;
    registerAccessControl(bare, { authenticate: async () => undefined } as unknown as SessionService);
    let failure: unknown;
    try {
      bare.get('/api/forgotten', async () => ({ ok: true }));
      await bare.ready();
    } catch (error) {
      failure = error;
    }
    expect(String(failure)).toMatch(/GET \/api\/forgotten declares no access rule/);
    await bare.close().catch(() => undefined);
  });

  for (const caller of ['anonymous', 'user', 'superuser'] as const) {
    it(`answers ${caller} callers as each route's rule says`, async () => {
      const failures: string[] = [];
      for (const entry of entries) {
        const token = await tokenOf(caller);
        const bodyless =
          entry.method === 'GET' || entry.method === 'HEAD' || entry.method === 'DELETE' || entry.method === 'OPTIONS';
        const response = await t.request({
          method: entry.method,
          url: concreteUrl(entry.url),
          token,
          // Empty bodies: a 400 still proves the access layer let the call through, and nothing runs for real.
          ...(bodyless ? {} : { payload: {} }),
        });
        const want = expectation(entry, caller);
        const where = `${caller} ${label(entry)} -> ${response.statusCode} ${response.body.slice(0, 160)}`;
        if (want.status !== undefined && response.statusCode !== want.status)
          failures.push(`${where} (expected ${want.status})`);
        if (want.notStatus?.includes(response.statusCode))
          failures.push(`${where} (expected not ${want.notStatus.join('/')})`);
        if (response.statusCode >= 500) failures.push(`${where} (server error on a harmless call)`);
        if (want.detail && entry.method !== 'HEAD') {
          const parsed = errorBodySchema.safeParse(response.json());
          if (!parsed.success || parsed.data.detail !== want.detail)
            failures.push(`${where} (expected detail "${want.detail}")`);
        }
      }
      expect(failures).toEqual([]);
    });
  }

  it('serves /metrics only with the metrics token, not with a session', async () => {
    const session = await tokenOf('superuser');
    expect((await t.request({ method: 'GET', url: '/metrics', token: session })).statusCode).toBe(401);
    const scraped = await t.request({ method: 'GET', url: '/metrics', token: METRICS_TOKEN });
    expect(scraped.statusCode).toBe(200);
    expect(scraped.body).toContain('capture_instances');
  });

  it('lets /ws deliver nothing until the first message carries a live token', async () => {
    const url = await listen(t.app);
    const anonymous = await connect(url);
    anonymous.send({ action: 'ping' });
    expect(await anonymous.closed).toMatchObject({ code: LIVE_CLOSE_UNAUTHORIZED });
    expect(anonymous.received).toEqual([]);
    for (const caller of ['user', 'superuser'] as const) {
      const client = await connectAs(url, (await tokenOf(caller)) as string);
      client.send({ action: 'ping' });
      await client.next('pong');
      await client.close();
    }
  });

  it('did nothing destructive while probing (emergency stop refused, no user created)', async () => {
    const admin = await tokenOf('superuser');
    const users = (await t.request({ method: 'GET', url: '/api/auth/users', token: admin })).json<{
      users: { username: string }[];
    }>().users;
    expect(users.map((u) => u.username).sort()).toEqual([ADMIN.username, credentials.user[0]].sort());
    const stop = await t.request({ method: 'POST', url: '/api/instances/terminate-all', token: admin });
    expect(stop.statusCode).toBe(400);
  });
});
