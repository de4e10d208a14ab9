import fs from 'node:fs';
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { LRUCache } from 'lru-cache';
import { Kysely, Migrator, PostgresDialect, SqliteDialect, type SqliteDialectConfig } from 'kysely';
import type { Config } from '../config';
import { dialectOf, type Dialect } from './dialect';
import { migrationProvider } from './migrations';
import type { Database } from './schema';

export type { Database } from './schema';
export type { Dialect } from './dialect';

export interface Db {
  kysely: Kysely<Database>;
  dialect: Dialect;
  close(): Promise<void>;
}

export function sqlitePath(config: Pick<Config, 'dataDir' | 'databaseUrl'>): string {
  const url = config.databaseUrl;
  if (url?.startsWith('sqlite:') || url?.startsWith('file:')) return url.replace(/^(sqlite|file):(\/\/)?/, '');
  return path.join(config.dataDir, 'capture.db');
}

/** Opens the database named by the configuration and brings its schema up to date. */
export async function openDatabase(config: Pick<Config, 'dataDir' | 'databaseUrl'>): Promise<Db> {
  const dialect = dialectOf(config.databaseUrl);
  let kysely: Kysely<Database>;
  if (dialect === 'postgres') {
    // Loaded only for PostgreSQL: a SQLite server never needs the driver.
    const { default: pg } = await import('pg');
    // COUNT(*) and other int8 results arrive as strings from pg; every count here fits in a double.
    pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value));
    const pool = new pg.Pool({ connectionString: config.databaseUrl, max: 10, connectionTimeoutMillis: 5000 });
    // An idle client that loses its server must not crash the process; the next query reports it.
    pool.on('error', () => undefined);
    // A client in use then emits 'error' too, and pg-pool listens only while a client is idle: without
    // this the server died when PostgreSQL went away under a query. The query still fails (503), and
    // the broken client is dropped from the pool when it is released.
    pool.on('connect', (client) => client.on('error', () => undefined));
    kysely = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  } else {
    const file = sqlitePath(config);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    const sqlite = new SqliteDatabase(file);
    sqlite.pragma('journal_mode = WAL');
    sqlite.pragma('synchronous = NORMAL');
    sqlite.pragma('foreign_keys = ON');
    sqlite.pragma('busy_timeout = 5000');
    kysely = new Kysely<Database>({ dialect: new SqliteDialect({ database: withStatementCache(sqlite) }) });
  }
  const db: Db = { kysely, dialect, close: () => kysely.destroy() };
  await migrate(db);
  return db;
}

/** Prepared statements kept per SQL text; beyond this many, the least recently used is dropped. */
const STATEMENT_CACHE_SIZE = 500;

/**
 * Kysely prepares every query afresh, and parsing the SQL was a tenth of the CPU of an authenticated
 * request (the session lookup alone). The same texts recur, so their statements are kept and reused;
 * one that is busy (a streamed read still open) is not shared, a fresh one is prepared instead.
 */
function withStatementCache(sqlite: SqliteDatabase.Database): SqliteDialectConfig['database'] {
  const statements = new LRUCache<string, SqliteDatabase.Statement>({ max: STATEMENT_CACHE_SIZE });
  return {
    close: () => {
      statements.clear();
      sqlite.close();
    },
    prepare: (sql: string) => {
      const cached = statements.get(sql);
      if (cached && !cached.busy) return cached;
      const statement = sqlite.prepare(sql);
      if (cached) return statement;
      statements.set(sql, statement);
      return statement;
    },
  };
}

async function migrate(db: Db): Promise<void> {
  // Numbers are handed to changes made side by side, so a lower one may land after a higher one ran
  // (018 after 019 and 020): it is applied then, rather than refused as out of order.
  const migrator = new Migrator({
    db: db.kysely,
    provider: migrationProvider(db.dialect),
    allowUnorderedMigrations: true,
  });
  const { error, results } = await migrator.migrateToLatest();
  if (error) {
    const failed = results?.find((r) => r.status === 'Error')?.migrationName ?? 'unknown';
    throw new Error(`Database migration ${failed} failed: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/** 0/1 column to boolean and back. */
export const toFlag = (value: boolean): number => (value ? 1 : 0);
export const fromFlag = (value: number | boolean): boolean => Boolean(value);
