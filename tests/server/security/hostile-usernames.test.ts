import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/test-app';
import { expectRefused, snapshot } from './hostile-support';

/**
 * Usernames that look like an existing one: other Unicode spellings of the same name (NFD, fullwidth,
 * case) are the same name, and names that differ only by lookalike letters (Cyrillic, Greek) are
 * refused, so nobody can pass for "admin" in the user list or the activity log.
 */
describe('hostile input: lookalike usernames', () => {
  let t: TestApp;
  let admin: string;

  beforeAll(async () => {
    t = await createTestApp({ build: { healthCheckIntervalMs: 0 } });
    admin = await t.login();
    await t.createUser({ username: 'operator' });
    const jose = await t.request({ method: 'POST', url: '/api/auth/users', token: admin, payload: { username: 'jos\u00e9', email: 'jose@example.com', password: 'User-pass-1', role: 'user', is_active: true, is_superuser: false } });
    expect(jose.statusCode, jose.body).toBe(201);
  });
  afterAll(() => t.close());

  const create = (username: string) =>
    t.request({ method: 'POST', url: '/api/auth/users', token: admin, payload: { username, email: 'twin@example.com', password: 'Twin-pass-123', role: 'admin', is_superuser: true } });

  it.each([
    ['upper case', 'ADMIN'],
    ['fullwidth letters', '\uff41\uff44\uff4d\uff49\uff4e'],
    ['a decomposed accent (NFD)', 'jose\u0301'],
    ['a composed name in upper case', 'JOS\u00c9'],
  ])('treats %s as the same name (409)', async (_name, username) => {
    const before = await snapshot(t);
    expectRefused(await create(username), 409, /is already taken$/);
    expect(await snapshot(t)).toEqual(before);
  });

  it.each([
    ['a Cyrillic а', '\u0430dmin'],
    ['a Cyrillic і', 'adm\u0456n'],
    ['Greek ο and Cyrillic р', '\u03bf\u0440erator'],
    ['an accent added', 'opérator'],
    ['a fullwidth Cyrillic mix', '\uff41\u0434min'.replace('\u0434', '\u0501')],
  ])('refuses %s as a lookalike of an existing name (409)', async (_name, username) => {
    const before = await snapshot(t);
    expectRefused(await create(username), 409, /looks like the existing username (admin|operator|josé); choose another$/);
    expect(await snapshot(t)).toEqual(before);
  });

  it('signs in with any spelling of the same name, and still accepts names that only differ for real', async () => {
    expect((await t.request({ method: 'POST', url: '/api/auth/login', payload: { username: '\uff21\uff24\uff2d\uff29\uff2e', password: 'Admin-pass-1' } })).statusCode).toBe(200);
    expect((await t.request({ method: 'POST', url: '/api/auth/login', payload: { username: 'jose\u0301', password: 'User-pass-1' } })).statusCode).toBe(200);
    for (const username of ['operator2', 'administrator', '\u0414\u043c\u0438\u0442\u0440\u0438\u0439', '\u0645\u062d\u0645\u062f']) {
      expect((await create(username)).statusCode, username).toBe(201);
    }
  });
});
