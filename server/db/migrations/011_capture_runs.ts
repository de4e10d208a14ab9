import type { DialectMigration } from './helpers';

/*
 * Relaunching recorders the driver does not supervise itself (aws): the fleet starts a new recorder
 * for the same instance row while its window is open, so the row keeps the window it was launched
 * for (the relaunch records the same one), and the recording keeps each finished run's reading
 * (JSON array, see recordings/runs.ts): its coverage is the union of its runs, and a server restart
 * must not lose what an earlier run covered.
 */
export const captureRunsMigration: DialectMigration = {
  async up(db) {
    await db.schema.alterTable('instances').addColumn('window_start', 'text').execute();
    await db.schema.alterTable('instances').addColumn('window_end', 'text').execute();
    await db.schema
      .alterTable('recordings')
      .addColumn('runs', 'text', (c) => c.notNull().defaultTo('[]'))
      .execute();
  },
};
