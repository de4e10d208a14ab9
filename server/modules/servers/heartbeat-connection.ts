import { Kysely, PostgresDialect } from 'kysely';
import type { Database } from '../../db/schema';
import { HEARTBEAT_MS } from './registry';
import { ServersRepository } from './repository';

/**
 * The servers table on a PostgreSQL connection of the heartbeat's own, outside the shared pool: launches
 * and requests holding every pooled connection (pool time-outs under load) never delay a beat. A
 * connection that hangs fails the beat within HEARTBEAT_MS, and the next beat connects again.
 */
export function openHeartbeatConnection(databaseUrl: string): {
  repository: ServersRepository;
  close(): Promise<void>;
} {
  const kysely = new Kysely<Database>({
    dialect: new PostgresDialect({
      // Loaded only for PostgreSQL (as in db/index.ts): a SQLite server never needs the driver.
      pool: async () => {
        const { default: pg } = await import('pg');
        const pool = new pg.Pool({
          connectionString: databaseUrl,
          max: 1,
          idleTimeoutMillis: 0,
          keepAlive: true,
          connectionTimeoutMillis: HEARTBEAT_MS,
          query_timeout: HEARTBEAT_MS,
          application_name: 'capture heartbeat',
        });
        // A lost connection fails the beat in hand (logged by the registry), never the process.
        pool.on('error', () => undefined);
        pool.on('connect', (client) => client.on('error', () => undefined));
        return pool;
      },
    }),
  });
  return { repository: new ServersRepository(kysely), close: () => kysely.destroy() };
}
