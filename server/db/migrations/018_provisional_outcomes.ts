import type { DialectMigration } from './helpers';

/*
 * An EC2 recording judged without its recorder's result (the machine ended before metadata.json was
 * in the store, or the store could not be read) is judged provisionally: until this instant (30 min
 * after its window) the server keeps reading the store, and a result that arrives late replaces the
 * judgement (recordings/late-results.ts), and the job of that recording is revised with it (found by
 * its instance: the index).
 */
export const provisionalOutcomesMigration: DialectMigration = {
  async up(db) {
    await db.schema.alterTable('recordings').addColumn('provisional_until', 'text').execute();
    await db.schema.createIndex('scheduler_jobs_instance').on('scheduler_jobs').column('instance_id').execute();
  },
};
