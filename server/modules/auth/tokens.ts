import crypto from 'node:crypto';
import { SignJWT, jwtVerify } from 'jose';
import { LRUCache } from 'lru-cache';
import type { Clock } from '../../lib/clock';

const ISSUER = 'capture-command-center';
const AUDIENCE = 'capture-console';
/**
 * Absolute lifetime of a token. Liveness is decided by the session row (24 h of inactivity,
 * logout, password change, deactivation); this only bounds how long a stolen token can be replayed.
 */
const TOKEN_LIFETIME_SECONDS = 7 * 24 * 3600;

export interface TokenClaims {
  sessionId: string;
  userId: number;
}

/** Tokens whose signature was verified, kept with their claims; beyond this many the least recently used is dropped. */
const VERIFIED_CACHE_SIZE = 1000;

/** Signs and verifies session tokens: HS256 pinned, with exp, iss and aud checked. */
export class SessionTokens {
  /** Imported once: given raw bytes, jose imports the key again for every token. */
  private cryptoKey: Promise<CryptoKey> | undefined;
  /**
   * A console sends the same token with every request, and verifying it (a WebCrypto job) was the
   * largest cost of an authenticated read. A token verified once is the same string with the same
   * claims until it expires, so only its expiry is checked again; whether its session is still live
   * is decided by the session row on every request, as before.
   */
  private readonly verified = new LRUCache<string, { claims: TokenClaims; expiresAt: number }>({
    max: VERIFIED_CACHE_SIZE,
  });

  constructor(
    private readonly key: Uint8Array,
    private readonly clock: Clock,
  ) {}

  private signingKey(): Promise<CryptoKey> {
    this.cryptoKey ??= crypto.webcrypto.subtle.importKey('raw', this.key, { name: 'HMAC', hash: 'SHA-256' }, false, [
      'sign',
      'verify',
    ]);
    return this.cryptoKey;
  }

  newSessionId(): string {
    return crypto.randomUUID();
  }

  async sign(claims: TokenClaims): Promise<string> {
    const now = Math.floor(this.clock.now().getTime() / 1000);
    return new SignJWT({})
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(String(claims.userId))
      .setJti(claims.sessionId)
      .setIssuer(ISSUER)
      .setAudience(AUDIENCE)
      .setIssuedAt(now)
      .setExpirationTime(now + TOKEN_LIFETIME_SECONDS)
      .sign(await this.signingKey());
  }

  /** The claims of a token verified before and not expired since, without a promise; undefined for any other. */
  knownClaims(token: string, nowMs = this.clock.now().getTime()): TokenClaims | undefined {
    const known = this.verified.get(token);
    if (!known) return undefined;
    // jose's rule: expired once the current second reaches exp.
    if (Math.floor(nowMs / 1000) < known.expiresAt) return known.claims;
    this.verified.delete(token);
    return undefined;
  }

  /** The claims of a valid token, or undefined for anything forged, expired or malformed. */
  async verify(token: string): Promise<TokenClaims | undefined> {
    if (this.verified.has(token)) return this.knownClaims(token);
    const now = this.clock.now();
    try {
      const { payload } = await jwtVerify(token, await this.signingKey(), {
        algorithms: ['HS256'],
        issuer: ISSUER,
        audience: AUDIENCE,
        currentDate: now,
      });
      const userId = Number(payload.sub);
      if (!payload.jti || !Number.isInteger(userId) || payload.exp === undefined) return undefined;
      const claims = { sessionId: payload.jti, userId };
      this.verified.set(token, { claims, expiresAt: payload.exp });
      return claims;
    } catch {
      return undefined;
    }
  }
}
