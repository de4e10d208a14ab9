import crypto from 'node:crypto';
import os from 'node:os';
import type pg from 'pg';
import { openDatabase } from '../server/db';
import { databaseUrl, newDatabaseName, onConnection } from './postgres-admin';

/*
 * The migrated database that test apps' PostgreSQL databases are copied from, and what a database
 * handed back must be brought back to before another app may use it (testkit/postgres-database-pool.ts).
 */

/** What the migrations left in the template, as a database handed back is compared with it. */
export interface TemplateState {
  /** Every table, as a quoted name, with its size on disk (pg_total_relation_size: with its indexes and TOAST). */
  tables: { name: string; bytes: string }[];
  /** Tables the migrations wrote rows into (their own ledger among them): the hash of those rows, and the rows as JSON. */
  seeds: Map<string, { hash: string; rows: string }>;
  /** For each table, the tables whose foreign keys point at it (emptying it empties them too). */
  referencedBy: Map<string, string[]>;
  /** The planner's estimates (pg_class) of every table, TOAST table and index, which TRUNCATE, VACUUM and ANALYZE change. */
  estimates: { oid: string; pages: number; tuples: number; visible: number }[];
}

/**
 * The database setting that PostgreSQL's event trigger sets on any schema change (any DDL: a table
 * renamed, a column dropped, a migration run again): a database with it, or any setting of its own,
 * is dropped rather than handed to another app.
 */
const MARK_SCHEMA_CHANGES = `
  CREATE FUNCTION testkit_mark_schema_changed() RETURNS event_trigger LANGUAGE plpgsql AS $$
  BEGIN
    EXECUTE format('ALTER DATABASE %I SET testkit.schema_changed = on', current_database());
  END $$;
  CREATE EVENT TRIGGER testkit_schema_changed ON ddl_command_end EXECUTE FUNCTION testkit_mark_schema_changed();
`;

/** One table's rows as one text, in a stable order: equal texts, equal contents. */
export const contentHash = (table: string): string =>
  `(SELECT md5(coalesce(string_agg(r::text, E'\\n' ORDER BY r::text), '')) FROM ${table} r)`;

/** contentHash of a table without rows. */
const EMPTY_HASH = crypto.createHash('md5').update('').digest('hex');

async function readState(template: pg.Client): Promise<TemplateState> {
  const userTables = `
    SELECT c.oid, c.reltoastrelid FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
    WHERE c.relkind = 'r' AND n.nspname <> 'information_schema' AND n.nspname NOT LIKE 'pg\\_%'`;
  const tables = await template.query<{ name: string; bytes: string }>(
    `SELECT oid::regclass::text AS name, pg_total_relation_size(oid)::text AS bytes FROM (${userTables}) t ORDER BY 1`,
  );
  const estimates = await template.query<TemplateState['estimates'][number]>(`
    WITH heaps AS (SELECT oid FROM (${userTables}) t UNION ALL SELECT reltoastrelid FROM (${userTables}) t WHERE reltoastrelid <> 0)
    SELECT oid::text, relpages AS pages, reltuples AS tuples, relallvisible AS visible FROM pg_class
    WHERE oid IN (SELECT oid FROM heaps UNION ALL SELECT indexrelid FROM pg_index WHERE indrelid IN (SELECT oid FROM heaps))`);
  const calledSequences = await template.query<{ name: string }>(
    'SELECT sequencename AS name FROM pg_sequences WHERE last_value IS NOT NULL',
  );
  // A handed-back database's sequences are set back to their start (postgres-database-pool.ts).
  if (calledSequences.rowCount)
    throw new Error(
      `The migrations used sequences ${calledSequences.rows.map((r) => r.name).join(', ')}: teach testkit/postgres-template.ts their values`,
    );
  const seeds = new Map<string, { hash: string; rows: string }>();
  for (const { name } of tables.rows) {
    const { rows } = await template.query<{ hash: string; rows: string }>(
      `SELECT ${contentHash(name)} AS hash, (SELECT json_agg(r)::text FROM ${name} r) AS rows`,
    );
    if (rows[0].hash !== EMPTY_HASH) seeds.set(name, rows[0]);
  }
  const referencedBy = new Map<string, string[]>();
  const references = await template.query<{ referencing: string; referenced: string }>(
    "SELECT conrelid::regclass::text AS referencing, confrelid::regclass::text AS referenced FROM pg_constraint WHERE contype = 'f'",
  );
  for (const { referencing, referenced } of references.rows)
    referencedBy.set(referenced, [...(referencedBy.get(referenced) ?? []), referencing]);
  return { tables: tables.rows, seeds, referencedBy, estimates: estimates.rows };
}

/** Creates a migrated, otherwise empty database on the server of `adminUrl`; returns its name and state. */
export async function createMigratedTemplate(adminUrl: string): Promise<{ name: string; state: TemplateState }> {
  const name = newDatabaseName('_template');
  await onConnection(adminUrl, (admin) => admin.query(`CREATE DATABASE ${name}`));
  const url = databaseUrl(adminUrl, name);
  // Closed: a template cannot be copied while a session is connected to it.
  await (await openDatabase({ dataDir: os.tmpdir(), databaseUrl: url })).close();
  const state = await onConnection(url, async (template) => {
    await template.query(MARK_SCHEMA_CHANGES);
    return readState(template);
  });
  return { name, state };
}
