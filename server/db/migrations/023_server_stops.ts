import type { DialectMigration } from './helpers';

/*
 * A server stopped cleanly (an upgrade, a restart) is told apart from one that was lost: both are dead
 * to the others at once or after 20 s, but only a lost one's recordings are continued on another
 * machine; a stopped one's recorders run on, and it takes them back when it starts again.
 */
export const serverStopsMigration: DialectMigration = {
  async up(db) {
    await db.schema.alterTable('servers').addColumn('stopped_at', 'text').execute();
  },
};
