import crypto from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import type { Database, Dialect } from '../../db';
import type { Clock } from '../../lib/clock';
import { DEAD_AFTER_MS } from '../servers';

/**
 * The live sockets of each session, counted in the database across the servers sharing it, so that
 * a session's cap holds however a load balancer spreads its sockets. A slot is taken when a socket
 * signs in and given back when it closes; the slots of a server that is no longer alive (killed,
 * taken over, stopped) do not count, and are removed when a server starts (forgetDead).
 */
export class LiveSocketSlots {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: Dialect,
    private readonly clock: Clock,
    /** This server's id in the servers table (the scheduler's claimant id). */
    private readonly serverId: string,
  ) {}

  /** A slot for one more socket of `sessionId`, or null when it holds `max` already. */
  async take(sessionId: string, max: number): Promise<string | null> {
    return this.db.transaction().execute(async (trx) => {
      // Two servers admitting the same session's sockets at once take turns (SQLite writes one at a time anyway).
      if (this.dialect === 'postgres') await sql`select pg_advisory_xact_lock(hashtext(${sessionId}))`.execute(trx);
      const { count } = await trx
        .selectFrom('live_sockets')
        .select((eb) => eb.fn.countAll<number | string>().as('count'))
        .where('session_id', '=', sessionId)
        .where((eb) => eb.or([eb('server_id', '=', this.serverId), eb('server_id', 'in', this.aliveServers(trx))]))
        .executeTakeFirstOrThrow();
      if (Number(count) >= max) return null;
      const id = crypto.randomUUID();
      await trx
        .insertInto('live_sockets')
        .values({ id, session_id: sessionId, server_id: this.serverId, opened_at: this.clock.now().toISOString() })
        .execute();
      return id;
    });
  }

  async release(id: string): Promise<void> {
    await this.db.deleteFrom('live_sockets').where('id', '=', id).execute();
  }

  /** Gives back every slot of this server (it is closing: its sockets with it). */
  async releaseAll(): Promise<void> {
    await this.db.deleteFrom('live_sockets').where('server_id', '=', this.serverId).execute();
  }

  /** Removes the slots of servers no longer alive (killed with their sockets); called as this server starts. */
  async forgetDead(): Promise<void> {
    await this.db
      .deleteFrom('live_sockets')
      .where('server_id', '!=', this.serverId)
      .where('server_id', 'not in', this.aliveServers(this.db))
      .execute();
  }

  /** The ids of the servers holding their lease (on SQLite none registers: this server alone counts). */
  private aliveServers(db: Kysely<Database>) {
    return db
      .selectFrom('servers')
      .select('id')
      .where('taken_over_by', 'is', null)
      .where('stopped_at', 'is', null)
      .where('last_seen', '>=', new Date(this.clock.now().getTime() - DEAD_AFTER_MS).toISOString());
  }
}
