import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CompiledQuery } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../../../server/db';
import { mosquesPage } from '../../../server/modules/mosques/page-query';
import { queryPlans } from '../../../testkit/query-plans';
import { seedMosques } from '../../../testkit/seed-mosques';
import { createPostgresDatabase } from '../../../testkit/test-database';

/**
 * The mosque table's first page at fleet size (the Config Generator's opening view): read through the
 * (created_at, mosque_id) index and stopped at the page, not all 3,000 rows sorted for ten.
 */
describe("the mosque table's default page uses its index", () => {
  let dataDir: string;
  let db: Db;
  let drop: (() => Promise<void>) | undefined;
  let planner: ReturnType<typeof queryPlans>;

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'capture-mosque-plan-'));
    const pg = process.env.TEST_DATABASE_URL ? await createPostgresDatabase(process.env.TEST_DATABASE_URL) : undefined;
    drop = pg?.drop;
    await seedMosques(dataDir, 3000, { withPlaces: true, databaseUrl: pg?.url });
    db = await openDatabase({ dataDir, databaseUrl: pg?.url });
    if (db.dialect === 'postgres') await db.kysely.executeQuery(CompiledQuery.raw('ANALYZE mosques'));
    planner = queryPlans(db);
  });

  afterAll(async () => {
    await db.close();
    await drop?.();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  for (const order of ['asc', 'desc'] as const) {
    it(`oldest ${order === 'asc' ? 'first' : 'last'}: walks mosques_created_at and sorts nothing`, async () => {
      const [rowsPlan] = await planner.plansOf(() => mosquesPage(planner.recording, { order, limit: 10 }));
      expect(planner.usesIndex(rowsPlan, 'mosques_created_at'), rowsPlan).toBe(true);
      expect(rowsPlan).not.toMatch(/TEMP B-TREE|Sort/);
      const { rows, total } = await mosquesPage(db.kysely, { order, limit: 10 });
      expect(total).toBe(3000);
      expect(rows).toHaveLength(10);
    });
  }
});
