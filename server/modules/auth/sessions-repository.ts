import type { Insertable, Kysely } from 'kysely';
import type { Database, SessionsTable } from '../../db/schema';
import type { UserRow } from '../users';

export interface SessionWithUser {
  sessionId: string;
  lastSeenAt: string;
  revokedAt: string | null;
  user: UserRow;
}

/** Sessions, and the generation counter that tells servers to drop the sessions they hold in memory. */
export class SessionsRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async insert(values: Insertable<SessionsTable>): Promise<void> {
    await this.db.insertInto('sessions').values(values).execute();
  }

  async findWithUser(sessionId: string): Promise<SessionWithUser | undefined> {
    const row = await this.db
      .selectFrom('sessions')
      .innerJoin('users', 'users.id', 'sessions.user_id')
      .selectAll('users')
      .select(['sessions.id as session_id', 'sessions.last_seen_at', 'sessions.revoked_at'])
      .where('sessions.id', '=', sessionId)
      .executeTakeFirst();
    if (!row) return undefined;
    const { session_id, last_seen_at, revoked_at, ...user } = row;
    return { sessionId: session_id, lastSeenAt: last_seen_at, revokedAt: revoked_at, user };
  }

  async touch(sessionId: string, at: string): Promise<void> {
    await this.db.updateTable('sessions').set({ last_seen_at: at }).where('id', '=', sessionId).execute();
  }

  /** Revokes live sessions of a user (all, or all but one); returns the revoked ids. */
  async revokeForUser(userId: number, at: string, reason: string, exceptSessionId?: string): Promise<string[]> {
    let query = this.db
      .updateTable('sessions')
      .set({ revoked_at: at, revoked_reason: reason })
      .where('user_id', '=', userId)
      .where('revoked_at', 'is', null);
    if (exceptSessionId) query = query.where('id', '!=', exceptSessionId);
    const rows = await query.returning('id').execute();
    return rows.map((r) => r.id);
  }

  async readGeneration(): Promise<number> {
    const row = await this.db
      .selectFrom('auth_generation')
      .select('generation')
      .where('id', '=', 1)
      .executeTakeFirstOrThrow();
    return Number(row.generation);
  }

  async bumpGeneration(): Promise<void> {
    await this.db
      .updateTable('auth_generation')
      .set((eb) => ({ generation: eb('generation', '+', 1) }))
      .where('id', '=', 1)
      .execute();
  }

  async revoke(sessionId: string, at: string, reason: string): Promise<void> {
    await this.db
      .updateTable('sessions')
      .set({ revoked_at: at, revoked_reason: reason })
      .where('id', '=', sessionId)
      .where('revoked_at', 'is', null)
      .execute();
  }
}
