import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ADMIN, createPeerApp, createTestApp, type TestApp } from '../helpers/test-app';

const WINDOW_MS = 5 * 60 * 1000;

describe('failed sign-in limits', () => {
  let t: TestApp;
  beforeEach(async () => {
    t = await createTestApp();
  });
  afterEach(() => t.close());

  const login = (username: string, password: string, remoteAddress: string) =>
    t.request({ method: 'POST', url: '/api/auth/login', payload: { username, password }, remoteAddress });

  it('blocks a username from an address after 5 failures in 5 minutes, even with the right password, until the window passes', async () => {
    for (let i = 0; i < 5; i++) {
      t.clock.advance(10_000);
      // Any case of the name counts.
      expect((await login(i % 2 ? 'ADMIN' : 'admin', 'Wrong-pass-1', '10.0.1.1')).statusCode).toBe(401);
    }
    // Another address is not affected: failures elsewhere never lock the account itself.
    expect((await login('admin', ADMIN.password, '10.0.1.99')).statusCode).toBe(200);
    const blocked = await login('admin', ADMIN.password, '10.0.1.1');
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json()).toMatchObject({
      success: false,
      detail: expect.stringMatching(/Too many failed sign-in attempts\. Try again in \d+ minutes?\./),
    });
    const retryAfter = Number(blocked.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(WINDOW_MS / 1000);

    // The first failure leaves the window after 5 minutes minus the 40 s that passed since it.
    t.clock.advance(retryAfter * 1000 - 2000);
    expect((await login('admin', ADMIN.password, '10.0.1.1')).statusCode).toBe(429);
    t.clock.advance(2000);
    expect((await login('admin', ADMIN.password, '10.0.1.1')).statusCode).toBe(200);
  });

  it('does not block other usernames', async () => {
    await t.createUser({ username: 'other', password: 'Other-pass-1' });
    for (let i = 0; i < 6; i++) await login('admin', 'Wrong-pass-1', '10.0.2.1');
    expect((await login('other', 'Other-pass-1', '10.0.2.1')).statusCode).toBe(200);
  });

  it('counts failures that arrive at the same time', async () => {
    const attempts = await Promise.all(Array.from({ length: 8 }, () => login('admin', 'Wrong-pass-1', '10.0.3.1')));
    expect(attempts.map((r) => r.statusCode).filter((s) => s === 401)).toHaveLength(5);
    expect((await login('admin', ADMIN.password, '10.0.3.1')).statusCode).toBe(429);
  });

  it('blocks an address that tries many usernames, then lifts after the window', async () => {
    let status = 401;
    let tries = 0;
    while (status === 401 && tries < 50) {
      status = (await login(`guess${tries++}`, 'Wrong-pass-1', '10.0.4.1')).statusCode;
    }
    expect(status).toBe(429);
    expect(tries).toBeLessThanOrEqual(30);
    expect((await login('admin', ADMIN.password, '10.0.4.1')).statusCode).toBe(429);
    expect((await login('admin', ADMIN.password, '10.0.4.2')).statusCode).toBe(200);
    t.clock.advance(WINDOW_MS);
    expect((await login('admin', ADMIN.password, '10.0.4.1')).statusCode).toBe(200);
  });

  it('counts failures on every server sharing the database: 5 in total lock the name out on all of them', async () => {
    const peers = [t, await createPeerApp(t), await createPeerApp(t)];
    try {
      const on = (server: TestApp, password: string) =>
        server.request({
          method: 'POST',
          url: '/api/auth/login',
          payload: { username: 'admin', password },
          remoteAddress: '10.0.5.1',
        });
      // Failures spread round-robin over three servers, some of them at the same moment.
      const statuses = [
        ...(await Promise.all([
          on(peers[0], 'Wrong-pass-1'),
          on(peers[1], 'Wrong-pass-1'),
          on(peers[2], 'Wrong-pass-1'),
        ])),
        await on(peers[0], 'Wrong-pass-1'),
        await on(peers[1], 'Wrong-pass-1'),
      ].map((r) => r.statusCode);
      expect(statuses).toEqual([401, 401, 401, 401, 401]);
      for (const server of peers) expect((await on(server, ADMIN.password)).statusCode).toBe(429);
      // A success elsewhere (another address) clears nothing here, and lifting waits for the window on every server.
      t.clock.advance(WINDOW_MS);
      expect((await on(peers[2], ADMIN.password)).statusCode).toBe(200);
    } finally {
      await Promise.all(peers.slice(1).map((peer) => peer.close()));
    }
  });
});
