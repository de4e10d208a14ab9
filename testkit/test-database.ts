import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { openDatabase } from '../server/db';

/*
 * A test app's database starts with its schema in place: the migrations run once per test process into
 * a template, and each app's database is a copy of it (a SQLite file copied, a PostgreSQL database
 * created from the template), as a database migrated afresh would be: the migrations seed nothing
 * that differs between runs. Running every migration for each app cost 27 ms of CPU on SQLite and
 * 45 ms (0.6 s of wall time) on PostgreSQL, for each app of the server and PostgreSQL suites.
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

async function onAdmin<T>(adminUrl: string, work: (admin: pg.Client) => Promise<T>): Promise<T> {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    return await work(admin);
  } finally {
    await admin.end();
  }
}

function databaseUrl(adminUrl: string, name: string): string {
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

const postgresTemplates = new Map<string, Promise<string>>();

/** The name of a migrated, otherwise empty database on this server, made once per process. */
function migratedPostgresTemplate(adminUrl: string): Promise<string> {
  let template = postgresTemplates.get(adminUrl);
  if (!template) {
    template = (async () => {
      const name = `t_${crypto.randomBytes(6).toString('hex')}_template`;
      await onAdmin(adminUrl, (admin) => admin.query(`CREATE DATABASE ${name}`));
      // Closed: a template cannot be copied while a session is connected to it.
      await (await openDatabase({ dataDir: os.tmpdir(), databaseUrl: databaseUrl(adminUrl, name) })).close();
      return name;
    })();
    postgresTemplates.set(adminUrl, template);
  }
  return template;
}

/**
 * Creates a database for one test app on the PostgreSQL named by TEST_DATABASE_URL (a maintenance
 * URL), and returns its URL and a function that drops it. It is empty, or with `migrated` a copy of a
 * migrated, otherwise empty database.
 */
export async function createPostgresDatabase(
  adminUrl: string,
  { migrated = false } = {},
): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `t_${crypto.randomBytes(6).toString('hex')}`;
  const template = migrated ? await migratedPostgresTemplate(adminUrl) : undefined;
  await onAdmin(adminUrl, (admin) => admin.query(`CREATE DATABASE ${name}${template ? ` TEMPLATE ${template}` : ''}`));
  return {
    url: databaseUrl(adminUrl, name),
    drop: async () => {
      await onAdmin(adminUrl, (admin) => admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
    },
  };
}
