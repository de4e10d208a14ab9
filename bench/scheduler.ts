/**
 * The scheduler against docs/architecture.md's budgets: scheduling 10,000 mosques' Friday recordings end to end
 * (POST /api/scheduler/schedule-friday on a real app and database, with the real prayer-times
 * planner) under 2 s; and a due recording launched within 1 s of its start (the real timer, over
 * many jobs). Baselines from the same run: the same scheduling done the bare way on the same database
 * (bench/bare-scheduling.ts), one for each figure, and bare setTimeout lateness for the same instants.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildApp } from '../server/app';
import { loadConfig, type Config } from '../server/config';
import { openDatabase, sqlitePath } from '../server/db';
import { systemClock } from '../server/lib/clock';
import type { FridayPlan, FridayPlanner, LaunchRequest, RecordingLauncher } from '../server/modules/scheduler/ports';
import { SchedulerRepository } from '../server/modules/scheduler/repository';
import { SchedulerService } from '../server/modules/scheduler/service';
import { ManualClock } from '../testkit/manual-clock';
import { ManualTimer, MemoryPreflightChecks, silentAlarms } from '../testkit/scheduler-doubles';
import { bareScheduler, type BareMosque } from './bare-scheduling';
import { median, percentile, round, withRatio, type BenchResult } from './lib';

const MOSQUES = 10_000;
const LATENESS_JOBS = 300;
const CITIES: [number, number, string][] = [
  [21.4225, 39.8262, 'Asia/Riyadh'],
  [30.0444, 31.2357, 'Africa/Cairo'],
  [41.0082, 28.9784, 'Europe/Istanbul'],
  [51.5074, -0.1278, 'Europe/London'],
  [40.7128, -74.006, 'America/New_York'],
  [-6.2088, 106.8456, 'Asia/Jakarta'],
  [24.8607, 67.0011, 'Asia/Karachi'],
  [-33.8688, 151.2093, 'Australia/Sydney'],
  [48.8566, 2.3522, 'Europe/Paris'],
  [43.6532, -79.3832, 'America/Toronto'],
  [-36.8485, 174.7633, 'Pacific/Auckland'],
  [1.3521, 103.8198, 'Asia/Singapore'],
];
const silentLog = { info: () => undefined, warn: () => undefined, error: () => undefined };

async function scratchConfig(): Promise<{ config: Config; dispose(): Promise<void> }> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-scheduler-'));
  const config: Config = {
    ...loadConfig({ NODE_ENV: 'test', DATA_DIR: dataDir, LOG_LEVEL: 'silent', DEMO_STREAM: '0' }),
    consoleDir: undefined,
  };
  return {
    config,
    dispose: async () => {
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

const elapsedMs = (start: bigint) => Number(process.hrtime.bigint() - start) / 1e6;

/** The benchmark's mosques: cities of twelve zones, one in ten with a fixed Jumu'ah time. */
function seedMosques(): BareMosque[] {
  return Array.from({ length: MOSQUES }, (_, i) => {
    const [lat, lng, timezone] = CITIES[i % CITIES.length];
    return {
      id: `b${String(i).padStart(9, '0')}`,
      name: `Mosque ${i}`,
      latitude: lat + ((i * 37) % 100) / 500 - 0.1,
      longitude: lng + ((i * 53) % 100) / 500 - 0.1,
      timezone,
      country_code: 'SA',
      fixed_jumuah_time: i % 10 === 0 ? '13:30' : null,
      url: `https://streams.example/m${i}.m3u8`,
    };
  });
}

