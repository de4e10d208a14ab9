import type { Kysely, Selectable } from 'kysely';
import type { Database, ServersTable } from '../../db/schema';

export type ServerRow = Selectable<ServersTable>;

/** The servers table and the scope adoption leases (migration 020). */
export class ServersRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async register(row: Omit<ServerRow, 'stopped_at'>): Promise<void> {
    await this.db
      .insertInto('servers')
      .values({ ...row, stopped_at: null })
      .execute();
  }

  /** A clean stop: dead to the others from `lastSeen` on (moved back, so they take over at once), and stopped at `at`. */
  async stopped(id: string, lastSeen: string, at: string): Promise<void> {
    await this.db.updateTable('servers').set({ last_seen: lastSeen, stopped_at: at }).where('id', '=', id).execute();
  }

  /** Notes that the server is alive; false when its row is gone (removed by hand): the caller registers again. */
  async beat(id: string, at: string): Promise<boolean> {
    const result = await this.db.updateTable('servers').set({ last_seen: at }).where('id', '=', id).executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }

  /** Every server heard from since `since`. */
  listSeenSince(since: string): Promise<ServerRow[]> {
    return this.db.selectFrom('servers').selectAll().where('last_seen', '>=', since).orderBy('id').execute();
  }

  /** Every registered server, alive or not. */
  all(): Promise<ServerRow[]> {
    return this.db.selectFrom('servers').selectAll().execute();
  }

  find(id: string): Promise<ServerRow | undefined> {
    return this.db.selectFrom('servers').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /** Forgets servers silent since `before` (a restart registers under a new id; their rows only tell history). */
  async forgetSilentSince(before: string): Promise<void> {
    await this.db.deleteFrom('servers').where('last_seen', '<', before).execute();
  }

  /**
   * Takes or renews the adoption of `scope` for `serverId` until `until`: granted when nobody holds
   * it, the holder is this server, or the holder's lease ran out before `now`. True when granted.
   */
  async leaseScope(scope: string, serverId: string, now: string, until: string): Promise<boolean> {
    await this.db
      .insertInto('scope_adoptions')
      .values({ scope, server_id: serverId, until })
      .onConflict((oc) =>
        oc
          .column('scope')
          .doUpdateSet({ server_id: serverId, until })
          .where((eb) =>
            eb.or([eb('scope_adoptions.server_id', '=', serverId), eb('scope_adoptions.until', '<', now)]),
          ),
      )
      .execute();
    const holder = await this.db
      .selectFrom('scope_adoptions')
      .select('server_id')
      .where('scope', '=', scope)
      .executeTakeFirst();
    return holder?.server_id === serverId;
  }

  /** The live adoption of `scope` at `now`, if any. */
  adopterOf(scope: string, now: string): Promise<{ server_id: string; until: string } | undefined> {
    return this.db
      .selectFrom('scope_adoptions')
      .select(['server_id', 'until'])
      .where('scope', '=', scope)
      .where('until', '>=', now)
      .executeTakeFirst();
  }

  /** The server of `scope` heard from last, alive or not. */
  lastOfScope(scope: string): Promise<ServerRow | undefined> {
    return this.db
      .selectFrom('servers')
      .selectAll()
      .where('scope', '=', scope)
      .orderBy('last_seen', 'desc')
      .limit(1)
      .executeTakeFirst();
  }

  async releaseScope(scope: string, serverId: string): Promise<void> {
    await this.db.deleteFrom('scope_adoptions').where('scope', '=', scope).where('server_id', '=', serverId).execute();
  }
}
