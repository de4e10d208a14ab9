/**
 * Start and memory of the built server as `npm start` runs it (plain node, local capture driver),
 * against a bare Fastify on plain node (bench/baseline-server.mjs): spawn to the first 200
 * (GET /api/auth/first-run; the baseline's GET /ok), and resident memory once it answers. The
 * server's figure is on a data directory it has started on before (migrated, superuser created), as
 * every start but the very first; that first one is reported too. Both keep Node's module compile
 * cache between starts (the built server's launcher switches it on; the baseline gets NODE_COMPILE_CACHE).
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { median, round, type BenchResult } from './lib';
import { rssMb, scratchDataDir, startBaselineServer, startRealServer, type RunningServer } from './servers';

const STARTS = 5;
/** Memory is read this long after the first 200, once start-up work has settled. */
const SETTLE_MS = 2000;

interface Start {
  ms: number;
  rss: number;
}

async function measure(launch: () => Promise<RunningServer>): Promise<Start> {
  const server = await launch();
  try {
    await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
    return { ms: server.startMs, rss: rssMb(server.pid) };
  } finally {
    await server.stop();
  }
}

/** STARTS alternating starts of each; the median of each. */
export async function run(): Promise<BenchResult[]> {
  const dataDir = scratchDataDir();
  try {
    const first = await measure(() => startRealServer(dataDir));
    const ours: Start[] = [];
    const bare: Start[] = [];
    for (let i = 0; i < STARTS; i += 1) {
      ours.push(await measure(() => startRealServer(dataDir)));
      bare.push(await measure(() => startBaselineServer()));
    }
    const ms = median(ours.map((s) => s.ms));
    const bareMs = median(bare.map((s) => s.ms));
    const rss = median(ours.map((s) => s.rss));
    const bareRss = median(bare.map((s) => s.rss));
    const label = `bare Fastify on plain node; median of ${STARTS} alternating starts`;
    return [
      {
        name: 'Start: spawn to first 200 (node build/server/main.js)',
        figure: round(ms, 0),
        unit: 'ms',
        baseline: round(bareMs, 0),
        baselineLabel: label,
        ratio: round(ms / bareMs, 2),
        budget: 'at most 2x the baseline',
        withinBudget: ms <= 2 * bareMs,
        budgetRow: 'start',
      },
      {
        name: 'Start: RSS after start, local driver',
        figure: round(rss, 1),
        unit: 'MB',
        baseline: round(bareRss, 1),
        baselineLabel: label,
        ratio: round(rss / bareRss, 2),
        budget: 'at most 2x the baseline',
        withinBudget: rss <= 2 * bareRss,
        budgetRow: 'rss',
      },
      {
        name: 'Start: the very first start (empty data directory: migrations, superuser)',
        figure: round(first.ms, 0),
        unit: 'ms',
        baseline: round(bareMs, 0),
        baselineLabel: label,
        ratio: round(first.ms / bareMs, 2),
      },
    ];
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  console.table(await run());
}
