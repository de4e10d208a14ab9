import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SessionService } from '../../../server/modules/auth/session-service';
import { SessionsRepository } from '../../../server/modules/auth/sessions-repository';
import { MAX_SOCKETS_PER_SESSION } from '../../../server/modules/live/connection';
import { waitFor } from '../../../testkit/wait';
import { createPeerApp, createTestApp, type TestApp } from '../helpers/test-app';
import { connect, connectAs, hello, listen, type LiveClient } from '../live/live-client';

const DAY_MS = 24 * 3600 * 1000;

/**
 * A live socket lives no longer than its session, whichever way the session ends (24 h idle,
 * ended by another server sharing the database, user deactivated there), and one session cannot
 * hold an unbounded number of sockets.
 */
describe('hostile input: live sockets and their sessions', () => {
  let t: TestApp;
  let url: string;
  const open: LiveClient[] = [];

  beforeEach(async () => {
    t = await createTestApp({ build: { liveSessionCheckMs: 50, healthCheckIntervalMs: 0 } });
    url = await listen(t.app);
  });
  afterEach(async () => {
    await Promise.all(open.splice(0).map((c) => c.close().catch(() => undefined)));
    await t.close();
  });

  const signedIn = async (token: string) => {
    const client = await connectAs(url, token);
    open.push(client);
    await client.next('initial_data');
    return client;
  };

  it('closes with 1008 a socket whose session passed 24 h without activity', async () => {
    const { token } = await t.createUser({ username: 'idle' });
    const client = await signedIn(token);
    t.clock.advance(DAY_MS + 60_000);
    expect(await client.closed).toEqual({ code: 1008, reason: 'Session ended' });
    // And the session is over for HTTP too.
    expect((await t.request({ method: 'GET', url: '/api/auth/verify-token', token })).statusCode).toBe(401);
  });

  it('keeps a socket whose session is in use', async () => {
    const token = await t.login();
    const client = await signedIn(token);
    const verdicts = vi.spyOn(SessionService.prototype, 'isLive');
    t.clock.advance(DAY_MS / 2);
    // The periodic check asked about this session after the clock moved, and acted on its answer before this test sees it.
    const [verdict] = await waitFor(
      () => verdicts.mock.results.length > 0 && verdicts.mock.results,
      'a live session check',
      10_000,
      20,
    );
    expect(await verdict.value).toBe(true);
    client.send({ action: 'ping' });
    await client.next('pong');
  });

  it('closes with 1008 when another server (the database) ends the session or deactivates the user', async () => {
    const revoked = await t.createUser({ username: 'revoked' });
    const deactivated = await t.createUser({ username: 'deactivated' });
    const first = await signedIn(revoked.token);
    const second = await signedIn(deactivated.token);
    const db = t.app.ctx.db.kysely;
    await db
      .updateTable('sessions')
      .set({ revoked_at: t.clock.now().toISOString(), revoked_reason: 'logout' })
      .where('user_id', '=', revoked.id)
      .execute();
    await db.updateTable('users').set({ is_active: 0 }).where('id', '=', deactivated.id).execute();
    // As every server does after ending sessions or changing users: servers drop what they hold in memory.
    await new SessionsRepository(db).bumpGeneration();
    expect((await first.closed).code).toBe(1008);
    expect((await second.closed).code).toBe(1008);
  });

  it(`refuses more than ${MAX_SOCKETS_PER_SESSION} sockets for one session`, async () => {
    const token = await t.login();
    for (let i = 0; i < MAX_SOCKETS_PER_SESSION; i++) await signedIn(token);
    const extra = await connect(url);
    open.push(extra);
    extra.send(hello(token));
    expect(await extra.closed).toMatchObject({
      code: 1008,
      reason: expect.stringMatching(/Too many live connections/),
    });
    // Another session of the same user is not affected.
    await signedIn(await t.login());
  });

  // Servers sharing PostgreSQL count a session's sockets together: behind a load balancer each saw a few.
  it.skipIf(!process.env.TEST_DATABASE_URL)(
    `refuses the ${MAX_SOCKETS_PER_SESSION + 1}th socket of a session across servers, and counts a closed one out`,
    async () => {
      const peer = await createPeerApp(t, { liveSessionCheckMs: 50, healthCheckIntervalMs: 0 });
      try {
        const peerUrl = await listen(peer.app);
        const token = await t.login();
        const urls = [url, peerUrl];
        const sockets: LiveClient[] = [];
        for (let i = 0; i < MAX_SOCKETS_PER_SESSION; i++) {
          const client = await connectAs(urls[i % 2], token);
          open.push(client);
          sockets.push(client);
        }
        for (const target of urls) {
          const extra = await connect(target);
          open.push(extra);
          extra.send(hello(token));
          expect(await extra.closed, target).toMatchObject({
            code: 1008,
            reason: expect.stringMatching(/Too many live connections/),
          });
        }
        // One closed on the first server frees a place on the other.
        await sockets[0].close();
        await waitFor(
          async () =>
            Number(
              (
                await t.app.ctx.db.kysely
                  .selectFrom('live_sockets')
                  .select((eb) => eb.fn.countAll<number>().as('count'))
                  .executeTakeFirstOrThrow()
              ).count,
            ) ===
            MAX_SOCKETS_PER_SESSION - 1,
          'the closed socket to give back its place',
        );
        open.push(await connectAs(peerUrl, token));
      } finally {
        await Promise.all(open.splice(0).map((c) => c.close().catch(() => undefined)));
        await peer.close();
      }
    },
  );
});
