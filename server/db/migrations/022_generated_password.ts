import { flag, type DialectMigration } from './helpers';

/*
 * Whether an account still signs in with the password the server generated at its first start: the
 * console nudges that superuser until it is replaced. Set by the first start, cleared by any change of
 * that account's password. Known to the database rather than read from the password file, so every
 * server sharing it gives the same answer.
 */
export const generatedPasswordMigration: DialectMigration = {
  async up(db) {
    await db.schema.alterTable('users').addColumn('password_generated', 'integer', flag(0)).execute();
  },
};
