import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CompiledQuery } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../../../server/db';
import { SchedulerRepository, type NewJobRow } from '../../../server/modules/scheduler/repository';
import { queryPlans } from '../../../testkit/query-plans';
import { createPostgresDatabase } from '../../../testkit/test-database';

const JOBS = 4000;
/** As on a server with a few months of history: most jobs finished, the coming Friday's pending. */
const statusOf = (i: number) =>
  i % 20 === 0 ? 'scheduled' : i % 20 === 1 ? 'launching' : i % 20 === 2 ? 'missed' : 'captured';

function job(i: number): NewJobRow {
  const start = new Date(Date.UTC(2026, 10, 6, 10) + (i % 600) * 60_000).toISOString();
  return {
    id: `friday-m${i}-2026-11-06`,
    kind: 'recording',
    name: `Friday recording: ${i}`,
    func: 'record',
    trigger: `date[${start}]`,
    next_run_time: start,
    status: statusOf(i),
    mosque_id: `m${i}`,
    mosque_name: `Mosque ${i}`,
    friday_date: i % 2 === 0 ? '2026-11-06' : '2026-10-30',
    prayer_time: start,
    timezone: 'UTC',
    recording_start: start,
    recording_end: start,
    url: 'https://streams.test/x.m3u8',
    duration: 7200,
    width: 1280,
    height: 720,
    attempts: 0,
    created_at: start,
    updated_at: i % 100 === 3 ? '2026-11-06T00:00:00.000Z' : '2026-01-01T00:00:00.000Z',
  };
}

/**
 * The plans the databases choose for the scheduler's hot reads, with a few thousand jobs: each
 * must go through its index (no full scan, no sort of every pending job). SQLite by EXPLAIN QUERY
 * PLAN, without statistics as a server runs; PostgreSQL (TEST_DATABASE_URL) by EXPLAIN after ANALYZE.
 */
describe('scheduler job reads use their indexes', () => {
  let dataDir: string;
  let db: Db;
  let drop: (() => Promise<void>) | undefined;
  let planner: ReturnType<typeof queryPlans>;
  let repository: SchedulerRepository;

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'capture-indexes-'));
    const pg = process.env.TEST_DATABASE_URL ? await createPostgresDatabase(process.env.TEST_DATABASE_URL) : undefined;
    drop = pg?.drop;
    db = await openDatabase({ dataDir, databaseUrl: pg?.url });
    await new SchedulerRepository(db.kysely).insertMany(Array.from({ length: JOBS }, (_, i) => job(i)));
    // PostgreSQL's autovacuum gathers statistics after such a load; SQLite never does unless told to,
    // so it is checked as a server runs it: without them.
    if (db.dialect === 'postgres') await db.kysely.executeQuery(CompiledQuery.raw('ANALYZE scheduler_jobs'));
    planner = queryPlans(db);
    repository = new SchedulerRepository(planner.recording);
  });

  afterAll(async () => {
    await db.close();
    await drop?.();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  const plansOf = (read: () => Promise<unknown>) => planner.plansOf(read);
  const usesIndex = (plan: string, index: string) => planner.usesIndex(plan, index);

  it("re-planning reads a mosque's jobs through the (mosque_id, friday_date) index", async () => {
    const plans = await plansOf(() => repository.recordingsOfMosques(['m10', 'm11'], ['2026-10-30', '2026-11-06']));
    expect(plans).toHaveLength(1);
    expect(usesIndex(plans[0], 'scheduler_jobs_mosque_friday')).toBe(true);
    const orphans = await plansOf(() => repository.untouchedFuture('2026-11-01T00:00:00.000Z', ['m10']));
    expect(usesIndex(orphans[0], 'scheduler_jobs_mosque_friday')).toBe(true);
  });

  it('upcoming walks the upcoming index in order and stops at the limit', async () => {
    const plans = await plansOf(() => repository.upcoming(20));
    expect(plans).toHaveLength(2);
    for (const plan of plans) {
      expect(usesIndex(plan, 'scheduler_jobs_upcoming')).toBe(true);
      expect(plan).not.toMatch(/TEMP B-TREE|Sort/);
    }
    const rows = await repository.upcoming(20);
    expect(rows).toHaveLength(20);
    expect(rows.every((row) => row.status === 'scheduled' || row.status === 'launching')).toBe(true);
    expect(rows.map((row) => row.recording_start)).toEqual(rows.map((row) => row.recording_start).sort());
  });

  it('the recent jobs list finds touched jobs through the updated_at index', async () => {
    const plans = await plansOf(() => repository.list('2026-11-01T00:00:00.000Z'));
    expect(usesIndex(plans[0], 'scheduler_jobs_updated')).toBe(true);
  });
});
