import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../../server/config';
import { ADMIN, createTestApp, type TestApp } from '../helpers/test-app';
import { expectRefused } from './hostile-support';

const LIMITED = /^Too many failed sign-in attempts\. Try again in \d+ minutes?\.$/;

/**
 * Locking people out without knowing any password: guesses from one address (or one client behind a
 * trusted proxy) never refuse the right password from an address without recent failures.
 */
describe('hostile input: lockout without credentials', () => {
  let t: TestApp;
  afterEach(() => t.close());

  const login = (username: string, password: string, remoteAddress: string, forwardedFor?: string) =>
    t.request({
      method: 'POST',
      url: '/api/auth/login',
      payload: { username, password },
      remoteAddress,
      headers: forwardedFor ? { 'x-forwarded-for': forwardedFor } : {},
    });

  it('50 wrong guesses for admin from one address leave admin free everywhere else', async () => {
    t = await createTestApp();
    for (let i = 0; i < 50; i++) await login(i % 2 ? 'ADMIN' : 'admin', 'Wrong-pass-1', '203.0.113.7');
    expectRefused(await login('admin', ADMIN.password, '203.0.113.7'), 429, LIMITED);
    expect((await login('admin', ADMIN.password, '198.51.100.1')).statusCode).toBe(200);
  });

  it('an address with 20 failures is refused for every name, other addresses are not', async () => {
    t = await createTestApp();
    await t.createUser({ username: 'operator', password: 'Operator-pass-1' });
    for (let i = 0; i < 20; i++) await login(`nobody${i}`, 'Wrong-pass-1', '203.0.113.8');
    expectRefused(await login('operator', 'Operator-pass-1', '203.0.113.8'), 429, LIMITED);
    expect((await login('operator', 'Operator-pass-1', '203.0.113.9')).statusCode).toBe(200);
  });

  it('behind a trusted proxy, one client cannot lock out the others', async () => {
    t = await createTestApp({ env: { TRUST_PROXY: '127.0.0.1' } });
    for (let i = 0; i < 25; i++) await login('admin', 'Wrong-pass-1', '127.0.0.1', '203.0.113.10');
    expectRefused(await login('admin', ADMIN.password, '127.0.0.1', '203.0.113.10'), 429, LIMITED);
    expect((await login('admin', ADMIN.password, '127.0.0.1', '198.51.100.2')).statusCode).toBe(200);
  });

  it('X-Forwarded-For from an address that is not a trusted proxy changes nothing', async () => {
    t = await createTestApp({ env: { TRUST_PROXY: '10.9.9.9' } });
    // A guesser rotating a forged header is still one address.
    for (let i = 0; i < 5; i++) await login('admin', 'Wrong-pass-1', '203.0.113.11', `198.51.100.${i}`);
    expectRefused(await login('admin', ADMIN.password, '203.0.113.11', '198.51.100.77'), 429, LIMITED);
  });

  it('without TRUST_PROXY the header is ignored', async () => {
    t = await createTestApp();
    for (let i = 0; i < 5; i++) await login('admin', 'Wrong-pass-1', '127.0.0.1', `198.51.100.${i}`);
    expectRefused(await login('admin', ADMIN.password, '127.0.0.1', '198.51.100.99'), 429, LIMITED);
  });

  it.each(['yes', '10.0.0.0/33', '300.1.1.1', 'example.com', '10.0.0.1/8/2'])(
    'refuses to start with TRUST_PROXY=%s',
    (value) => {
      expect(() => loadConfig({ TRUST_PROXY: value })).toThrow(ConfigError);
    },
  );

  it('accepts addresses, CIDR ranges and range names in TRUST_PROXY', () => {
    expect(loadConfig({ TRUST_PROXY: '10.0.0.1, 192.168.0.0/16,::1,loopback' }).trustProxy).toEqual([
      '10.0.0.1',
      '192.168.0.0/16',
      '::1',
      'loopback',
    ]);
    expect(loadConfig({}).trustProxy).toEqual([]);
  });
});
