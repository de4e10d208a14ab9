import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/test-app';

const newUser = { username: 'newbie', email: 'newbie@example.com', password: 'Newbie-pass-1', role: 'user' };

describe('user management is for superusers only', () => {
  let t: TestApp;
  let userToken: string;
  let adminUser: { id: number; token: string };
  let targetId: number;
  beforeAll(async () => {
    t = await createTestApp();
    userToken = (await t.createUser({ username: 'plain', role: 'user' })).token;
    // role admin without the superuser flag is still not allowed
    adminUser = await t.createUser({ username: 'roleadmin', role: 'admin' });
    targetId = (await t.createUser({ username: 'target' })).id;
  });
  afterAll(() => t.close());

  const calls = () => [
    { method: 'GET' as const, url: '/api/auth/users' },
    { method: 'POST' as const, url: '/api/auth/users', payload: newUser },
    { method: 'POST' as const, url: '/api/auth/register', payload: newUser },
    { method: 'PUT' as const, url: `/api/auth/users/${targetId}`, payload: { is_active: false } },
  ];

  it('answers 401 without a token', async () => {
    for (const call of calls()) {
      const response = await t.request(call);
      expect(response.statusCode, `${call.method} ${call.url}`).toBe(401);
      expect(response.json()).toMatchObject({ success: false, detail: 'Not authenticated' });
    }
  });

  it('answers 403 to a signed-in non-superuser, whatever the role', async () => {
    for (const token of [userToken, adminUser.token]) {
      for (const call of calls()) {
        const response = await t.request({ ...call, token });
        expect(response.statusCode, `${call.method} ${call.url}`).toBe(403);
        expect(response.json()).toMatchObject({
          success: false,
          detail: expect.any(String),
          error: expect.any(String),
        });
      }
    }
    const admin = await t.login();
    const list = await t.request({ method: 'GET', url: '/api/auth/users', token: admin });
    expect(list.json().users.map((u: { username: string }) => u.username)).not.toContain('newbie');
    const target = list.json().users.find((u: { id: number }) => u.id === targetId);
    expect(target.is_active).toBe(true);
  });

  it('lets a superuser list, create and register', async () => {
    const admin = await t.login();
    const list = await t.request({ method: 'GET', url: '/api/auth/users', token: admin });
    expect(list.statusCode).toBe(200);
    expect(list.json().users.length).toBeGreaterThanOrEqual(4);
    const created = await t.request({ method: 'POST', url: '/api/auth/users', token: admin, payload: newUser });
    expect(created.statusCode).toBe(201);
    expect(created.json()).toMatchObject({
      success: true,
      data: { username: 'newbie', role: 'user', is_active: true, is_superuser: false },
    });
    const registered = await t.request({
      method: 'POST',
      url: '/api/auth/register',
      token: admin,
      payload: { ...newUser, username: 'reg' },
    });
    expect(registered.statusCode).toBe(201);
    expect(registered.json().data.username).toBe('reg');
  });
});
