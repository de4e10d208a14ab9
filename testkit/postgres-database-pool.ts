import pg from 'pg';
import { databaseUrl, newDatabaseName, onConnection } from './postgres-admin';
import { contentHash, createMigratedTemplate, type TemplateState } from './postgres-template';

/*
 * Migrated databases for test apps, reused within a test process. Copying the template for each app
 * and dropping the copy after cost the database server about 0.33 s of CPU per app; emptying a
 * database handed back costs a fraction of that (docs/testing.md, "What the lanes cost"). An app never
 * shares its database with a live app: a database is handed out again only after
 * - every session of the app that had it is ended, and the database renamed, so that a client the
 *   app left behind finds no database by the name it knew, as when it was dropped;
 * - it is checked for schema changes (testkit/postgres-template.ts): one that had any is dropped;
 * - every table whose rows, or size on disk, differ from the template's is emptied (with the tables
 *   that reference it) and the migrations' own rows put back; the sequences are set back to their
 *   start, the planner's statistics and estimates to the template's, and the activity counters that
 *   autovacuum goes by to zero: the next app finds it as it would find a new copy (the pool's test,
 *   tests/server/testkit/postgres-database-pool.test.ts, compares the two).
 */

interface Pool {
  template: Promise<{ name: string; state: TemplateState }>;
  idle: string[];
}

const pools = new Map<string, Pool>();

function poolOf(adminUrl: string): Pool {
  let pool = pools.get(adminUrl);
  if (!pool) {
    pool = { template: createMigratedTemplate(adminUrl), idle: [] };
    pools.set(adminUrl, pool);
  }
  return pool;
}

/** A new copy of this process's migrated template on the server of `adminUrl`; returns its name. */
export async function copyMigratedTemplate(adminUrl: string): Promise<string> {
  const template = await poolOf(adminUrl).template;
  const name = newDatabaseName();
  await onConnection(adminUrl, (admin) => admin.query(`CREATE DATABASE ${name} TEMPLATE ${template.name}`));
  return name;
}

/** A migrated, otherwise empty database of its own for one app; `release` when the app is closed. */
export async function takeMigratedDatabase(adminUrl: string): Promise<{ url: string; release(): Promise<void> }> {
  const pool = poolOf(adminUrl);
  const template = await pool.template;
  const taken = pool.idle.pop() ?? (await copyMigratedTemplate(adminUrl));
  const handBack = async () => {
    const renamed = await closeAndRename(adminUrl, taken);
    if (!renamed) return;
    try {
      await onConnection(databaseUrl(adminUrl, renamed), (client) => bringBack(client, template.state));
    } catch (error) {
      await onConnection(adminUrl, (admin) => admin.query(`DROP DATABASE ${renamed} WITH (FORCE)`));
      throw error;
    }
    pool.idle.push(renamed);
  };
  let handedBack: Promise<void> | undefined;
  // Once: a test may close its app twice, as dropping a database twice was harmless.
  return { url: databaseUrl(adminUrl, taken), release: () => (handedBack ??= handBack()) };
}

/**
 * Ends every session on `name` and renames it; returns the new name, or undefined when the database
 * was dropped instead (its schema changed, or a session would not end).
 */
async function closeAndRename(adminUrl: string, name: string): Promise<string | undefined> {
  return onConnection(adminUrl, async (admin) => {
    // Refused first, so that a client of the app cannot come back between the ending and the renaming.
    await admin.query(`ALTER DATABASE ${name} WITH ALLOW_CONNECTIONS false`);
    await admin.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1', [name]);
    const renamed = newDatabaseName();
    try {
      // Waits up to 5 s for the ended sessions to be gone, as DROP DATABASE does.
      await admin.query(`ALTER DATABASE ${name} RENAME TO ${renamed}`);
    } catch {
      await admin.query(`DROP DATABASE ${name} WITH (FORCE)`);
      return undefined;
    }
    const settings = await admin.query(
      'SELECT 1 FROM pg_db_role_setting s JOIN pg_database d ON d.oid = s.setdatabase WHERE d.datname = $1',
      [renamed],
    );
    if (settings.rowCount) {
      await admin.query(`DROP DATABASE ${renamed}`);
      return undefined;
    }
    await admin.query(`ALTER DATABASE ${renamed} WITH ALLOW_CONNECTIONS true`);
    return renamed;
  });
}

/** Brings the data of a database whose schema is the template's back to the template's. */
async function bringBack(client: pg.Client, template: TemplateState): Promise<void> {
  // Emptied: a table with other rows than the template's, or of another size on disk (rows deleted, or vacuumed).
  const differs = ({ name, bytes }: TemplateState['tables'][number]) => {
    const seed = template.seeds.get(name);
    const rows = seed ? `${contentHash(name)} <> ${pg.escapeLiteral(seed.hash)}` : `EXISTS (SELECT FROM ${name})`;
    return `${rows} OR pg_total_relation_size(${pg.escapeLiteral(name)}::regclass) <> ${bytes}`;
  };
  const checks = template.tables.map(
    (table) => `SELECT ${pg.escapeLiteral(table.name)} AS name WHERE ${differs(table)}`,
  );
  const changed = (await client.query<{ name: string }>(checks.join(' UNION ALL '))).rows.map((row) => row.name);
  const emptied = new Set<string>();
  const empty = (table: string) => {
    if (emptied.has(table)) return;
    emptied.add(table);
    for (const referencing of template.referencedBy.get(table) ?? []) empty(referencing);
  };
  changed.forEach(empty);
  const tables = [...emptied];
  const reseeded = tables.flatMap((table) => {
    const seed = template.seeds.get(table);
    return seed
      ? [`INSERT INTO ${table} SELECT * FROM json_populate_recordset(NULL::${table}, ${pg.escapeLiteral(seed.rows)});`]
      : [];
  });
  const estimates = template.estimates.map(
    ({ oid, pages, tuples, visible }) => `(${pg.escapeLiteral(oid)}::oid, ${pages}, ${tuples}::real, ${visible})`,
  );
  await client.query(`
    BEGIN;
    ${tables.length ? `TRUNCATE ${tables.join(', ')};` : ''}
    ${reseeded.join('\n')}
    SELECT setval(format('%I.%I', schemaname, sequencename), start_value, false) FROM pg_sequences WHERE last_value IS NOT NULL;
    -- The planner's view as in a new copy: no statistics from ANALYZE, the template's size estimates.
    DELETE FROM pg_statistic WHERE starelid IN (SELECT oid::oid FROM (VALUES ${estimates.join(', ')}) AS t(oid));
    UPDATE pg_class c SET relpages = t.pages, reltuples = t.tuples, relallvisible = t.visible
    FROM (VALUES ${estimates.join(', ')}) AS t(oid, pages, tuples, visible)
    WHERE c.oid = t.oid AND (c.relpages, c.reltuples, c.relallvisible) IS DISTINCT FROM (t.pages, t.tuples, t.visible);
    COMMIT;
    SELECT pg_stat_reset();
  `);
}
