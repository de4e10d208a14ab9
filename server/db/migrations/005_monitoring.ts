import type { DialectMigration } from './helpers';
import { withSerialId } from './helpers';

/** The activity log (who did what, when, to what) and encrypted/plain server settings. */
export const monitoringMigration: DialectMigration = {
  async up(db, dialect) {
    await withSerialId(db.schema.createTable('activity'), dialect)
      .addColumn('at', 'text', (c) => c.notNull())
      // No foreign key: the log outlives whatever it mentions, and names its actor by username too.
      .addColumn('actor_id', 'integer')
      .addColumn('actor_username', 'text')
      .addColumn('action', 'text', (c) => c.notNull())
      .addColumn('target_type', 'text')
      .addColumn('target_id', 'text')
      .addColumn('target_label', 'text')
      .addColumn('detail', 'text')
      .execute();
    await db.schema.createIndex('activity_at').on('activity').column('at').execute();

    await db.schema
      .createTable('settings')
      .addColumn('key', 'text', (c) => c.primaryKey())
      .addColumn('value', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .addColumn('updated_by', 'text')
      .execute();
  },
};
