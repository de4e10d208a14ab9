import type { Clock } from '../../lib/clock';
import type { EventBus } from '../../lib/events';
import { fromFlag } from '../../db';
import type { AuthenticatedSession } from '../../lib/fastify';
import type { UserRow } from '../users';
import { SessionCache } from './session-cache';
import type { SessionsRepository } from './sessions-repository';
import type { SessionTokens } from './tokens';

/** A session dies after this long without activity (docs/reference.md section 9). */
export const SESSION_INACTIVITY_LIMIT_MS = 24 * 3600 * 1000;
/** Activity is written at most this often per session, so reads do not all become writes. */
const TOUCH_INTERVAL_MS = 60 * 1000;

export class SessionService {
  private readonly cache: SessionCache;

  constructor(
    private readonly repository: SessionsRepository,
    private readonly tokens: SessionTokens,
    private readonly clock: Clock,
    /** Told of revoked sessions (`sessions_revoked`): holders of long-lived connections (the live feed) drop them at once. */
    private readonly events: Pick<EventBus, 'emit'>,
  ) {
    this.cache = new SessionCache(repository, clock);
  }

  async open(user: UserRow, meta: { ip?: string; userAgent?: string }): Promise<{ token: string; sessionId: string }> {
    const sessionId = this.tokens.newSessionId();
    const now = this.clock.now().toISOString();
    await this.repository.insert({
      id: sessionId,
      user_id: user.id,
      created_at: now,
      last_seen_at: now,
      revoked_at: null,
      revoked_reason: null,
      ip: meta.ip ?? null,
      user_agent: meta.userAgent?.slice(0, 256) ?? null,
    });
    return { token: await this.tokens.sign({ sessionId, userId: user.id }), sessionId };
  }

  /**
   * The live session behind a token, or undefined when the token is invalid, the session was
   * revoked or idle for 24 h, or its user is deactivated. Counts the call as activity.
   */
  async authenticate(token: string): Promise<AuthenticatedSession | undefined> {
    return this.check(token, true);
  }

  /**
   * The live session behind a token when this server's memory answers alone, without a promise: the
   * token verified before, the session remembered and confirmed within the second, no activity to
   * record yet. Undefined when authenticate() must decide (it may still find the session live).
   */
  rememberedSession(token: string): AuthenticatedSession | undefined {
    const nowMs = this.clock.now().getTime();
    const claims = this.tokens.knownClaims(token, nowMs);
    if (!claims) return undefined;
    const cached = this.cache.peek(claims.sessionId, nowMs);
    // The touch interval (a minute) is far shorter than the idle limit (a day): a session within it is not idle either.
    if (!cached || cached.user.id !== claims.userId || nowMs - cached.lastSeenMs >= TOUCH_INTERVAL_MS) return undefined;
    return { sessionId: claims.sessionId, user: cached.user };
  }

  /** Whether the token was signed here and has not expired; says nothing about its session (no database). */
  async hasValidSignature(token: string): Promise<boolean> {
    return (await this.tokens.verify(token)) !== undefined;
  }

  /** Whether a token's session is still live, without counting as activity (held connections ask this). */
  async isLive(token: string): Promise<boolean> {
    return (await this.check(token, false)) !== undefined;
  }

  private async check(token: string, touch: boolean): Promise<AuthenticatedSession | undefined> {
    const claims = await this.tokens.verify(token);
    if (!claims) return undefined;
    const now = this.clock.now();
    const cached = await this.cache.get(claims.sessionId);
    // An entry whose activity is a day old goes to the database: another server may know a later one.
    if (cached && cached.user.id === claims.userId && now.getTime() - cached.lastSeenMs < SESSION_INACTIVITY_LIMIT_MS) {
      if (touch && now.getTime() - cached.lastSeenMs >= TOUCH_INTERVAL_MS) {
        await this.repository.touch(claims.sessionId, now.toISOString());
        cached.lastSeenMs = now.getTime();
      }
      return { sessionId: claims.sessionId, user: cached.user };
    }

    const generation = await this.cache.currentGeneration();
    const found = await this.repository.findWithUser(claims.sessionId);
    if (!found || found.revokedAt || found.user.id !== claims.userId || !fromFlag(found.user.is_active))
      return undefined;
    let lastSeenMs = Date.parse(found.lastSeenAt);
    const idleMs = now.getTime() - lastSeenMs;
    if (idleMs >= SESSION_INACTIVITY_LIMIT_MS) {
      // Ended for good (and its live socket with it), whatever any server's clock says later.
      await this.revoke(found.sessionId, 'inactive for 24 hours');
      return undefined;
    }
    if (touch && idleMs >= TOUCH_INTERVAL_MS) {
      await this.repository.touch(found.sessionId, now.toISOString());
      lastSeenMs = now.getTime();
    }
    this.cache.set(found.sessionId, { user: found.user, lastSeenMs, generation });
    return { sessionId: found.sessionId, user: found.user };
  }

  /** Whether a session (by its id) is live: not revoked, not idle for a day, its user active. Not counted as activity. */
  async isSessionLive(sessionId: string): Promise<boolean> {
    const now = this.clock.now().getTime();
    const cached = await this.cache.get(sessionId);
    if (cached && now - cached.lastSeenMs < SESSION_INACTIVITY_LIMIT_MS) return true;
    const found = await this.repository.findWithUser(sessionId);
    return (
      !!found &&
      !found.revokedAt &&
      fromFlag(found.user.is_active) &&
      now - Date.parse(found.lastSeenAt) < SESSION_INACTIVITY_LIMIT_MS
    );
  }

  /** A user's row changed (role, flags, password, details): sessions held in memory are read again. */
  usersChanged(): Promise<void> {
    return this.cache.changed();
  }

  async revoke(sessionId: string, reason: string): Promise<void> {
    await this.repository.revoke(sessionId, this.clock.now().toISOString(), reason);
    await this.cache.changed();
    this.notifyRevoked([sessionId]);
  }

  async revokeAllForUser(userId: number, reason: string, exceptSessionId?: string): Promise<void> {
    const ids = await this.repository.revokeForUser(userId, this.clock.now().toISOString(), reason, exceptSessionId);
    await this.cache.changed();
    this.notifyRevoked(ids);
  }

  private notifyRevoked(ids: string[]): void {
    if (ids.length === 0) return;
    this.events.emit('sessions_revoked', { sessionIds: ids });
  }
}
