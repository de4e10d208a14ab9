import { afterAll, describe, expect, it } from 'vitest';
import { startTemporaryPostgres, type TemporaryPostgres } from '../../testkit/postgres';
import { createPostgresDatabase } from '../../testkit/test-database';
import { spawnServer, temporaryDir, type ServerProcess } from './support/server';
import { waitFor } from '../../testkit/wait';

const DOWN = 'The database is unavailable right now; try again shortly';

/**
 * The real server on PostgreSQL, with PostgreSQL stopped under it: every call answers 503 with one
 * clear sentence (sign-in included: never "wrong password"), the process stays up while its background
 * loops fail, and once PostgreSQL is back the same session works again without a restart.
 */
describe('database unavailable, then back', () => {
  const dataDir = temporaryDir('pgdown');
  let cluster: TemporaryPostgres | undefined;
  let server: ServerProcess | undefined;

  afterAll(async () => {
    await server?.kill('SIGKILL');
    cluster?.destroy();
  });

  it('answers 503 while PostgreSQL is down and recovers without a restart', async () => {
    cluster = await startTemporaryPostgres();
    const database = await createPostgresDatabase(cluster.adminUrl);
    server = await spawnServer({ dataDir, env: { DATABASE_URL: database.url } });
    const api = server;
    const token = await api.login();
    const created = await api.request<{ data: { mosque_id: string } }>('POST', '/api/config/mosques', {
      token,
      body: { name: 'Before the outage', languages: ['ar'] },
    });
    expect(created.status).toBe(201);

    cluster.stop();
    // A checked session is trusted from memory for up to a second; after that its check needs the database
    // too. Waited for on verify-token, which needs nothing else: a route that reads the database answers 503
    // while the session is still trusted, and verify-token then still answered 200.
    await waitFor(
      async () => (await api.request('GET', '/api/auth/verify-token', { token })).status === 503,
      'the session check to need the database',
      10_000,
      100,
    );
    const calls: [string, string, unknown?][] = [
      ['GET', '/api/config/mosques'],
      ['POST', '/api/config/mosques', { name: 'During the outage', languages: ['ar'] }],
      ['GET', '/api/instances/'],
      ['GET', '/api/scheduler/upcoming'],
      ['GET', '/api/auth/verify-token'],
    ];
    for (const [method, url, body] of calls) {
      const response = await api.request(method, url, { token, body });
      expect(response.status, `${method} ${url}: ${response.text}`).toBe(503);
      expect(response.body).toEqual({ success: false, detail: DOWN, error: DOWN });
    }
    // Health still answers, and says so (its report is at most 10 s old).
    const health = await waitFor(
      async () => {
        const response = await api.request<{ data: { overall_status: string; failing: string[] } }>(
          'GET',
          '/api/monitoring/system',
          { token },
        );
        expect(response.status, response.text).toBe(200);
        return response.body.data.overall_status === 'down' ? response : undefined;
      },
      'health to report the database down',
      30_000,
      1000,
    );
    expect(health.body.data.failing).toContain('database');
    expect((await api.request('GET', '/api/monitoring/system', { token: `${token}x` })).status).toBe(401);
    const login = await api.request('POST', '/api/auth/login', {
      body: { username: 'admin', password: 'Fault-admin-pass-1' },
    });
    expect(login.status).toBe(503);
    expect(login.body).toMatchObject({ detail: DOWN });

    // Its loops (reconcile, scheduler, health) keep failing meanwhile: the process must not die of it.
    // Health has failed already (above); the process is checked once the reconcile loop has failed too.
    await waitFor(() => api.output().includes('capture reconcile failed'), 'the reconcile loop to fail', 20_000, 100);
    expect(api.running(), api.output()).toBe(true);
    expect((await api.request('GET', '/api/config/mosques', { token })).status).toBe(503);

    cluster.start();
    const listed = await waitFor(
      async () => {
        const response = await api.request<{ data: { mosques: { name: string }[] } }>('GET', '/api/config/mosques', {
          token,
          timeoutMs: 10_000,
        });
        return response.status === 200 ? response : undefined;
      },
      'the API to answer again',
      30_000,
      500,
    );
    expect(listed.body.data.mosques.map((m) => m.name)).toEqual(['Before the outage']);
    const after = await api.request('POST', '/api/config/mosques', {
      token,
      body: { name: 'After the outage', languages: ['ar'] },
    });
    expect(after.status).toBe(201);
    expect((await api.login()).length).toBeGreaterThan(20);
    expect(api.running()).toBe(true);

    await api.stop();
    server = undefined;
    await database.drop();
  });
});
