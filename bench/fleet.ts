/**
 * The server at fleet scale, as production runs it (the built server, scheduler running): 10,000
 * mosques with 10,000 pending Friday jobs, then
 * - GET /api/scheduler/upcoming?limit=20 against a bare Fastify route answering the same body;
 * - the latency of a mosque PUT that moves its Friday time (the scheduler re-plans it);
 * - the p99 of an unrelated signed-in GET while 1,000 mosques are created at once.
 * The mosques are written straight into the database before the server starts (loading them is not
 * what is measured); every measured call goes through HTTP with the scheduler running.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { openDatabase } from '../server/db';
import { seededMosqueId, seededZone, seedMosques } from '../testkit/seed-mosques';
import { compare } from './api';
import { percentile, round, type BenchResult } from './lib';
import { call, planEveryFriday, scratchDataDir, signIn, startRealServer } from './servers';

const MOSQUES = 10_000;
const PUTS = 100;
const BURST = 1_000;
/** Creates in flight at once during the burst (a bulk import, or several operators). */
const BURST_CONCURRENCY = 10;
const mosqueId = seededMosqueId;

/**
 * HH:MM in `zone`, `hours` from now. Every mosque here prays at such a time, so no window opens while
 * the benchmark runs, whatever the day: on a Friday the running scheduler launched a real recorder for
 * each mosque whose window was open (up to 140 of them), which loaded the machine it measures on.
 */
const SAFE_HOURS = 6;
function hoursFromNowIn(zone: string, hours: number): string {
  return new Intl.DateTimeFormat('en-GB', {
    timeZone: zone,
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).format(Date.now() + hours * 3_600_000);
}

/** Moves every seeded mosque's Friday prayer to SAFE_HOURS from now in its own zone. */
export async function prayLater(dataDir: string): Promise<void> {
  const db = await openDatabase({ dataDir, databaseUrl: undefined });
  try {
    const zones = await db.kysely.selectFrom('mosques').select('timezone').distinct().execute();
    for (const { timezone } of zones) {
      if (timezone)
        await db.kysely
          .updateTable('mosques')
          .set({ fixed_jumuah_time: hoursFromNowIn(timezone, SAFE_HOURS) })
          .where('timezone', '=', timezone)
          .execute();
    }
  } finally {
    await db.close();
  }
}

async function timed(run: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await run();
  return performance.now() - started;
}

/** PUTs that move a mosque's Friday time, one after another; each is re-planned by the running scheduler. */
async function putLatency(baseUrl: string, token: string): Promise<BenchResult[]> {
  const times: number[] = [];
  for (let i = 0; i < PUTS; i += 1) {
    const index = (i * 97) % MOSQUES;
    const moved = hoursFromNowIn(seededZone(index), SAFE_HOURS + (i % 2 === 0 ? 0.5 : 1));
    times.push(
      await timed(() =>
        call(baseUrl, token, 'PUT', `/api/config/mosques/${mosqueId(index)}`, { fixed_jumuah_time: moved }),
      ),
    );
  }
  return [
    {
      name: `Fleet: mosque PUT moving its Friday time, p50 of ${PUTS} (scheduler running, ${MOSQUES.toLocaleString('en')} jobs)`,
      figure: round(percentile(times, 50), 1),
      unit: 'ms',
      budget: 'p50 under 20 ms',
      withinBudget: percentile(times, 50) < 20,
      budgetRow: 'put',
    },
    { name: `Fleet: mosque PUT, p99 of ${PUTS}`, figure: round(percentile(times, 99), 1), unit: 'ms' },
  ];
}

/**
 * Another operator's GETs, timed back to back by a process of its own (bench/latency-probe.mjs) from
 * when it is ready until `stop`: the timings are the server's, not those of this process's event loop
 * and heap, which generate the burst (the benchmarks before this one run in it too).
 */
async function startProbe(url: string, token: string): Promise<{ stop(): Promise<number[]> }> {
  const child = spawn(process.execPath, [path.join(import.meta.dirname, 'latency-probe.mjs'), url, token], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let output = '';
  child.stdout.setEncoding('utf8');
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  await new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (chunk: string) => {
      output += chunk;
      if (output.startsWith('ready\n')) resolve();
    });
    void exited.then((code) => reject(new Error(`the latency probe exited (${code}) before it was ready`)));
  });
  return {
    async stop() {
      child.kill('SIGTERM');
      const code = await exited;
      if (code !== 0) throw new Error(`the latency probe failed (exit ${code})`);
      return JSON.parse(output.slice('ready\n'.length)) as number[];
    },
  };
}

/** 1,000 creates, BURST_CONCURRENCY at a time, while another user's GET is timed back to back. */
async function burst(baseUrl: string, token: string): Promise<BenchResult[]> {
  const probe = await startProbe(`${baseUrl}/api/auth/verify-token`, await signIn(baseUrl));
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: BURST_CONCURRENCY }, async () => {
      while (next < BURST) {
        const i = next++;
        await call(baseUrl, token, 'POST', '/api/config/mosques', {
          mosque_id: `burst${String(i).padStart(5, '0')}`,
          name: `Burst ${i}`,
          languages: ['en'],
          latitude: 21.4 + i / 10_000,
          longitude: 39.8,
          timezone: 'Asia/Riyadh',
          fixed_jumuah_time: hoursFromNowIn('Asia/Riyadh', SAFE_HOURS),
          ID_token: `https://streams.example.org/b${i}/index.m3u8`,
        });
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  const timings = await probe.stop();
  const p99 = percentile(timings, 99);
  return [
    {
      name: `Fleet: signed-in GET /api/auth/verify-token p99 during a burst of ${BURST.toLocaleString('en')} mosque creates (${timings.length} GETs from another process)`,
      figure: round(p99, 1),
      unit: 'ms',
      budget: 'under 50 ms',
      withinBudget: p99 < 50,
      budgetRow: 'burst',
    },
    { name: '... the same GET, p50', figure: round(percentile(timings, 50), 1), unit: 'ms' },
    {
      name: `Fleet: the burst's creates, ${BURST_CONCURRENCY} at a time`,
      figure: round(BURST / seconds, 1),
      unit: 'creates/s',
    },
  ];
}

export async function run(): Promise<BenchResult[]> {
  const dataDir = scratchDataDir();
  await seedMosques(dataDir, MOSQUES);
  await prayLater(dataDir);
  const server = await startRealServer(dataDir);
  try {
    const token = await signIn(server.baseUrl);
    // Every prayer is SAFE_HOURS away (prayLater): none was launched, every job is pending.
    await planEveryFriday(server.baseUrl, token, MOSQUES);
    return [
      ...(await compare(
        `GET /api/scheduler/upcoming?limit=20 (${MOSQUES.toLocaleString('en')} pending jobs)`,
        `${server.baseUrl}/api/scheduler/upcoming?limit=20`,
        token,
        dataDir,
        {
          // The server serialises one body per list and serves it until a job changes: the bare route sends a stored string too.
          baseline: 'cached',
          budgetRow: 'upcoming',
          minRatio: 0.5,
          maxP99Ms: 25,
        },
      )),
      ...(await putLatency(server.baseUrl, token)),
      ...(await burst(server.baseUrl, token)),
    ];
  } finally {
    await server.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  console.table(await run());
}
