import type { DialectMigration } from './helpers';

/*
 * The live sockets each session holds, on every server sharing the database: the cap of sockets per
 * session is counted here, not per server (behind a load balancer each server saw a tenth of them).
 * A row names the server holding the socket; rows of a server that is no longer alive do not count.
 */
export const liveSocketsMigration: DialectMigration = {
  async up(db) {
    await db.schema
      .createTable('live_sockets')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('session_id', 'text', (c) => c.notNull())
      .addColumn('server_id', 'text', (c) => c.notNull())
      .addColumn('opened_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('live_sockets_session').on('live_sockets').column('session_id').execute();
  },
};