/** schedule-friday for 10,000 mosques through HTTP, the real planner, and the database. */
async function schedulingEndToEnd(): Promise<BenchResult[]> {
  const scratch = await scratchConfig();
  const clock = new ManualClock('2026-11-02T09:00:00Z');
  const app = await buildApp(scratch.config, {
    logger: false,
    clock,
    healthCheckIntervalMs: 0,
    scheduler: { timer: new ManualTimer() },
  });
  try {
    await app.ready();
    await app.ctx.scheduler.stop(null); // no re-planning per created mosque while seeding
    const mosques = seedMosques();
    for (const m of mosques) {
      await app.ctx.mosques.create({
        mosque_id: m.id,
        name: m.name,
        languages: ['en'],
        latitude: m.latitude,
        longitude: m.longitude,
        timezone: m.timezone,
        country_code: m.country_code,
        ID_token: m.url,
        ...(m.fixed_jumuah_time ? { fixed_jumuah_time: m.fixed_jumuah_time } : {}),
      });
    }
    await app.ctx.users.bootstrapSuperuser({
      username: 'admin',
      password: 'Admin-pass-1',
      dataDir: scratch.config.dataDir,
    });
    const login = await app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { username: 'admin', password: 'Admin-pass-1' },
    });
    const headers = { authorization: `Bearer ${login.json<{ access_token: string }>().access_token}` };
    const call = async (url: string, payload?: Record<string, unknown>) => {
      const start = process.hrtime.bigint();
      const response = await app.inject({ method: 'POST', url, headers, payload });
      const ms = elapsedMs(start);
      if (response.statusCode !== 200) throw new Error(`${url} answered ${response.statusCode}: ${response.body}`);
      return { ms, data: response.json<{ data: { scheduled: number; created: number } }>().data };
    };
    const schedule = (forceRefresh: boolean) => call('/api/scheduler/schedule-friday', { forceRefresh });
    // Starting the scheduler plans every active mosque: the first run, 10,000 new jobs.
    const first = await call('/api/scheduler/start');
    const jobs = await app.ctx.db.kysely
      .selectFrom('scheduler_jobs')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('kind', '=', 'recording')
      .executeTakeFirstOrThrow();
    if (Number(jobs.n) !== MOSQUES) throw new Error(`expected ${MOSQUES} new jobs, got ${jobs.n}`);
    const again = await schedule(false);
    const refresh = await schedule(true);
    let baselines: { first: number; again: number; refresh: number };

    // Baselines: the same three jobs done the bare way on the same database (bench/bare-scheduling.ts).
    const db = app.ctx.db.kysely;
    const ours = await db
      .selectFrom('scheduler_jobs')
      .select(['mosque_id', 'prayer_time'])
      .where('kind', '=', 'recording')
      .execute();
    await db.deleteFrom('scheduler_jobs').where('kind', '=', 'recording').execute();
    const bare = await bareScheduler(sqlitePath(scratch.config), mosques, clock.now());
    try {
      const bareFirst = await bare.call('/start');
      const bareAgain = await bare.call('/again');
      const bareRefresh = await bare.call('/refresh');
      if (
        bareFirst.data.created !== MOSQUES ||
        bareAgain.data.unchanged !== MOSQUES ||
        bareRefresh.data.unchanged !== MOSQUES
      ) {
        throw new Error(
          `the bare scheduler did not do the same job: ${JSON.stringify([bareFirst.data, bareAgain.data, bareRefresh.data])}`,
        );
      }
      const prayerOf = new Map(ours.map((row) => [row.mosque_id, row.prayer_time]));
      const differing = bare.plans().filter((p) => prayerOf.get(p.mosque_id) !== p.prayer_time);
      if (differing.length > 0)
        throw new Error(
          `the bare scheduler planned ${differing.length} prayers the product did not, e.g. ${JSON.stringify(differing[0])}`,
        );
      baselines = { first: bareFirst.ms, again: bareAgain.ms, refresh: bareRefresh.ms };
    } finally {
      await bare.close();
    }
    const budget = 'scheduling 10,000 mosques under 2 s end to end';
    return [
      withRatio({
        name: 'Scheduler: POST /api/scheduler/start, 10,000 mosques planned (10,000 new jobs)',
        figure: round(first.ms, 1),
        unit: 'ms',
        baseline: round(baselines.first, 1),
        baselineLabel: 'bare Fastify route: adhan for each mosque, 10,000 rows inserted in one transaction',
        budget,
        withinBudget: first.ms < 2000,
      }),
      withRatio({
        name: 'Scheduler: schedule-friday, 10,000 mosques, again (idempotent, no change)',
        figure: round(again.ms, 1),
        unit: 'ms',
        baseline: round(baselines.again, 1),
        baselineLabel: "bare Fastify route: the Fridays' 10,000 rows read and each found present",
        budget,
        withinBudget: again.ms < 2000,
      }),
      withRatio({
        name: 'Scheduler: schedule-friday, 10,000 mosques, forceRefresh',
        figure: round(refresh.ms, 1),
        unit: 'ms',
        baseline: round(baselines.refresh, 1),
        baselineLabel: 'bare Fastify route: the same, every time compared, orphaned future jobs read and cancelled',
        budget,
        withinBudget: refresh.ms < 2000,
      }),
    ];
  } finally {
    await app.close();
    await scratch.dispose();
  }
}

