import crypto from 'node:crypto';
import { SignJWT, decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyTokenResponseSchema } from '../../../contract/auth';
import { createTestApp, type TestApp } from '../helpers/test-app';

const HOUR = 3600 * 1000;
const b64 = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');

describe('GET /api/auth/verify-token', () => {
  let t: TestApp;
  let token: string;
  beforeAll(async () => {
    t = await createTestApp();
    token = await t.login();
  });
  afterAll(() => t.close());

  const verify = (authorization?: string) =>
    t.request({ method: 'GET', url: '/api/auth/verify-token', headers: authorization ? { authorization } : {} });

  /** A token shaped like the server's, for the live session of `token`, with chosen changes. */
  const craft = async (changes: { key?: Uint8Array; alg?: string; iss?: string; aud?: string; exp?: number } = {}) => {
    const claims = decodeJwt(token);
    return new SignJWT({})
      .setProtectedHeader({ alg: changes.alg ?? 'HS256', typ: 'JWT' })
      .setSubject(claims.sub!)
      .setJti(claims.jti!)
      .setIssuer(changes.iss ?? claims.iss!)
      .setAudience(changes.aud ?? (claims.aud as string))
      .setIssuedAt(claims.iat!)
      .setExpirationTime(changes.exp ?? claims.exp!)
      .sign(changes.key ?? t.app.ctx.keys.derive('session-tokens'));
  };

  it('returns the user for a valid token', async () => {
    const response = await verify(`Bearer ${token}`);
    expect(response.statusCode).toBe(200);
    const body = verifyTokenResponseSchema.parse(response.json());
    expect(body.user.username).toBe('admin');
    expect(response.body).not.toMatch(/password/i);
  });

  it('accepts a token re-signed exactly like the server does (the crafting below is sound)', async () => {
    expect((await verify(`Bearer ${await craft()}`)).statusCode).toBe(200);
  });

  it('answers 401 without a token or with a malformed one', async () => {
    for (const header of [
      undefined,
      'Bearer',
      `Basic ${token}`,
      'Bearer not-a-jwt',
      'Bearer a.b.c',
      `Bearer ${token}x`,
    ]) {
      const response = await verify(header);
      expect(response.statusCode, String(header)).toBe(401);
      expect(response.json()).toMatchObject({ success: false, detail: expect.any(String), error: expect.any(String) });
    }
  });

  it('refuses forged tokens: another key, alg none, another algorithm, issuer or audience', async () => {
    const [, payload] = token.split('.');
    const forged = [
      await craft({ key: crypto.randomBytes(32) }),
      `${b64({ alg: 'none', typ: 'JWT' })}.${payload}.`,
      await craft({ alg: 'HS512' }),
      await craft({ iss: 'someone-else' }),
      await craft({ aud: 'another-app' }),
    ];
    for (const candidate of forged) expect((await verify(`Bearer ${candidate}`)).statusCode).toBe(401);
  });

  it('refuses an expired token even while its session is alive', async () => {
    const nowSeconds = Math.floor(t.clock.now().getTime() / 1000);
    expect((await verify(`Bearer ${await craft({ exp: nowSeconds - 1 })}`)).statusCode).toBe(401);
    expect((await verify(`Bearer ${token}`)).statusCode).toBe(200);
  });

  it('stops accepting a token at its absolute expiry, however active its session', async () => {
    const fresh = await t.login();
    const expiresAt = decodeJwt(fresh).exp! * 1000;
    while (t.clock.now().getTime() + 23 * HOUR < expiresAt) {
      t.clock.advance(23 * HOUR);
      expect((await verify(`Bearer ${fresh}`)).statusCode).toBe(200);
    }
    t.clock.set(new Date(expiresAt));
    expect((await verify(`Bearer ${fresh}`)).statusCode).toBe(401);
  });
});
