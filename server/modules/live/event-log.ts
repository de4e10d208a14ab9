import { sql, type Kysely } from 'kysely';
import { LIVE_SNAPSHOT_TYPES, type ServerMessage } from '../../../contract/live';
import type { Database, Dialect } from '../../db';

/** The channel servers on one PostgreSQL announce their live events on. */
export const LIVE_EVENTS_CHANNEL = 'live_events';
/**
 * PostgreSQL refuses a NOTIFY payload of 8000 bytes or more: an event whose announcement would come
 * near it is announced by its id alone, and the servers read it from the table.
 */
export const NOTIFY_INLINE_MAX_BYTES = 7_500;

/** What a NOTIFY on LIVE_EVENTS_CHANNEL carries: the server, the event id, and the message unless it was too big. */
export interface EventAnnouncement {
  s: string;
  i: number;
  m?: ServerMessage;
}

export interface StoredEvent {
  id: number;
  server_id: string;
  payload: string;
}

/**
 * The live feed's events in the database (`live_events`), numbered by one sequence for every server
 * on it. On PostgreSQL an event is announced to the other servers by the statement that stores it
 * (pg_notify in the same transaction: a server that hears of an event can always read it).
 */
export class LiveEventLog {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: Dialect,
  ) {}

  /** Stores the message (without an event id) and returns its id. */
  async append(serverId: string, message: ServerMessage, createdAt: string): Promise<number> {
    const payload = JSON.stringify(message);
    if (this.dialect !== 'postgres') {
      const row = await this.db
        .insertInto('live_events')
        .values({ server_id: serverId, type: message.type, payload, created_at: createdAt })
        .returning('id')
        .executeTakeFirstOrThrow();
      return row.id;
    }
    // The announcement's envelope ({"s":…,"i":…,"m":…}) adds the server id and about 40 bytes.
    const inline = Buffer.byteLength(payload) + Buffer.byteLength(serverId) + 40 <= NOTIFY_INLINE_MAX_BYTES;
    const { rows } = await sql<{ id: number }>`
      with stored as (
        insert into live_events (server_id, type, payload, created_at) values (${serverId}, ${message.type}, ${payload}, ${createdAt}) returning id
      )
      select stored.id, pg_notify(${LIVE_EVENTS_CHANNEL}, case when ${inline}::boolean
        then json_build_object('s', ${serverId}::text, 'i', stored.id, 'm', ${payload}::json)
        else json_build_object('s', ${serverId}::text, 'i', stored.id) end::text)
      from stored`.execute(this.db);
    return Number(rows[0].id);
  }

  find(id: number): Promise<StoredEvent | undefined> {
    return this.db
      .selectFrom('live_events')
      .select(['id', 'server_id', 'payload'])
      .where('id', '=', id)
      .executeTakeFirst();
  }

  /** Events after `afterId`, oldest first, the snapshots (initial_data supersedes them) left out. */
  replayable(afterId: number, limit: number): Promise<StoredEvent[]> {
    return this.db
      .selectFrom('live_events')
      .select(['id', 'server_id', 'payload'])
      .where('id', '>', afterId)
      .where('type', 'not in', LIVE_SNAPSHOT_TYPES)
      .orderBy('id')
      .limit(limit)
      .execute();
  }

  /** Events of other servers after `afterId`, oldest first (what a server missed while it could not listen). */
  othersAfter(afterId: number, serverId: string, limit: number): Promise<StoredEvent[]> {
    return this.db
      .selectFrom('live_events')
      .select(['id', 'server_id', 'payload'])
      .where('id', '>', afterId)
      .where('server_id', '!=', serverId)
      .orderBy('id')
      .limit(limit)
      .execute();
  }

  /** The newest and oldest event ids kept (0 and undefined when none is). */
  async bounds(): Promise<{ newest: number; oldest: number | undefined }> {
    const row = await this.db
      .selectFrom('live_events')
      .select((eb) => [eb.fn.max('id').as('newest'), eb.fn.min('id').as('oldest')])
      .executeTakeFirst();
    return {
      newest: Number(row?.newest ?? 0),
      oldest: row?.oldest === null || row?.oldest === undefined ? undefined : Number(row.oldest),
    };
  }

  async pruneBefore(createdBefore: string): Promise<void> {
    await this.db.deleteFrom('live_events').where('created_at', '<', createdBefore).execute();
  }
}
