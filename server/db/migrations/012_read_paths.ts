import { sql } from 'kysely';
import type { DialectMigration } from './helpers';

/*
 * Reads that must not grow with the fleet:
 * - upcoming recordings (pending jobs soonest first) walk an index in order per status and stop at
 *   the limit, instead of sorting every pending job;
 * - the recent jobs list finds jobs touched since a moment through an index on updated_at;
 * - one counter (auth_generation) that every change to sessions or users bumps: servers keep checked
 *   sessions in memory and drop them as soon as they see it move (within a second across servers).
 */
export const readPathsMigration: DialectMigration = {
  async up(db) {
    await db.schema
      .createIndex('scheduler_jobs_upcoming')
      .on('scheduler_jobs')
      .columns(['kind', 'status', 'recording_start', 'id'])
      .execute();
    await db.schema.createIndex('scheduler_jobs_updated').on('scheduler_jobs').column('updated_at').execute();

    await db.schema
      .createTable('auth_generation')
      .addColumn('id', 'integer', (c) => c.primaryKey())
      .addColumn('generation', 'integer', (c) => c.notNull())
      .execute();
    await sql`INSERT INTO auth_generation (id, generation) VALUES (1, 0)`.execute(db);
  },
};
