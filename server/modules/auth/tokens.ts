import crypto from 'node:crypto';
import { SignJWT, jwtVerify } from 'jose';
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

/** Signs and verifies session tokens: HS256 pinned, with exp, iss and aud checked. */
export class SessionTokens {
  constructor(
    private readonly key: Uint8Array,
    private readonly clock: Clock,
  ) {}

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
      .sign(this.key);
  }

  /** The claims of a valid token, or undefined for anything forged, expired or malformed. */
  async verify(token: string): Promise<TokenClaims | undefined> {
    try {
      const { payload } = await jwtVerify(token, this.key, {
        algorithms: ['HS256'],
        issuer: ISSUER,
        audience: AUDIENCE,
        currentDate: this.clock.now(),
      });
      const userId = Number(payload.sub);
      if (!payload.jti || !Number.isInteger(userId)) return undefined;
      return { sessionId: payload.jti, userId };
    } catch {
      return undefined;
    }
  }
}
