import { sql } from 'kysely';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { databaseUrl, onConnection } from '../../../testkit/postgres-admin';
import { copyMigratedTemplate } from '../../../testkit/postgres-database-pool';
import { createPostgresDatabase } from '../../../testkit/test-database';
import { createTestApp, type TestApp } from '../helpers/test-app';

const adminUrl = process.env.TEST_DATABASE_URL ?? '';

/** What a test could see of a database besides its schema: rows, sequences, the planner's statistics, settings. */
function snapshot(url: string) {
  return onConnection(url, async (client) => {
    const relations = await client.query<{ name: string; kind: string }>(`
      SELECT c.oid::regclass::text AS name, c.relkind AS kind, c.relpages AS pages, c.reltuples AS tuples,
             c.relallvisible AS visible, (SELECT count(*) FROM pg_statistic WHERE starelid = c.oid)::int AS statistics,
             pg_relation_size(c.oid)::int AS main, pg_relation_size(c.oid, 'fsm')::int AS fsm, pg_relation_size(c.oid, 'vm')::int AS vm
      FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = 'public' OR c.oid IN (SELECT reltoastrelid FROM pg_class WHERE relnamespace = 'public'::regnamespace)
      ORDER BY 1`);
    const contents: Record<string, unknown> = {};
    for (const { name } of relations.rows.filter((relation) => relation.kind === 'r'))
      contents[name] = (await client.query(`SELECT * FROM ${name} ORDER BY 1`)).rows;
    const sequences = await client.query('SELECT sequencename, last_value FROM pg_sequences ORDER BY 1');
    const settings = await client.query(
      'SELECT setconfig FROM pg_db_role_setting s JOIN pg_database d ON d.oid = s.setdatabase WHERE d.datname = current_database()',
    );
    return { relations: relations.rows, contents, sequences: sequences.rows, settings: settings.rows };
  });
}

const databaseOid = (url: string | undefined): Promise<number> =>
  onConnection(url ?? '', async (client) => {
    const { rows } = await client.query<{ oid: number }>(
      'SELECT oid::int AS oid FROM pg_database WHERE datname = current_database()',
    );
    return rows[0].oid;
  });

const databaseExists = (oid: number) =>
  onConnection(
    adminUrl,
    async (admin) => (await admin.query('SELECT 1 FROM pg_database WHERE oid = $1', [oid])).rowCount === 1,
  );

// testkit/postgres-database-pool.ts: a test app's PostgreSQL database is handed to the process's next app.
describe.skipIf(!process.env.TEST_DATABASE_URL)('the pool of migrated PostgreSQL databases', () => {
  const apps: TestApp[] = [];
  afterEach(async () => {
    await Promise.all(apps.splice(0).map((t) => t.close()));
  });
  const app = async () => {
    const t = await createTestApp();
    apps.push(t);
    return t;
  };

  it('hands the database of a closed app to the next app, as a new copy of the template', async () => {
    const first = await app();
    const { token } = await first.createUser({ username: 'leftover' });
    expect((await first.request({ method: 'GET', url: '/api/auth/verify-token', token })).statusCode).toBe(200);
    // The planner's statistics and sizes too: a later test's query plans must not depend on this one.
    await sql`VACUUM ANALYZE`.execute(first.app.ctx.db.kysely);
    const oid = await databaseOid(first.config.databaseUrl);
    await apps.pop()?.close();

    const next = await createPostgresDatabase(adminUrl, { migrated: true });
    const fresh = await copyMigratedTemplate(adminUrl);
    try {
      const reused = await snapshot(next.url);
      expect(await databaseOid(next.url)).toBe(oid);
      expect(reused).toEqual(await snapshot(databaseUrl(adminUrl, fresh)));
      expect(reused.contents.users).toEqual([]);
      expect(reused.contents.auth_generation).toEqual([{ id: 1, generation: 0 }]);
    } finally {
      await next.drop();
      await onConnection(adminUrl, (admin) => admin.query(`DROP DATABASE ${fresh}`));
    }
  });

  it('drops a database whose schema a test changed, even changed back', async () => {
    const first = await app();
    await sql`ALTER TABLE activity RENAME TO activity_moved`.execute(first.app.ctx.db.kysely);
    await sql`ALTER TABLE activity_moved RENAME TO activity`.execute(first.app.ctx.db.kysely);
    const oid = await databaseOid(first.config.databaseUrl);
    await apps.pop()?.close();
    expect(await databaseExists(oid)).toBe(false);
  });

  it('ends the sessions a closed app left open, and its database is gone by the name they knew', async () => {
    const database = await createPostgresDatabase(adminUrl, { migrated: true });
    const leftBehind = new pg.Client({ connectionString: database.url });
    await leftBehind.connect();
    leftBehind.on('error', () => undefined);
    await database.drop();
    await expect(leftBehind.query('SELECT 1')).rejects.toThrow();
    await expect(onConnection(database.url, (client) => client.query('SELECT 1'))).rejects.toThrow(/does not exist/);
  });

  it('hands on the database of an app that started, migrations and all, and was used', async () => {
    const first = await app();
    await first.login();
    const oid = await databaseOid(first.config.databaseUrl);
    await apps.pop()?.close();
    expect(await databaseOid((await app()).config.databaseUrl)).toBe(oid);
  });
});
