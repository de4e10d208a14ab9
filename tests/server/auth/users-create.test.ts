import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { userResponseSchema } from '../../../contract/auth';
import { errorBodySchema } from '../../../contract/common';
import { createTestApp, type TestApp } from '../helpers/test-app';

const valid = {
  username: 'Bob',
  email: 'bob@example.com',
  full_name: 'Bob Builder',
  password: 'Bob-pass-12',
  role: 'user',
  is_active: true,
  is_superuser: false,
};

describe('POST /api/auth/users', () => {
  let t: TestApp;
  let admin: string;
  beforeAll(async () => {
    t = await createTestApp();
    admin = await t.login();
  });
  afterAll(() => t.close());

  const create = (payload: object) => t.request({ method: 'POST', url: '/api/auth/users', token: admin, payload });

  it.each([
    ['an invalid email', { ...valid, email: 'not-an-email' }, /email/i],
    ['a missing username', { ...valid, username: undefined }, /username is required/],
    ['an empty username', { ...valid, username: '  ' }, /username/i],
    ['a missing password', { ...valid, password: undefined }, /password/i],
    ['a short password', { ...valid, password: 'short' }, /at least 8/],
    ['an unknown role', { ...valid, role: 'root' }, /role/i],
    ['an unknown field', { ...valid, is_admin: true }, /is_admin/],
  ])('refuses %s with 400 and a detail sentence', async (_, payload, pattern) => {
    const response = await create(payload);
    expect(response.statusCode).toBe(400);
    const body = errorBodySchema.parse(response.json());
    expect(body.detail).toMatch(pattern);
    expect(body.detail).toBe(body.error);
    expect(body.detail).not.toMatch(/^\s*[[{]/); // a sentence, not a dumped object
  });

  it('creates a user with the defaults of the create form', async () => {
    const response = await create({ username: 'dora', email: 'dora@example.com', password: 'Dora-pass-1' });
    expect(response.statusCode).toBe(201);
    const { data } = userResponseSchema.parse(response.json());
    expect(data).toMatchObject({
      username: 'dora',
      role: 'admin',
      is_active: true,
      is_superuser: false,
      full_name: null,
      last_login: null,
    });
    expect(response.body).not.toMatch(/password/i);
    expect((await t.login('dora', 'Dora-pass-1')).length).toBeGreaterThan(20);
  });

  it('accepts Arabic usernames written with diacritics, and they sign in', async () => {
    const username = 'عليّ'; // ends with U+0651 ARABIC SHADDA, a combining mark
    const created = await t.request({
      method: 'POST',
      url: '/api/auth/users',
      token: admin,
      payload: { username, email: 'ali@example.com', password: 'Ali-pass-12' },
    });
    expect(created.statusCode).toBe(201);
    expect(created.json().data.username).toBe(username);
    await expect(t.login(username, 'Ali-pass-12')).resolves.toEqual(expect.any(String));
  });

  it('refuses a username that exists in another letter case with 409', async () => {
    expect((await create(valid)).statusCode).toBe(201);
    const again = await create({ ...valid, username: 'bOB', email: 'bob2@example.com' });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ success: false, detail: expect.stringMatching(/already taken/) });
  });

  it('lets only one of two simultaneous creates of one name succeed', async () => {
    const results = await Promise.all([create({ ...valid, username: 'twin' }), create({ ...valid, username: 'TWIN' })]);
    expect(results.map((r) => r.statusCode).sort()).toEqual([201, 409]);
  });
});
