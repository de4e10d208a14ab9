import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorBodySchema } from '../../../contract/common';
import { createTestApp, type TestApp } from '../helpers/test-app';

describe('hostile and malformed requests', () => {
  let t: TestApp;
  let admin: string;
  beforeAll(async () => {
    t = await createTestApp();
    admin = await t.login();
  });
  afterAll(() => t.close());

  const json = { 'content-type': 'application/json' };
  const expectError = (response: { statusCode: number; json(): unknown }, status: number, detail?: RegExp) => {
    expect(response.statusCode).toBe(status);
    const body = errorBodySchema.strict().parse(response.json());
    expect(body.error).toBe(body.detail);
    if (detail) expect(body.detail).toMatch(detail);
    expect(body.detail).not.toMatch(/at .+\.(ts|js):\d+/); // no stack trace
  };

  it('answers a 2 MB JSON body with 413 and a detail', async () => {
    const payload = JSON.stringify({ username: 'x'.repeat(2 * 1024 * 1024), password: 'y' });
    expectError(await t.request({ method: 'POST', url: '/api/auth/login', headers: json, payload }), 413, /too large/);
    expectError(
      await t.request({ method: 'POST', url: '/api/auth/users', token: admin, headers: json, payload }),
      413,
      /too large/,
    );
  });

  it('answers invalid JSON with 400', async () => {
    expectError(
      await t.request({ method: 'POST', url: '/api/auth/login', headers: json, payload: '{"username": "admin",' }),
      400,
      /not valid JSON/,
    );
  });

  it('refuses bodies that try to reach the prototype with 400', async () => {
    for (const payload of [
      '{"username":"admin","password":"x","__proto__":{"is_superuser":true}}',
      '{"username":"admin","password":"x","constructor":{"prototype":{"is_superuser":true}}}',
    ]) {
      expectError(await t.request({ method: 'POST', url: '/api/auth/login', headers: json, payload }), 400);
    }
    expect(({} as Record<string, unknown>).is_superuser).toBeUndefined();
  });

  it('answers other content types and empty bodies with 4xx error bodies', async () => {
    const plain = await t.request({
      method: 'POST',
      url: '/api/auth/login',
      headers: { 'content-type': 'text/plain' },
      payload: 'admin',
    });
    expectError(plain, 400);
    const xml = await t.request({
      method: 'POST',
      url: '/api/auth/login',
      headers: { 'content-type': 'application/xml' },
      payload: '<a/>',
    });
    expectError(xml, 415, /application\/json/);
    expectError(await t.request({ method: 'POST', url: '/api/auth/login', headers: json, payload: '' }), 400);
  });

  it('answers unknown /api paths and methods with 404 JSON', async () => {
    for (const [method, url] of [
      ['GET', '/api/nope'],
      ['POST', '/api/auth/nope'],
      ['DELETE', '/api/auth/login'],
      ['GET', '/api'],
    ] as const) {
      expectError(await t.request({ method, url, token: admin }), 404, /No such endpoint/);
    }
  });

  it('answers bad path parameters with 400', async () => {
    expectError(await t.request({ method: 'PUT', url: '/api/auth/users/abc', token: admin, payload: {} }), 400, /id/);
    expectError(
      await t.request({ method: 'PUT', url: '/api/auth/users/-1', token: admin, payload: {} }),
      400,
      /positive/,
    );
  });

  it('uses the error shape for every refusal: 401, 403, 404, 409', async () => {
    expectError(await t.request({ method: 'GET', url: '/api/auth/users' }), 401);
    const user = await t.createUser({ username: 'limited' });
    expectError(await t.request({ method: 'GET', url: '/api/auth/users', token: user.token }), 403);
    expectError(
      await t.request({ method: 'PUT', url: '/api/auth/users/4242', token: admin, payload: {} }),
      404,
      /not found/,
    );
    const dup = { username: 'LIMITED', email: 'l@example.com', password: 'Limited-pass-1' };
    expectError(await t.request({ method: 'POST', url: '/api/auth/users', token: admin, payload: dup }), 409);
  });
});
