import { sql } from 'kysely';
import type { DialectMigration } from './helpers';

/**
 * A recording job's outcome comes from its media (captured, partial, failed), not from the clock:
 * what was covered, what was expected, and why it fell short. Jobs remember their recording, who
 * cancelled them (null: the system, which may plan the Friday again), and their pre-flight check.
 */
export const fridayOutcomesMigration: DialectMigration = {
  async up(db, dialect) {
    const double = dialect === 'postgres' ? 'double precision' : 'real';
    const columns: [string, string][] = [
      ['outcome_reason', 'text'],
      ['covered_seconds', double],
      ['expected_seconds', double],
      ['recording_id', 'text'],
      ['cancelled_by', 'text'],
      ['preflight_at', 'text'],
    ];
    for (const [name, type] of columns) {
      await db.schema.alterTable('scheduler_jobs').addColumn(name, sql.raw(type)).execute();
    }
    // Jobs the clock called completed were never measured: nothing is green that was not recorded.
    await sql`UPDATE scheduler_jobs SET status = 'partial',
      outcome_reason = 'Ended before outcomes were measured from the media; check the recording'
      WHERE status = 'completed'`.execute(db);
    // Operators' cancellations (no note) stay cancelled; the system's may be planned again.
    await sql`UPDATE scheduler_jobs SET cancelled_by = 'operator' WHERE status = 'cancelled' AND last_error IS NULL`.execute(
      db,
    );
    await db.schema.createIndex('scheduler_jobs_friday').on('scheduler_jobs').column('friday_date').execute();
  },
};
