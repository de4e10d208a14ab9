import type { DialectMigration } from './helpers';

/*
 * What a running recording's recorder last reported of its content (its conditions, totals and the
 * readings of its last minutes, JSON): the Instances details show it while the window is open, on
 * whichever server answers them. Cleared when the recording ends: its content file takes over.
 */
export const liveContentMigration: DialectMigration = {
  async up(db) {
    await db.schema.alterTable('recordings').addColumn('live_content', 'text').execute();
  },
};
