import type { DialectMigration } from './helpers';
import { flag } from './helpers';

/** Durable scheduler: its jobs, and whether it runs (one row, id 1). */
export const schedulerMigration: DialectMigration = {
  async up(db) {
    await db.schema
      .createTable('scheduler_jobs')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('func', 'text', (c) => c.notNull())
      .addColumn('trigger', 'text', (c) => c.notNull())
      .addColumn('next_run_time', 'text')
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('mosque_id', 'text')
      .addColumn('mosque_name', 'text')
      .addColumn('friday_date', 'text')
      .addColumn('prayer_time', 'text')
      .addColumn('timezone', 'text')
      .addColumn('recording_start', 'text')
      .addColumn('recording_end', 'text')
      .addColumn('url', 'text')
      .addColumn('duration', 'integer')
      .addColumn('width', 'integer')
      .addColumn('height', 'integer')
      .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('last_error', 'text')
      .addColumn('late', 'integer', flag(0))
      .addColumn('instance_id', 'text')
      .addColumn('claimed_by', 'text')
      .addColumn('claimed_at', 'text')
      .addColumn('launched_at', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();
    // One recording per mosque per Friday, whoever schedules it (NULLs of the recurring job are distinct).
    await db.schema
      .createIndex('scheduler_jobs_mosque_friday')
      .on('scheduler_jobs')
      .columns(['mosque_id', 'friday_date'])
      .unique()
      .execute();
    await db.schema
      .createIndex('scheduler_jobs_due')
      .on('scheduler_jobs')
      .columns(['status', 'next_run_time'])
      .execute();

    await db.schema
      .createTable('scheduler_state')
      .addColumn('id', 'integer', (c) => c.primaryKey())
      .addColumn('running', 'integer', flag(1))
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .addColumn('updated_by', 'text')
      .execute();
  },
};
