import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../../server/db';
import { TableWriteCounter } from '../../server/db/write-counter';
import { createPostgresDatabase } from '../../testkit/test-database';

describe('TableWriteCounter', () => {
  let db: Db | undefined;
  let dataDir: string | undefined;
  let pg: Awaited<ReturnType<typeof createPostgresDatabase>> | undefined;
  afterEach(async () => {
    await db?.close();
    await pg?.drop();
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('counts completed inserts, updates and deletes of its table, and nothing else', async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'write-counter-'));
    // The PostgreSQL pass runs this file there too: the counter must read that driver's results alike.
    pg = process.env.TEST_DATABASE_URL ? await createPostgresDatabase(process.env.TEST_DATABASE_URL) : undefined;
    db = await openDatabase({ dataDir, databaseUrl: pg?.url });
    const counter = new TableWriteCounter('settings');
    const counted = db.kysely.withPlugin(counter);
    const setting = { key: 'counted', value: '1', updated_at: new Date().toISOString(), updated_by: null };

    await counted.insertInto('settings').values(setting).execute();
    expect(counter.count).toBe(1);
    await counted.selectFrom('settings').selectAll().execute();
    await counted.selectFrom('users').selectAll().execute();
    expect(counter.count).toBe(1);
    await counted.updateTable('settings').set({ value: '2' }).where('key', '=', 'counted').execute();
    await counted.deleteFrom('settings as s').where('s.key', '=', 'counted').execute();
    expect(counter.count).toBe(3);
    // A statement that fails changed nothing; a write through the plain instance is not this counter's.
    await counted.insertInto('settings').values(setting).execute();
    await expect(counted.insertInto('settings').values(setting).execute()).rejects.toThrow();
    await db.kysely
      .insertInto('settings')
      .values({ ...setting, key: 'uncounted' })
      .execute();
    expect(counter.count).toBe(4);
  });
});
