import type { Migration, MigrationProvider } from 'kysely';
import type { Dialect } from '../dialect';
import type { DialectMigration } from './helpers';
import { authMigration } from './001_auth';

/** Every migration in order. Names are permanent: they are recorded in the database. */
const migrations: Record<string, DialectMigration> = {
  '001_auth': authMigration,
};

export function migrationProvider(dialect: Dialect): MigrationProvider {
  return {
    getMigrations: async () =>
      Object.fromEntries(
        Object.entries(migrations).map(([name, m]): [string, Migration] => [name, { up: (db) => m.up(db, dialect) }]),
      ),
  };
}
