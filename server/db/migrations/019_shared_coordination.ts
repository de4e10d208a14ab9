import type { DialectMigration } from './helpers';

/*
 * What servers sharing one database must count and hand over together: the live feed's events (each
 * server relays the others' to its consoles, and a console that comes back replays what it missed),
 * failed sign-ins (a limit holds across servers), and who is sending an alarm delivery now (a claim
 * with a lease, so each is posted once and one owed by a dead server is taken over when it lapses).
 */
export const sharedCoordinationMigration: DialectMigration = {
  async up(db, dialect) {
    await db.schema
      .createTable('live_events')
      .addColumn('id', dialect === 'postgres' ? 'bigserial' : 'integer', (c) =>
        dialect === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement(),
      )
      .addColumn('server_id', 'text', (c) => c.notNull())
      .addColumn('type', 'text', (c) => c.notNull())
      .addColumn('payload', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('live_events_created_at').on('live_events').column('created_at').execute();

    await db.schema
      .createTable('limiter_failures')
      .addColumn('id', dialect === 'postgres' ? 'bigserial' : 'integer', (c) =>
        dialect === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement(),
      )
      .addColumn('limiter', 'text', (c) => c.notNull())
      .addColumn('key', 'text', (c) => c.notNull())
      .addColumn('failed_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('limiter_failures_key')
      .on('limiter_failures')
      .columns(['limiter', 'key', 'failed_at'])
      .execute();
    await db.schema.createIndex('limiter_failures_failed_at').on('limiter_failures').column('failed_at').execute();

    await db.schema.alterTable('alarm_deliveries').addColumn('claimed_by', 'text').execute();
    await db.schema.alterTable('alarm_deliveries').addColumn('claim_until', 'text').execute();
  },
};
