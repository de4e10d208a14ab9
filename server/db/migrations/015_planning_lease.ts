import type { DialectMigration } from './helpers';

/*
 * Servers sharing one database plan one at a time: a plan reads the mosques and then writes their
 * jobs, and a plan on one server must not write the job of a mosque that another server deleted and
 * re-planned in between. The holder and expiry of that lease live on the scheduler's state row.
 */
export const planningLeaseMigration: DialectMigration = {
  async up(db) {
    await db.schema.alterTable('scheduler_state').addColumn('planning_by', 'text').execute();
    await db.schema.alterTable('scheduler_state').addColumn('planning_until', 'text').execute();
  },
};
