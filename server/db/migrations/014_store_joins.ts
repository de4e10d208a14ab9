import type { DialectMigration } from './helpers';

/*
 * A recording whose EC2 recorder the fleet relaunched has segments from several machines in the
 * bucket, while the file each machine joined holds only its own. The server joins them all once every
 * run has ended (recordings/store-join.ts) and marks the recording here, so the join happens once,
 * and again after a server restart that interrupted it.
 */
export const storeJoinsMigration: DialectMigration = {
  async up(db) {
    await db.schema.alterTable('recordings').addColumn('store_joined_at', 'text').execute();
  },
};
