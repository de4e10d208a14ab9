import { databaseUrl, newDatabaseName, onConnection } from './postgres-admin';
import { takeMigratedDatabase } from './postgres-database-pool';

/*
 * A test app's database starts with its schema in place: each app's database is a copy of one migrated
 * once (a SQLite file made by tests/server/global-setup.ts, a PostgreSQL template database made once per
 * test process, testkit/postgres-template.ts), as a database migrated afresh would be: the migrations
 * seed nothing that differs between runs. Running every migration for each app cost 27 ms of CPU on
 * SQLite and 45 ms (0.6 s of wall time) on PostgreSQL, for each app of the server and PostgreSQL suites.
 * On PostgreSQL a copy handed back is emptied and handed to the process's next app
 * (testkit/postgres-database-pool.ts says when, and why it is as good as a new copy).
 */

/**
 * Creates a database for one test app on the PostgreSQL named by TEST_DATABASE_URL (a maintenance
 * URL), and returns its URL and a function that drops it. It is empty, or with `migrated` a migrated,
 * otherwise empty database that `drop` hands back for the process's next app.
 */
export async function createPostgresDatabase(
  adminUrl: string,
  { migrated = false } = {},
): Promise<{ url: string; drop(): Promise<void> }> {
  if (migrated) {
    const { url, release } = await takeMigratedDatabase(adminUrl);
    return { url, drop: release };
  }
  const name = newDatabaseName();
  await onConnection(adminUrl, (admin) => admin.query(`CREATE DATABASE ${name}`));
  return {
    url: databaseUrl(adminUrl, name),
    drop: async () => {
      await onConnection(adminUrl, (admin) => admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
    },
  };
}
