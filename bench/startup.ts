/**
 * Start and memory of the built server as `npm start` runs it (plain node, local capture driver),
 * against a bare Fastify on plain node (bench/baseline-server.mjs): spawn to the first 200
 * (GET /api/auth/first-run; the baseline's GET /ok), and resident memory once it answers. The
 * server's figure is on a data directory it has started on before (migrated, superuser created), as
 * every start but the very first; that first one is reported too. Both keep Node's module compile
 * cache between starts (the built server's launcher switches it on; the baseline gets NODE_COMPILE_CACHE).
 * The same again at fleet size: a data directory of 10,000 mosques, and the server's memory once its
 * scheduler has planned their Fridays (10,000 jobs), against the same bare Fastify.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { seedMosques } from '../testkit/seed-mosques';
import { prayLater } from './fleet';
import { median, round, type BenchResult } from './lib';
import {
  planEveryFriday,
  rssMb,
  scratchDataDir,
  signIn,
  startBaselineServer,
  startRealServer,
  type RunningServer,
} from './servers';

const STARTS = 5;
const FLEET = 10_000;
/** Memory is read this long after the first 200, once start-up work has settled. */
const SETTLE_MS = 2000;

interface Start {
  ms: number;
  rss: number;
}

const settle = () => new Promise((resolve) => setTimeout(resolve, SETTLE_MS));

async function measure(launch: () => Promise<RunningServer>): Promise<Start> {
  const server = await launch();
  try {
    await settle();
    return { ms: server.startMs, rss: rssMb(server.pid) };
  } finally {
    await server.stop();
  }
}

/** The server's resident memory once its scheduler has planned every mosque's Friday, in MB. */
async function rssAfterPlanning(dataDir: string): Promise<number> {
  const server = await startRealServer(dataDir);
  try {
    const token = await signIn(server.baseUrl);
    await planEveryFriday(server.baseUrl, token, FLEET);
    await settle();
    return rssMb(server.pid);
  } finally {
    await server.stop();
  }
}

/** At fleet size: STARTS alternating starts of each, then memory after planning (the median of three). */
async function fleetRun(): Promise<BenchResult[]> {
  const dataDir = scratchDataDir();
  try {
    await seedMosques(dataDir, FLEET, { withPlaces: true });
    // Every prayer hours away: planning launches nothing, whatever the day.
    await prayLater(dataDir);
    await measure(() => startRealServer(dataDir)); // the first start: migrations and superuser
    const { ms, bareMs, rss, bareRss, label } = await alternatingStarts(dataDir);
    const planned = median(await sequential(3, () => rssAfterPlanning(dataDir)));
    const fleet = FLEET.toLocaleString('en');
    return [
      againstBare(`Start: spawn to first 200 with ${fleet} mosques`, 'ms', ms, bareMs, label, [2, 'fleet-start']),
      againstBare(`Start: RSS after start with ${fleet} mosques`, 'MB', rss, bareRss, label),
      againstBare(
        `Start: RSS once the scheduler planned ${fleet} mosques (${fleet} jobs; median of 3 starts)`,
        'MB',
        planned,
        bareRss,
        label,
        [2.5, 'fleet-rss'],
      ),
    ];
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

/** A figure against the bare Fastify's; `budget`: at most that many times it, and the budgets table's row. */
function againstBare(
  name: string,
  unit: 'ms' | 'MB',
  figure: number,
  baseline: number,
  baselineLabel: string,
  budget?: [times: number, budgetRow: string],
): BenchResult {
  const digits = unit === 'ms' ? 0 : 1;
  return {
    name,
    figure: round(figure, digits),
    unit,
    baseline: round(baseline, digits),
    baselineLabel,
    ratio: round(figure / baseline, 2),
    ...(budget && {
      budget: `at most ${budget[0]}x the baseline`,
      withinBudget: figure <= budget[0] * baseline,
      budgetRow: budget[1],
    }),
  };
}

/** STARTS starts of the server on `dataDir`, each followed by one of the bare Fastify: the medians of each. */
async function alternatingStarts(dataDir: string) {
  const ours: Start[] = [];
  const bare: Start[] = [];
  for (let i = 0; i < STARTS; i += 1) {
    ours.push(await measure(() => startRealServer(dataDir)));
    bare.push(await measure(() => startBaselineServer()));
  }
  return {
    ms: median(ours.map((s) => s.ms)),
    bareMs: median(bare.map((s) => s.ms)),
    rss: median(ours.map((s) => s.rss)),
    bareRss: median(bare.map((s) => s.rss)),
    label: `bare Fastify on plain node; median of ${STARTS} alternating starts`,
  };
}

async function sequential<T>(times: number, job: () => Promise<T>): Promise<T[]> {
  const results: T[] = [];
  for (let i = 0; i < times; i += 1) results.push(await job());
  return results;
}

/** STARTS alternating starts of each; the median of each. Then the same at fleet size. */
export async function run(): Promise<BenchResult[]> {
  return [...(await emptyRun()), ...(await fleetRun())];
}

async function emptyRun(): Promise<BenchResult[]> {
  const dataDir = scratchDataDir();
  try {
    const first = await measure(() => startRealServer(dataDir));
    const { ms, bareMs, rss, bareRss, label } = await alternatingStarts(dataDir);
    return [
      againstBare('Start: spawn to first 200 (node build/server/main.js)', 'ms', ms, bareMs, label, [2, 'start']),
      againstBare('Start: RSS after start, local driver', 'MB', rss, bareRss, label, [2, 'rss']),
      againstBare(
        'Start: the very first start (empty data directory: migrations, superuser)',
        'ms',
        first.ms,
        bareMs,
        label,
      ),
    ];
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  console.table(await run());
}
