import type { DialectMigration } from './helpers';

/** Outbound alarm deliveries: one row per alarm, change and channel, with its attempts. */
export const alarmDeliveriesMigration: DialectMigration = {
  async up(db) {
    await db.schema
      .createTable('alarm_deliveries')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('alarm_id', 'text', (c) => c.notNull())
      .addColumn('channel', 'text', (c) => c.notNull())
      .addColumn('event', 'text', (c) => c.notNull())
      .addColumn('state', 'text', (c) => c.notNull())
      .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('last_attempt_at', 'text')
      .addColumn('next_attempt_at', 'text')
      .addColumn('last_error', 'text')
      .addColumn('delivered_at', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addUniqueConstraint('alarm_deliveries_once', ['alarm_id', 'event', 'channel'])
      .execute();
    await db.schema.createIndex('alarm_deliveries_state').on('alarm_deliveries').column('state').execute();
  },
};
