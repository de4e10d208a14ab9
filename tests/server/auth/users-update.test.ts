import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/test-app';

const LAST_SUPERUSER = 'The last active superuser cannot be demoted or deactivated';

describe('PUT /api/auth/users/{id}', () => {
  let t: TestApp;
  let admin: string;
  let adminId: number;
  beforeEach(async () => {
    t = await createTestApp();
    admin = await t.login();
    adminId = (await t.request({ method: 'GET', url: '/api/auth/verify-token', token: admin })).json().user.id;
  });
  afterEach(() => t.close());

  const update = (id: number, payload: object, token = admin) =>
    t.request({ method: 'PUT', url: `/api/auth/users/${id}`, token, payload });
  const verify = (token: string) => t.request({ method: 'GET', url: '/api/auth/verify-token', token });
  const login = (username: string, password: string) =>
    t.request({ method: 'POST', url: '/api/auth/login', payload: { username, password }, remoteAddress: '10.8.0.1' });

  it('edits the fields of the edit form and leaves the username alone', async () => {
    const { id } = await t.createUser({ username: 'erin' });
    const response = await update(id, {
      email: 'erin@new.example',
      full_name: 'Erin Example',
      role: 'admin',
      is_active: true,
      is_superuser: false,
    });
    expect(response.statusCode).toBe(200);
    expect(response.json().data).toMatchObject({
      username: 'erin',
      email: 'erin@new.example',
      full_name: 'Erin Example',
      role: 'admin',
    });
    expect((await update(id, { username: 'renamed' })).statusCode).toBe(400);
    expect((await update(9999, { is_active: false })).statusCode).toBe(404);
  });

  it('refuses to let a superuser deactivate their own account', async () => {
    await t.createUser({ username: 'second', is_superuser: true });
    const response = await update(adminId, { is_active: false });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ success: false, detail: 'Cannot deactivate your own account' });
  });

  it('keeps at least one active superuser, but allows the change once another exists', async () => {
    const demote = await update(adminId, { is_superuser: false });
    expect(demote.statusCode).toBe(409);
    expect(demote.json()).toMatchObject({ success: false, detail: LAST_SUPERUSER });

    const second = await t.createUser({ username: 'second', is_superuser: true });
    expect((await update(adminId, { is_active: false }, second.token)).statusCode).toBe(200);
    // Now `second` is the last active superuser.
    expect((await update(second.id, { is_superuser: false }, second.token)).statusCode).toBe(409);
    // An inactive superuser does not count.
    expect((await update(adminId, { is_active: true }, second.token)).statusCode).toBe(200);
    expect((await update(adminId, { is_superuser: false }, second.token)).statusCode).toBe(200);
  });

  it('does not let two superusers demote each other at the same time', async () => {
    const second = await t.createUser({ username: 'second', is_superuser: true });
    // Straight to the service, so that both changes pass the access check before either is written.
    const users = t.app.ctx.users;
    const results = await Promise.allSettled([
      users.update(second.id, { is_superuser: false }, { user: { id: adminId, username: 'admin' }, sessionId: 'a' }),
      users.update(adminId, { is_superuser: false }, { user: { id: second.id, username: 'second' }, sessionId: 'b' }),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual(['fulfilled', 'rejected']);
    const refused = results.find((r) => r.status === 'rejected');
    expect(refused?.reason).toMatchObject({ statusCode: 409, message: LAST_SUPERUSER });
    const remaining = (await users.list()).filter((u) => u.is_superuser && u.is_active);
    expect(remaining).toHaveLength(1);
  });

  it('deactivating a user ends their sessions and stops them signing in; activating lets them back', async () => {
    const user = await t.createUser({ username: 'frank', password: 'Frank-pass-1' });
    const response = await update(user.id, { is_active: false });
    expect(response.statusCode).toBe(200);
    expect(response.json().data.is_active).toBe(false);
    expect((await verify(user.token)).statusCode).toBe(401);
    // The right password learns that the account is deactivated (403); a wrong one learns nothing (401).
    expect((await login('frank', 'Frank-pass-1')).statusCode).toBe(403);
    expect((await login('frank', 'Wrong-pass-1')).statusCode).toBe(401);
    expect((await update(user.id, { is_active: true })).statusCode).toBe(200);
    expect((await verify(user.token)).statusCode).toBe(401);
    expect((await login('frank', 'Frank-pass-1')).statusCode).toBe(200);
  });

  it('an administrator password reset ends the user’s sessions and sets the new password', async () => {
    const user = await t.createUser({ username: 'gina', password: 'Gina-pass-1' });
    expect((await update(user.id, { password: 'Reset-pass-2' })).statusCode).toBe(200);
    expect((await verify(user.token)).statusCode).toBe(401);
    expect((await verify(admin)).statusCode).toBe(200);
    expect((await login('gina', 'Gina-pass-1')).statusCode).toBe(401);
    expect((await login('gina', 'Reset-pass-2')).statusCode).toBe(200);
  });

  it('a superuser resetting their own password keeps the session doing it and ends the others', async () => {
    const elsewhere = await t.login();
    expect((await update(adminId, { password: 'Admin-pass-2' })).statusCode).toBe(200);
    expect((await verify(admin)).statusCode).toBe(200);
    expect((await verify(elsewhere)).statusCode).toBe(401);
  });
});
