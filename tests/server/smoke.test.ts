import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helpers/test-app';

describe('server foundation', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('signs in the bootstrapped superuser', async () => {
    const token = await t.login();
    const response = await t.request({ method: 'GET', url: '/api/auth/verify-token', token });
    expect(response.statusCode).toBe(200);
    expect(response.json().user.username).toBe('admin');
  });

  it('answers unknown api paths with 404 json', async () => {
    const response = await t.request({ method: 'GET', url: '/api/nothing-here' });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({
      success: false,
      detail: 'No such endpoint: GET /api/nothing-here',
      error: 'No such endpoint: GET /api/nothing-here',
    });
  });
});
