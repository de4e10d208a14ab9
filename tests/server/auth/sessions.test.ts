import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/test-app';

const DAY = 24 * 3600 * 1000;

describe('session lifetime', () => {
  let t: TestApp;
  beforeEach(async () => {
    t = await createTestApp();
  });
  afterEach(() => t.close());

  const verify = (token: string) => t.request({ method: 'GET', url: '/api/auth/verify-token', token });

  it('logout revokes the session: the same token is then refused, other sessions live on', async () => {
    const token = await t.login();
    const other = await t.login();
    const out = await t.request({ method: 'POST', url: '/api/auth/logout', token });
    expect(out.statusCode).toBe(200);
    expect(out.json()).toMatchObject({ success: true });
    expect((await verify(token)).statusCode).toBe(401);
    expect((await t.request({ method: 'POST', url: '/api/auth/logout', token })).statusCode).toBe(401);
    expect((await verify(other)).statusCode).toBe(200);
  });

  it('keeps a session used within 24 h and refuses one idle for exactly 24 h', async () => {
    const early = await t.login();
    const late = await t.login();
    t.clock.advance(DAY - 1000);
    expect((await verify(early)).statusCode).toBe(200);
    t.clock.advance(1000);
    expect((await verify(late)).statusCode).toBe(401);
    // The first one was active a second ago, so it is still alive.
    expect((await verify(early)).statusCode).toBe(200);
  });

  it('counts each use as activity, so a session used daily lives on', async () => {
    const token = await t.login();
    for (let day = 0; day < 3; day++) {
      t.clock.advance(DAY - 60_000);
      expect((await verify(token)).statusCode).toBe(200);
    }
    t.clock.advance(DAY);
    expect((await verify(token)).statusCode).toBe(401);
  });

  it('ends an idle session for good once it is found idle', async () => {
    const token = await t.login();
    t.clock.advance(DAY);
    expect((await verify(token)).statusCode).toBe(401);
    t.clock.advance(-DAY / 2); // a server whose clock lags must not revive it
    expect((await verify(token)).statusCode).toBe(401);
  });
});
