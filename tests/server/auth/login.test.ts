import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loginResponseSchema } from '../../../contract/auth';
import { errorBodySchema } from '../../../contract/common';
import { ADMIN, createTestApp, type TestApp } from '../helpers/test-app';

const FAILED = 'Incorrect username or password';

describe('POST /api/auth/login', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const login = (username: string, password: string, remoteAddress = '10.0.0.1') =>
    t.request({ method: 'POST', url: '/api/auth/login', payload: { username, password }, remoteAddress });

  it('returns a bearer token and the user without any password hash, and records last_login', async () => {
    const before = t.clock.now().toISOString();
    t.clock.advance(60_000);
    const response = await login(ADMIN.username, ADMIN.password);
    expect(response.statusCode).toBe(200);
    const body = loginResponseSchema.parse(response.json());
    expect(body.token_type).toBe('bearer');
    expect(body.access_token.split('.')).toHaveLength(3);
    expect(body.user).toMatchObject({ username: 'admin', is_superuser: true, is_active: true });
    expect(response.body).not.toMatch(/password|argon2/i);
    expect(body.user.last_login).not.toBeNull();
    expect(Date.parse(body.user.last_login!)).toBeGreaterThan(Date.parse(before));

    const listed = await t.request({ method: 'GET', url: '/api/auth/users', token: body.access_token });
    expect(listed.body).not.toMatch(/password_hash|argon2/i);
  });

  it('matches usernames case-insensitively', async () => {
    const response = await login('ADMIN', ADMIN.password);
    expect(response.statusCode).toBe(200);
    expect(response.json().user.username).toBe('admin');
  });

  it('refuses a wrong password, an unknown user and a wrong password for a deactivated user with one and the same answer', async () => {
    const { id } = await t.createUser({ username: 'gone', password: 'Gone-pass-1' });
    const admin = await t.login();
    const off = await t.request({
      method: 'PUT',
      url: `/api/auth/users/${id}`,
      token: admin,
      payload: { is_active: false },
    });
    expect(off.statusCode).toBe(200);

    const answers = [
      await login('admin', 'Wrong-pass-1', '10.0.0.2'),
      await login('nobody', 'Whatever-1', '10.0.0.3'),
      await login('gone', 'Wrong-pass-1', '10.0.0.4'),
    ];
    for (const response of answers) {
      expect(response.statusCode).toBe(401);
      expect(errorBodySchema.parse(response.json())).toEqual({ success: false, detail: FAILED, error: FAILED });
    }
  });

  it('tells a deactivated user so only after a correct password', async () => {
    const { id } = await t.createUser({ username: 'paused', password: 'Paused-pass-1' });
    const admin = await t.login();
    await t.request({ method: 'PUT', url: `/api/auth/users/${id}`, token: admin, payload: { is_active: false } });
    const response = await login('paused', 'Paused-pass-1', '10.0.0.5');
    expect(response.statusCode).toBe(403);
    expect(errorBodySchema.parse(response.json()).detail).toBe(
      'This account is deactivated. Ask an administrator to activate it again.',
    );
    expect(response.body).not.toMatch(/access_token/);
  });

  it('requires both fields and rejects unknown ones', async () => {
    for (const payload of [
      { username: 'admin' },
      { password: 'x' },
      { username: '', password: 'x' },
      { ...ADMIN, extra: 1 },
    ]) {
      const response = await t.request({ method: 'POST', url: '/api/auth/login', payload });
      expect(response.statusCode).toBe(400);
      expect(errorBodySchema.parse(response.json()).detail).toMatch(/\w+/);
    }
  });
});
