import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../../server/app';
import { SecretKeyMismatchError } from '../../../server/lib/key-fingerprint';
import { createTestApp, type TestApp } from '../helpers/test-app';

/**
 * Several servers on one database must share SECRET_KEY: one started with another key refuses to
 * start with a sentence saying so, instead of rejecting the others' sessions and failing to decrypt
 * the saved settings one request at a time.
 */
describe('hostile configuration: a second server with another SECRET_KEY', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ build: { healthCheckIntervalMs: 0 } });
  });
  afterAll(() => t.close());

  const second = (secretKey: string | undefined) =>
    buildApp({ ...t.config, secretKey }, { logger: false, clock: t.clock, healthCheckIntervalMs: 0 });

  it('refuses to start with a key the database was not initialised with', async () => {
    const attempt = second('another-secret-key-of-at-least-32-chars');
    await expect(attempt).rejects.toBeInstanceOf(SecretKeyMismatchError);
    await expect(attempt).rejects.toThrow(
      /^SECRET_KEY does not match the key this database was initialised with\. Every server sharing a database needs the same SECRET_KEY/,
    );
    // The running server is unaffected.
    expect(
      (
        await t.request({
          method: 'POST',
          url: '/api/auth/login',
          payload: { username: 'admin', password: 'Admin-pass-1' },
        })
      ).statusCode,
    ).toBe(200);
  });

  it('starts with the same key, and its sessions work on the first server', async () => {
    const other = await second(t.config.secretKey);
    try {
      const login = await other.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { username: 'admin', password: 'Admin-pass-1' },
      });
      const token = login.json<{ access_token: string }>().access_token;
      expect((await t.request({ method: 'GET', url: '/api/auth/verify-token', token })).statusCode).toBe(200);
    } finally {
      await other.close();
    }
  });
});
