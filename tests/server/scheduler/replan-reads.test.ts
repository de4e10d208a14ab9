import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../../../server/db';
import { ManualClock } from '../../../testkit/manual-clock';
import {
  FixedTimePlanner,
  ManualTimer,
  MemoryLauncher,
  MemoryPreflightChecks,
  silentAlarms,
  type PlannedMosque,
} from '../../../testkit/scheduler-doubles';
import { SchedulerRepository } from '../../../server/modules/scheduler/repository';
import { SchedulerService } from '../../../server/modules/scheduler/service';
import { MAX_BATCH } from '../../../server/modules/scheduler/coalescing-queue';
import { createPostgresDatabase } from '../../../testkit/test-database';
import { QueryRecorder } from './query-recorder';

const ZONES = ['Europe/London', 'America/New_York', 'Pacific/Auckland', 'Asia/Karachi'];
const FLEET = 400;
const mosqueId = (i: number) => `m${String(i).padStart(9, '0')}`;
const fleet = (): PlannedMosque[] =>
  Array.from({ length: FLEET }, (_, i) => ({
    id: mosqueId(i),
    name: `Mosque ${i}`,
    url: `https://streams.test/${i}.m3u8`,
    timezone: ZONES[i % ZONES.length],
    fridayPrayer: '13:00',
  }));

/** Re-planning after mosque changes, with every SELECT counted (SQLite, or PostgreSQL with TEST_DATABASE_URL). */
describe('re-planning changed mosques', () => {
  let dataDir: string;
  let db: Db;
  let drop: (() => Promise<void>) | undefined;
  let recorder: QueryRecorder;
  let planner: FixedTimePlanner;
  let service: SchedulerService;
  let changed: (mosqueId: string) => void;

  beforeEach(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'capture-replan-'));
    const pg = process.env.TEST_DATABASE_URL
      ? await createPostgresDatabase(process.env.TEST_DATABASE_URL, { migrated: true })
      : undefined;
    drop = pg?.drop;
    db = await openDatabase({ dataDir, databaseUrl: pg?.url });
    recorder = new QueryRecorder();
    planner = new FixedTimePlanner(fleet());
    service = new SchedulerService({
      repository: new SchedulerRepository(recorder.attach(db.kysely)),
      planner,
      launcher: new MemoryLauncher(),
      clock: new ManualClock('2026-10-31T12:00:00Z'),
      timer: new ManualTimer(),
      publish: () => undefined,
      log: { info: () => undefined, warn: () => undefined, error: () => undefined },
      preflight: new MemoryPreflightChecks(),
      alarms: silentAlarms,
      watchMosques: (listener) => {
        changed = listener;
        return () => undefined;
      },
    });
    await service.boot();
    expect((await service.scheduleFriday({})).created).toBe(FLEET);
    recorder.clear();
  });

  afterEach(async () => {
    await service.close();
    await db.close();
    await drop?.();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  const jobOf = async (id: string) => (await service.jobs('all')).find((job) => job.mosque_id === id);

  it("reads only the changed mosque's job, whatever the size of the fleet", async () => {
    planner.mosques[8].fridayPrayer = '13:30';
    changed(mosqueId(8));
    await service.settled();

    // Re-arming the timer looks up the next due job (one row, by its index); every other read of the
    // jobs is keyed by the mosque, and together they return its one job: a read of every job of the
    // Friday window (FLEET rows) fails this.
    const reads = recorder.of('scheduler_jobs');
    const nextDue = reads.filter((read) => /limit (\?|\$\d+)$/.test(read.sql));
    const planning = reads.filter((read) => !nextDue.includes(read));
    expect(nextDue.every((read) => read.rows <= 1)).toBe(true);
    expect(planning.length).toBeGreaterThan(0);
    for (const read of planning) expect(read.sql).toMatch(/"mosque_id" (=|in)/);
    expect(planning.reduce((sum, read) => sum + read.rows, 0)).toBe(1);
    expect(await jobOf(mosqueId(8))).toMatchObject({
      status: 'scheduled',
      recording_start: '2026-11-06T13:10:00.000Z',
    });
  });

  it('plans a burst of changes in a few batches, losing none of them', async () => {
    for (let i = 0; i < 100; i++) planner.mosques[i].fridayPrayer = '12:45';
    for (let i = 0; i < 100; i++) changed(mosqueId(i));
    // One more change to a mosque already waiting, and one to a mosque that is gone.
    planner.mosques[4].fridayPrayer = '12:50';
    changed(mosqueId(4));
    planner.mosques = planner.mosques.filter((m) => m.id !== mosqueId(200));
    changed(mosqueId(200));
    await service.settled();

    // The first change starts a batch at once; the rest arrive meanwhile and are planned together, in
    // batches of at most MAX_BATCH (102 changes of 101 mosques: not 102 passes).
    const planningReads = recorder.of('scheduler_jobs').filter((read) => read.sql.includes('"friday_date" in'));
    expect(planningReads.length).toBeLessThanOrEqual(Math.ceil(101 / MAX_BATCH) + 2);
    const jobs = await service.jobs('all');
    const byMosque = new Map(jobs.map((job) => [job.mosque_id, job]));
    for (let i = 0; i < 100; i++) expect(byMosque.get(mosqueId(i))?.prayer_time?.slice(11, 16)).not.toBe('13:00');
    expect(byMosque.get(mosqueId(4))?.prayer_time).toBe('2026-11-06T12:50:00.000Z');
    expect(byMosque.get(mosqueId(200))).toMatchObject({
      status: 'cancelled',
      last_error: 'Cancelled: the mosque is no longer active',
    });
    expect(byMosque.get(mosqueId(150))?.prayer_time?.slice(11, 16)).toBeDefined();
  });
});
