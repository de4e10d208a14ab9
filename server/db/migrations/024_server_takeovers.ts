import type { DialectMigration } from './helpers';

/*
 * A server is dead only once another has taken it over: a conditional update that re-checks, in the
 * same statement, that its lease (its last beat plus three beats) ran out, and notes who took it and
 * when. Its own heartbeat is refused from then on, so a server that was only slow finds out at its
 * next beat and stops its claims, instead of working on beside the server that took them.
 */
export const serverTakeoversMigration: DialectMigration = {
  async up(db) {
    await db.schema.alterTable('servers').addColumn('taken_over_by', 'text').execute();
    await db.schema.alterTable('servers').addColumn('taken_over_at', 'text').execute();
  },
};
