import type { Kysely, Selectable } from 'kysely';
import type { Database, ServersTable } from '../../db/schema';

export type ServerRow = Selectable<ServersTable>;

/** What a heartbeat found: its lease renewed, its row gone, or its lease taken by another server. */
export type BeatAnswer = { kind: 'renewed' } | { kind: 'missing' } | { kind: 'taken'; by: string; at: string };

/** The servers table and the scope adoption leases (migration 020). */
export class ServersRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async register(row: Omit<ServerRow, 'stopped_at' | 'taken_over_by' | 'taken_over_at'>): Promise<void> {
    await this.db
      .insertInto('servers')
      .values({ ...row, stopped_at: null, taken_over_by: null, taken_over_at: null })
      .execute();
  }

  /**
   * A clean stop: dead to the others from `lastSeen` on (moved back, so they take over at once), and
   * stopped at `at`. Not for a server already taken over: it was lost, not stopped.
   */
  async stopped(id: string, lastSeen: string, at: string): Promise<void> {
    await this.db
      .updateTable('servers')
      .set({ last_seen: lastSeen, stopped_at: at })
      .where('id', '=', id)
      .where('taken_over_by', 'is', null)
      .execute();
  }

  /**
   * Renews the lease of `id` (its last beat). Refused once another server took it over: the answer
   * names who and when. `missing` when its row is gone (removed by hand): the caller registers again.
   */
  async beat(id: string, at: string): Promise<BeatAnswer> {
    const result = await this.db
      .updateTable('servers')
      .set({ last_seen: at })
      .where('id', '=', id)
      .where('taken_over_by', 'is', null)
      .executeTakeFirst();
    if (result.numUpdatedRows > 0n) return { kind: 'renewed' };
    const row = await this.find(id);
    if (!row) return { kind: 'missing' };
    return { kind: 'taken', by: row.taken_over_by ?? 'unknown', at: row.taken_over_at ?? at };
  }

  /**
   * Takes `id` over if its lease ran out (last beat before `expiredBefore`) and it did not stop cleanly:
   * the check and the mark are one statement, so a beat that lands first wins and the server stays
   * alive. True when it is dead now: taken over by this call or before, or stopped cleanly.
   */
  async takeOverIfExpired(id: string, by: string, now: string, expiredBefore: string): Promise<boolean> {
    await this.db
      .updateTable('servers')
      .set({ taken_over_by: by, taken_over_at: now })
      .where('id', '=', id)
      .where('taken_over_by', 'is', null)
      .where('stopped_at', 'is', null)
      .where('last_seen', '<', expiredBefore)
      .execute();
    const row = await this.find(id);
    return row !== undefined && (row.taken_over_by !== null || row.stopped_at !== null);
  }

  /** Takes over every server whose lease ran out (as takeOverIfExpired); the rows taken by this call. */
  takeOverExpired(
    by: string,
    now: string,
    expiredBefore: string,
  ): Promise<Pick<ServerRow, 'id' | 'host' | 'last_seen'>[]> {
    return this.db
      .updateTable('servers')
      .set({ taken_over_by: by, taken_over_at: now })
      .where('taken_over_by', 'is', null)
      .where('stopped_at', 'is', null)
      .where('last_seen', '<', expiredBefore)
      .returning(['id', 'host', 'last_seen'])
      .execute();
  }

  /**
   * Takes over every server of `scope` whose lease ran out (as takeOverIfExpired), then says whether
   * one of them still holds its lease (the scope has an owner: nothing of it may be taken).
   */
  async takeOverScope(scope: string, by: string, now: string, expiredBefore: string): Promise<{ owned: boolean }> {
    await this.db
      .updateTable('servers')
      .set({ taken_over_by: by, taken_over_at: now })
      .where('scope', '=', scope)
      .where('taken_over_by', 'is', null)
      .where('stopped_at', 'is', null)
      .where('last_seen', '<', expiredBefore)
      .execute();
    const holder = await this.db
      .selectFrom('servers')
      .select('id')
      .where('scope', '=', scope)
      .where('taken_over_by', 'is', null)
      .where('stopped_at', 'is', null)
      .where('last_seen', '>=', expiredBefore)
      .executeTakeFirst();
    return { owned: holder !== undefined };
  }

  /** Every server heard from since `since` and not taken over. */
  listSeenSince(since: string): Promise<ServerRow[]> {
    return this.db
      .selectFrom('servers')
      .selectAll()
      .where('last_seen', '>=', since)
      .where('taken_over_by', 'is', null)
      .orderBy('id')
      .execute();
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
