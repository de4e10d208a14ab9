import crypto from 'node:crypto';
import os from 'node:os';
import pg from 'pg';
import { openDatabase } from '../server/db';

/*
 * A test app's database starts with its schema in place: each app's database is a copy of one migrated
 * once (a SQLite file made by tests/server/global-setup.ts, a PostgreSQL template database made here
 * once per test process), as a database migrated afresh would be: the migrations seed nothing that
 * differs between runs. Running every migration for each app cost 27 ms of CPU on SQLite and 45 ms
 * (0.6 s of wall time) on PostgreSQL, for each app of the server and PostgreSQL suites.
 */

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
