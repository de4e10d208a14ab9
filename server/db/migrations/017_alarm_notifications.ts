import { sql } from 'kysely';
import type { DialectMigration } from './helpers';

/*
 * The notification policy (alarms/notification-policy.ts): deliveries of alarms raised together are one
 * message (a notification), so each delivery row names the notification it went out in, and a restart
 * resumes a notification whole. Silences hold the notifications of a mosque or a kind until a time.
 */
export const alarmNotificationsMigration: DialectMigration = {
  async up(db) {
    await db.schema.alterTable('alarm_deliveries').addColumn('notification_id', 'text').execute();
    // Deliveries made before grouping each went out alone.
    await sql`update alarm_deliveries set notification_id = id`.execute(db);
    await db.schema
      .createIndex('alarm_deliveries_notification')
      .on('alarm_deliveries')
      .column('notification_id')
      .execute();
    await db.schema
      .createTable('alarm_silences')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('mosque_id', 'text')
      .addColumn('kind', 'text')
      .addColumn('comment', 'text', (c) => c.notNull())
      .addColumn('created_by', 'text', (c) => c.notNull())
      .addColumn('starts_at', 'text', (c) => c.notNull())
      .addColumn('ends_at', 'text', (c) => c.notNull())
      .addColumn('lifted_at', 'text')
      .addColumn('lifted_by', 'text')
      .execute();
    await db.schema.createIndex('alarm_silences_ends_at').on('alarm_silences').column('ends_at').execute();
  },
};
