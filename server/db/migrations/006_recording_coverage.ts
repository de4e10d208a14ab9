import { sql } from 'kysely';
import type { DialectMigration } from './helpers';

/**
 * What each recording's media covers of its window (issue 11): the window's length, the seconds the
 * media covers, its gaps (JSON [{start, end, reason}]) and reconnections. A recording is no longer
 * "completed" by the clock: the old status becomes "captured".
 */
export const recordingCoverageMigration: DialectMigration = {
  async up(db, dialect) {
    const double = dialect === 'postgres' ? 'double precision' : 'real';
    await db.schema.alterTable('recordings').addColumn('expected_seconds', double).execute();
    await db.schema.alterTable('recordings').addColumn('covered_seconds', double).execute();
    await db.schema
      .alterTable('recordings')
      .addColumn('gaps', 'text', (c) => c.notNull().defaultTo('[]'))
      .execute();
    await db.schema
      .alterTable('recordings')
      .addColumn('reconnects', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
    await sql`update recordings set status = 'captured' where status = 'completed'`.execute(db);
  },
};
