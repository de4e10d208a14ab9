import crypto from 'node:crypto';
import pg from 'pg';

/** Runs `work` on a connection of its own to `url`, closed afterwards. */
export async function onConnection<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** The URL of database `name` on the server of `adminUrl`. */
export function databaseUrl(adminUrl: string, name: string): string {
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/** A name no other test database has; `t_` marks the test databases on a shared server. */
export const newDatabaseName = (suffix = ''): string => `t_${crypto.randomBytes(6).toString('hex')}${suffix}`;
