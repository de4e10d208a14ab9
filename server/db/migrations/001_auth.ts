import type { DialectMigration } from './helpers';
import { flag, withSerialId } from './helpers';

export const authMigration: DialectMigration = {
  async up(db, dialect) {
    await withSerialId(db.schema.createTable('users'), dialect)
      .addColumn('username', 'text', (c) => c.notNull())
      .addColumn('username_key', 'text', (c) => c.notNull().unique())
      .addColumn('email', 'text', (c) => c.notNull())
      .addColumn('full_name', 'text')
      .addColumn('role', 'text', (c) => c.notNull())
      .addColumn('is_active', 'integer', flag(1))
      .addColumn('is_superuser', 'integer', flag(0))
      .addColumn('password_hash', 'text', (c) => c.notNull())
      .addColumn('last_login', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();

    await db.schema
      .createTable('sessions')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('last_seen_at', 'text', (c) => c.notNull())
      .addColumn('revoked_at', 'text')
      .addColumn('revoked_reason', 'text')
      .addColumn('ip', 'text')
      .addColumn('user_agent', 'text')
      .execute();
    await db.schema.createIndex('sessions_user_id').on('sessions').column('user_id').execute();
  },
};
