import type { DialectMigration } from './helpers';

/*
 * Several servers on one database know each other: each registers itself with the address the
 * others call it on and the scope of its recorders (which local folder it runs them from), and
 * beats every few seconds; one silent for 20 s is dead. The recorders of a dead server's scope are
 * adopted by one live server on the same host, under a lease that the adopter renews.
 */
export const serversMigration: DialectMigration = {
  async up(db) {
    await db.schema
      .createTable('servers')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('host', 'text', (c) => c.notNull())
      .addColumn('internal_address', 'text', (c) => c.notNull())
      .addColumn('version', 'text', (c) => c.notNull())
      .addColumn('scope', 'text', (c) => c.notNull())
      .addColumn('started_at', 'text', (c) => c.notNull())
      .addColumn('last_seen', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('servers_scope').on('servers').columns(['scope', 'last_seen']).execute();
    await db.schema
      .createTable('scope_adoptions')
      .addColumn('scope', 'text', (c) => c.primaryKey())
      .addColumn('server_id', 'text', (c) => c.notNull())
      .addColumn('until', 'text', (c) => c.notNull())
      .execute();
  },
};
