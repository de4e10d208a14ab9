import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { openDatabase } from '../server/db';

/*
 * A test app's SQLite database starts with its schema in place: the migrations run once per test
 * process into a template file, and each app's database is a copy of it, as a database migrated
 * afresh would be: the migrations seed nothing that differs between runs. Running every migration for
 * each app of the server suite cost 27 ms of CPU (70 ms of wall time).
 */

let sqliteTemplate: Promise<string> | undefined;

/** A migrated, otherwise empty SQLite file, made once per process and removed when it exits. */
function migratedSqliteFile(): Promise<string> {
  sqliteTemplate ??= (async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'capture-test-template-'));
    process.once('exit', () => fs.rmSync(dataDir, { recursive: true, force: true }));
    // Closed, the database is whole in its one file (SQLite folds the write-ahead log back in).
    await (await openDatabase({ dataDir, databaseUrl: undefined })).close();
    return path.join(dataDir, 'capture.db');
  })();
  return sqliteTemplate;
}

/** Puts a migrated, otherwise empty SQLite database at `file`, unless a database is there already. */
export async function copyMigratedSqlite(file: string): Promise<void> {
  if (fs.existsSync(file)) return;
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.copyFileSync(await migratedSqliteFile(), file);
}

/**
 * Creates an empty database for one test app on the PostgreSQL named by TEST_DATABASE_URL
 * (a maintenance URL), and returns its URL and a function that drops it.
 */
export async function createPostgresDatabase(adminUrl: string): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `t_${crypto.randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const client = new pg.Client({ connectionString: adminUrl });
      await client.connect();
      try {
        await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await client.end();
      }
    },
  };
}
