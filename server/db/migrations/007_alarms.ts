import { sql } from 'kysely';
import type { DialectMigration } from './helpers';

/** Alarms: one row per raised cause; open while resolved_at is null. */
export const alarmsMigration: DialectMigration = {
  async up(db) {
    await db.schema
      .createTable('alarms')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('cause_key', 'text', (c) => c.notNull())
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('severity', 'text', (c) => c.notNull())
      .addColumn('mosque_id', 'text')
      .addColumn('mosque_name', 'text')
      .addColumn('job_id', 'text')
      .addColumn('instance_id', 'text')
      .addColumn('message', 'text', (c) => c.notNull())
      .addColumn('raised_at', 'text', (c) => c.notNull())
      .addColumn('acknowledged_at', 'text')
      .addColumn('acknowledged_by', 'text')
      .addColumn('resolved_at', 'text')
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();
    // One open alarm per cause, whichever server raises it: a second raise finds the first.
    await db.schema
      .createIndex('alarms_open_cause')
      .on('alarms')
      .column('cause_key')
      .unique()
      .where(sql.ref('resolved_at'), 'is', null)
      .execute();
    await db.schema.createIndex('alarms_raised_at').on('alarms').column('raised_at').execute();
  },
};