/** Plans one mosque per start instant, all "today" (the bench cannot wait for Friday). */
function instantPlanner(starts: number[]): FridayPlanner {
  return {
    prayerTimes: async () => [],
    activeMosques: async () =>
      starts.map((_, i) => ({ id: `late${String(i).padStart(6, '0')}`, name: `Lateness ${i}` })),
    planFriday: async () => ({
      skipped: [],
      plans: starts.map((start, i): FridayPlan => ({
        mosqueId: `late${String(i).padStart(6, '0')}`,
        mosqueName: `Lateness ${i}`,
        url: 'https://streams.example/x.m3u8',
        prayerAt: new Date(start + 20 * 60_000),
        recordingStart: new Date(start),
        timezone: 'UTC',
      })),
    }),
  };
}

/** How late each due launch starts with the real timer and clock (wall time of the launcher call). */
async function launchLateness(): Promise<BenchResult[]> {
  const scratch = await scratchConfig();
  const db = await openDatabase(scratch.config);
  const lateness: number[] = [];
  const jobStart = new Map<string, number>();
  const launcher: RecordingLauncher = {
    launch: async (request: LaunchRequest) => {
      lateness.push(Date.now() - (jobStart.get(request.jobId) ?? Number.NaN));
      return { instanceId: `i-${request.jobId}`, recordingId: null };
    },
    recordingOf: async () => null,
    launchedFor: async () => null,
  };
  // 300 jobs over ~9 s: one every 50 ms, plus bursts of 20 sharing one instant.
  const t0 = Date.now() + 2000;
  const starts = Array.from({ length: LATENESS_JOBS }, (_, i) =>
    i % 50 < 20 ? t0 + Math.floor(i / 50) * 1500 : t0 + i * 30,
  );
  const planner = instantPlanner(starts);
  const service = new SchedulerService({
    repository: new SchedulerRepository(db.kysely),
    planner,
    launcher,
    clock: systemClock,
    timer: systemClock.timer(),
    publish: () => undefined,
    log: silentLog,
    preflight: new MemoryPreflightChecks(),
    alarms: silentAlarms,
  });
  try {
    await service.boot();
    await service.scheduleFriday({});
    for (const job of await service.jobs('all'))
      if (job.recording_start) jobStart.set(job.id, Date.parse(job.recording_start));
    const until = Math.max(...starts) + 3000;
    while (Date.now() < until && lateness.length < LATENESS_JOBS)
      await new Promise((resolve) => setTimeout(resolve, 100));
    if (lateness.length !== LATENESS_JOBS) throw new Error(`only ${lateness.length} of ${LATENESS_JOBS} jobs launched`);

    // Baseline: bare setTimeout for the same instants, in the same process.
    const bare: number[] = [];
    const base = Date.now() + 500;
    await Promise.all(
      starts.map(
        (s) =>
          new Promise<void>((resolve) =>
            setTimeout(
              () => {
                bare.push(Date.now() - (base + (s - t0)));
                resolve();
              },
              base + (s - t0) - Date.now(),
            ),
          ),
      ),
    );
    const budget = 'a due recording launched within 1 s of its start';
    return [
      withRatio({
        name: `Scheduler: launch lateness, median of ${LATENESS_JOBS} due jobs (real timer)`,
        figure: median(lateness),
        unit: 'ms',
        baseline: Math.max(1, median(bare)),
        baselineLabel: 'bare setTimeout lateness, median',
        budget,
        withinBudget: median(lateness) < 1000,
      }),
      withRatio({
        name: `Scheduler: launch lateness, p95 of ${LATENESS_JOBS} due jobs`,
        figure: percentile(lateness, 95),
        unit: 'ms',
        baseline: Math.max(1, percentile(bare, 95)),
        baselineLabel: 'bare setTimeout lateness, p95',
        budget,
        withinBudget: percentile(lateness, 95) < 1000,
      }),
      withRatio({
        name: `Scheduler: launch lateness, max of ${LATENESS_JOBS} due jobs`,
        figure: Math.max(...lateness),
        unit: 'ms',
        baseline: Math.max(1, ...bare),
        baselineLabel: 'bare setTimeout lateness, max',
        budget,
        withinBudget: Math.max(...lateness) < 1000,
      }),
    ];
  } finally {
    await service.close();
    await db.close();
    await scratch.dispose();
  }
}

export async function run(): Promise<BenchResult[]> {
  return [...(await schedulingEndToEnd()), ...(await launchLateness())];
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  console.table(await run());
}
