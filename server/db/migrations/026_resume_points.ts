import type { DialectMigration } from './helpers';

/*
 * Where each HLS recording's recorder stopped, as its server last read it (the media sequence of the
 * last segment kept and where its content ends, JSON): a server that continues on another host the
 * recording of a server lost with its host starts its recorder after that segment, not at the window's
 * start nor behind a playlist that has moved on (instances/continuation.ts).
 */
export const resumePointsMigration: DialectMigration = {
  async up(db) {
    await db.schema.alterTable('recordings').addColumn('resume_point', 'text').execute();
  },
};
