import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { buildApp, type App } from '../../../server/app';
import { SessionsRepository } from '../../../server/modules/auth/sessions-repository';
import { createTestApp, type TestApp } from '../helpers/test-app';

const DAY = 24 * 3600 * 1000;

/** Signed-in requests are checked from memory; every way a session ends still ends it at once. */
describe('sessions held in memory', () => {
  let t: TestApp;
  let second: App | undefined;
  let sessionReads: ReturnType<typeof vi.spyOn>;

  beforeEach(async () => {
    sessionReads = vi.spyOn(SessionsRepository.prototype, 'findWithUser');
    t = await createTestApp();
  });
  afterEach(async () => {
    await second?.close();
    second = undefined;
    await t.close();
  });

  const verify = (token: string, app: App = t.app) =>
    app.inject({ method: 'GET', url: '/api/auth/verify-token', headers: { authorization: `Bearer ${token}` } });

  it('reads a session from the database once, then answers from memory', async () => {
    const token = await t.login();
    sessionReads.mockClear();
    for (let i = 0; i < 5; i++) expect((await verify(token)).statusCode).toBe(200);
    expect(sessionReads).toHaveBeenCalledTimes(1);
  });

  it('answers from memory alone only for a token verified before and a session confirmed within the second', async () => {
    const { sessions } = t.app.ctx;
    const token = await t.login();
    expect(sessions.rememberedSession(token)).toBeUndefined();
    expect((await verify(token)).statusCode).toBe(200);
    expect(sessions.rememberedSession(token)).toMatchObject({ user: { username: 'admin' } });
    // A second later another server may have revoked it: the next request asks the database's counter.
    t.clock.advance(1000);
    expect(sessions.rememberedSession(token)).toBeUndefined();
    expect((await verify(token)).statusCode).toBe(200);
    expect(sessions.rememberedSession(token)).toBeDefined();
    // Activity to record (a minute on) is written by the full check.
    t.clock.advance(60_000);
    expect(sessions.rememberedSession(token)).toBeUndefined();
    expect((await verify(token)).statusCode).toBe(200);
    await t.request({ method: 'POST', url: '/api/auth/logout', token });
    expect(sessions.rememberedSession(token)).toBeUndefined();
    expect((await verify(token)).statusCode).toBe(401);
  });

  it('ends a remembered session at once on logout, password change, deactivation and demotion', async () => {
    const admin = await t.login();
    const user = await t.createUser({ username: 'operator', is_superuser: true });
    const otherOfUser = await t.login('operator', 'User-pass-1');
    for (const token of [admin, user.token, otherOfUser]) expect((await verify(token)).statusCode).toBe(200);
    const listUsers = (token: string) => t.request({ method: 'GET', url: '/api/auth/users', token });
    expect((await listUsers(user.token)).statusCode).toBe(200);

    // Demotion: the remembered superuser flag is not trusted after the change.
    await t.request({
      method: 'PUT',
      url: `/api/auth/users/${user.id}`,
      token: admin,
      payload: { is_superuser: false },
    });
    expect((await listUsers(user.token)).statusCode).toBe(403);

    // Password change: the other sessions of the user end, this one lives.
    const changed = await t.request({
      method: 'POST',
      url: '/api/auth/change-password',
      token: user.token,
      payload: { current_password: 'User-pass-1', new_password: 'User-pass-2-longer' },
    });
    expect(changed.statusCode).toBe(200);
    expect((await verify(otherOfUser)).statusCode).toBe(401);
    expect((await verify(user.token)).statusCode).toBe(200);

    // Deactivation by the admin ends it.
    await t.request({ method: 'PUT', url: `/api/auth/users/${user.id}`, token: admin, payload: { is_active: false } });
    expect((await verify(user.token)).statusCode).toBe(401);

    // Logout ends the admin's own.
    expect((await t.request({ method: 'POST', url: '/api/auth/logout', token: admin })).statusCode).toBe(200);
    expect((await verify(admin)).statusCode).toBe(401);
  });

  it('ends a remembered session idle for 24 hours', async () => {
    const token = await t.login();
    expect((await verify(token)).statusCode).toBe(200);
    t.clock.advance(DAY - 1);
    expect((await verify(token, t.app)).statusCode).toBe(200);
    t.clock.advance(DAY);
    expect((await verify(token)).statusCode).toBe(401);
  });

  it('ends a session on a second server on the same database within a second', async () => {
    second = await buildApp(t.config, { logger: false, clock: t.clock });
    await second.ready();
    const token = await t.login();
    const kept = await t.login();
    expect((await verify(token, second)).statusCode).toBe(200);
    expect((await verify(kept, second)).statusCode).toBe(200);

    expect((await t.request({ method: 'POST', url: '/api/auth/logout', token })).statusCode).toBe(200);
    expect((await verify(token)).statusCode).toBe(401);
    t.clock.advance(1000);
    expect((await verify(token, second)).statusCode).toBe(401);
    expect((await verify(kept, second)).statusCode).toBe(200);
  });
});
