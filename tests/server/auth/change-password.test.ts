import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/test-app';

const OLD = 'User-pass-1';
const NEW = 'Brand-new-pass-2';

describe('POST /api/auth/change-password', () => {
  let t: TestApp;
  beforeEach(async () => {
    t = await createTestApp();
    await t.createUser({ username: 'alice', password: OLD });
  });
  afterEach(() => t.close());

  const change = (token: string, current_password: string, new_password: string) =>
    t.request({ method: 'POST', url: '/api/auth/change-password', token, payload: { current_password, new_password } });
  const verify = (token: string) => t.request({ method: 'GET', url: '/api/auth/verify-token', token });
  const login = (password: string) =>
    t.request({
      method: 'POST',
      url: '/api/auth/login',
      payload: { username: 'alice', password },
      remoteAddress: '10.9.0.1',
    });

  it('refuses a wrong current password and an unchanged password with 400 and a detail', async () => {
    const token = await t.login('alice', OLD);
    const wrong = await change(token, 'Not-my-pass-1', NEW);
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toMatchObject({ success: false, detail: 'Current password is incorrect' });
    const same = await change(token, OLD, OLD);
    expect(same.statusCode).toBe(400);
    expect(same.json()).toMatchObject({
      success: false,
      detail: 'New password must be different from current password',
    });
    const short = await change(token, OLD, 'Short1!');
    expect(short.statusCode).toBe(400);
    expect(short.json().detail).toMatch(/at least 8 characters/);
    expect((await login(OLD)).statusCode).toBe(200);
  });

  it('changes the password, keeps this session and revokes the others', async () => {
    const current = await t.login('alice', OLD);
    const elsewhere = await t.login('alice', OLD);
    const admin = await t.login();
    const response = await change(current, OLD, NEW);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ success: true, message: expect.any(String) });

    expect((await verify(current)).statusCode).toBe(200);
    expect((await verify(elsewhere)).statusCode).toBe(401);
    expect((await verify(admin)).statusCode).toBe(200);
    expect((await login(OLD)).statusCode).toBe(401);
    expect((await login(NEW)).statusCode).toBe(200);
  });

  it('requires a session', async () => {
    const response = await t.request({
      method: 'POST',
      url: '/api/auth/change-password',
      payload: { current_password: OLD, new_password: NEW },
    });
    expect(response.statusCode).toBe(401);
  });

  it('limits guessing of the current password with a stolen token', async () => {
    const token = await t.login('alice', OLD);
    for (let i = 0; i < 5; i++) expect((await change(token, `Guess-${i}-pass`, NEW)).statusCode).toBe(400);
    const blocked = await change(token, OLD, NEW);
    expect(blocked.statusCode).toBe(429);
    expect(blocked.headers['retry-after']).toBeDefined();
    expect(blocked.json().detail).toMatch(/^Too many failed password attempts\. Try again in \d+ minutes?\.$/);
  });
});
