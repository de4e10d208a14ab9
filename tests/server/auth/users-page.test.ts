import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { usersListResponseSchema } from '../../../contract/auth';
import { createTestApp, type TestApp } from '../helpers/test-app';

describe('GET /api/auth/users: search, sort and pages', () => {
  let t: TestApp;
  let admin: string;
  beforeAll(async () => {
    t = await createTestApp({ build: { healthCheckIntervalMs: 0 } });
    admin = await t.login();
    for (const username of ['zara', 'Bilal', 'amina', 'yusuf']) await t.createUser({ username });
    await t.request({ method: 'PUT', url: '/api/auth/users/2', token: admin, payload: { is_active: false } });
  });
  afterAll(() => t.close());

  const page = async (query: string, token = admin) => {
    const response = await t.request({ method: 'GET', url: `/api/auth/users?${query}`, token });
    expect(response.statusCode, response.body).toBe(200);
    const { users, total } = usersListResponseSchema.parse(response.json());
    return { names: users.map((user) => user.username), total };
  };

  it('keeps the reference list without parameters: every user, no total', async () => {
    const { names, total } = await page('');
    expect(names).toHaveLength(5);
    expect(total).toBeUndefined();
  });

  it('searches, sorts either way ignoring case, and pages with the total', async () => {
    expect(await page('sort=username&limit=3')).toEqual({ names: ['admin', 'amina', 'Bilal'], total: 5 });
    expect(await page('sort=username&order=desc&limit=2&offset=1')).toEqual({ names: ['yusuf', 'Bilal'], total: 5 });
    expect(await page('q=BIL&sort=username')).toEqual({ names: ['Bilal'], total: 1 });
    // Inactive before active when ascending; ties by username.
    expect((await page('sort=is_active&limit=1')).names).toEqual(['zara']);
  });

  it('refuses an unknown sort, and stays for superusers only', async () => {
    const refused = await t.request({ method: 'GET', url: '/api/auth/users?sort=password_hash', token: admin });
    expect(refused.statusCode).toBe(400);
    const operator = (await t.createUser({ username: 'operator' })).token;
    expect((await t.request({ method: 'GET', url: '/api/auth/users?q=a', token: operator })).statusCode).toBe(403);
  });
});
