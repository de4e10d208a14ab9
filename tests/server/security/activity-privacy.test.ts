import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ActivityEntry } from '../../../contract/activity';
import { createTestApp, type TestApp } from '../helpers/test-app';

/**
 * The activity log is open to every signed-in user, but emails, roles, superuser flags and sign-in
 * addresses in it are account details: only superusers see them. Everyone sees who did what.
 */
describe('hostile input: account details in the activity log', () => {
  let t: TestApp;
  let admin: string;
  let user: string;

  beforeAll(async () => {
    t = await createTestApp({ build: { healthCheckIntervalMs: 0 } });
    admin = await t.login();
    const created = await t.createUser({ username: 'operator' });
    user = created.token;
    await t.request({
      method: 'PUT',
      url: `/api/auth/users/${created.id}`,
      token: admin,
      payload: { email: 'new-address@example.com', role: 'admin' },
    });
    await t.request({
      method: 'POST',
      url: '/api/auth/login',
      payload: { username: 'admin', password: 'Wrong-pass-1' },
      remoteAddress: '203.0.113.50',
    });
    await t.request({
      method: 'POST',
      url: '/api/auth/login',
      payload: { username: 'admin', password: 'Admin-pass-1' },
      remoteAddress: '203.0.113.51',
    });
  });
  afterAll(() => t.close());

  const entries = async (token: string) => {
    const response = await t.request({ method: 'GET', url: '/api/activity?limit=50', token });
    expect(response.statusCode).toBe(200);
    return { body: response.body, entries: response.json<{ data: { entries: ActivityEntry[] } }>().data.entries };
  };

  it('hides emails, roles, flags and addresses from a non-superuser', async () => {
    const { body, entries: seen } = await entries(user);
    for (const secret of [
      'operator@example.com',
      'new-address@example.com',
      '203.0.113.50',
      '203.0.113.51',
      'is_superuser',
      '"role":',
      '"ip":',
    ]) {
      expect(body).not.toContain(secret);
    }
    // Still the same entries, with who did what.
    expect(seen.map((e) => e.action)).toEqual(
      expect.arrayContaining(['user.create', 'user.update', 'auth.login', 'auth.login_failed']),
    );
    expect(seen.find((e) => e.action === 'user.update')).toMatchObject({
      summary: 'admin updated user operator',
      detail: { changed: ['email', 'role'] },
    });
  });

  it('shows them to a superuser', async () => {
    const { body } = await entries(admin);
    for (const detail of [
      'operator@example.com',
      'new-address@example.com',
      '203.0.113.50',
      '203.0.113.51',
      'is_superuser',
    ])
      expect(body).toContain(detail);
  });
});
