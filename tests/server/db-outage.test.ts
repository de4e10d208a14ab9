// PostgreSQL pass: skipped: it runs its own PostgreSQL cluster, whose backends it terminates, on both passes alike.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../../server/db';
import { startTemporaryPostgres, type TemporaryPostgres } from '../../testkit/postgres';
import { createPostgresDatabase } from '../../testkit/test-database';
import { waitFor } from '../../testkit/wait';

/**
 * PostgreSQL dropping connections (a restart, a failover, an administrator) while the server holds
 * one, between two queries of a transaction: the work fails and is reported, the process lives on,
 * and the next query gets a fresh connection.
 */
describe('PostgreSQL ending a connection the server is using', () => {
  let cluster: TemporaryPostgres;
  let db: Db;
  beforeAll(async () => {
    cluster = await startTemporaryPostgres();
    db = await openDatabase({
      dataDir: cluster.dataDir,
      databaseUrl: (await createPostgresDatabase(cluster.adminUrl)).url,
    });
  });
  afterAll(async () => {
    await db?.close();
    cluster?.destroy();
  });

  it('fails that work without an uncaught error, and the next query answers', async () => {
    const uncaught: unknown[] = [];
    const onUncaught = (error: unknown) => uncaught.push(error);
    process.on('uncaughtException', onUncaught);
    try {
      const failed = await db.kysely
        .transaction()
        .execute(async (trx) => {
          const { rows } = await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(trx);
          // Another session ends this one while the transaction holds its connection, between queries.
          await sql`select pg_terminate_backend(${rows[0].pid})`.execute(db.kysely);
          // Gone from pg_stat_activity once it has told its client and closed: that news reaches the
          // held connection while the polls go back and forth on another.
          await waitFor(
            async () =>
              (await sql`select 1 from pg_stat_activity where pid = ${rows[0].pid}`.execute(db.kysely)).rows.length ===
              0,
            'the session to end',
            10_000,
            20,
          );
          await sql`select 1`.execute(trx);
        })
        .then(
          () => 'committed',
          (error: unknown) => (error instanceof Error ? error.message : String(error)),
        );
      expect(failed).not.toBe('committed');
      expect(uncaught).toEqual([]);
    } finally {
      process.off('uncaughtException', onUncaught);
    }
    const answer = await sql<{ one: number }>`select 1 as one`.execute(db.kysely);
    expect(answer.rows).toEqual([{ one: 1 }]);
  });
});
