/**
 * API throughput: requests per second and p50/p99 latency of authenticated GET /api/instances/
 * (200 instances) at 50 connections against a bare Fastify route sending the very same body as a
 * stored string, as the fleet service keeps it (bench/baseline-server.mjs on plain node, as the
 * built server runs). The two are loaded in alternating rounds and each figure is the median round,
 * so that a burst of other work on the machine weighs on both alike and one burst does not make the
 * figure. fleet.ts uses the same comparison for the scheduler's upcoming list.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { openDatabase, sqlitePath } from '../server/db';
import { median, round, type BenchResult } from './lib';
import { scratchDataDir, signIn, startBaselineServer, startRealServer } from './servers';

const CONNECTIONS = 50;
const ROUNDS = 5;
const SECONDS = 3;
const INSTANCES = 200;

interface Load {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
}

async function load(url: string, token: string | undefined, seconds: number): Promise<Load> {
  const headers = token ? { authorization: `Bearer ${token}` } : {};
  const result = await autocannon({ url, connections: CONNECTIONS, headers, duration: seconds });
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.non2xx + result.errors,
  };
}

/** Warm-up of each (JIT, caches, connections), then ROUNDS alternating rounds; the median round of each. */
async function alternate(
  ourUrl: string,
  token: string,
  bareUrl: string,
  bareToken: string | undefined,
): Promise<{ ours: Load; bare: Load }> {
  await load(ourUrl, token, 2);
  await load(bareUrl, bareToken, 2);
  const ours: Load[] = [];
  const bare: Load[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    ours.push(await load(ourUrl, token, SECONDS));
    bare.push(await load(bareUrl, bareToken, SECONDS));
  }
  const middle = (loads: Load[]): Load => ({
    rps: median(loads.map((l) => l.rps)),
    p50: median(loads.map((l) => l.p50)),
    p99: median(loads.map((l) => l.p99)),
    errors: loads.reduce((sum, l) => sum + l.errors, 0),
  });
  return { ours: middle(ours), bare: middle(bare) };
}

/** Writes 200 finished and live instances of another recorder scope, so the server lists but never reconciles them. */
async function seedInstances(dataDir: string): Promise<void> {
  const db = await openDatabase({ dataDir, databaseUrl: undefined });
  const states = ['running', 'pending', 'stopped', 'terminated'] as const;
  const launched = Date.parse('2026-11-20T09:00:00Z');
  await db.kysely
    .insertInto('instances')
    .values(
      Array.from({ length: INSTANCES }, (_, i) => ({
        id: `bench-${String(i).padStart(4, '0')}`,
        provider: 'local',
        scope: 'bench-seed',
        provider_instance_id: `bench-${i}`,
        name: `Recorder ${i}`,
        state: states[i % states.length],
        instance_type: 'local-ffmpeg',
        mosque_id: `mosque${String(i % 50).padStart(4, '0')}`,
        url: `https://streams.example.org/${i}/index.m3u8`,
        method: 'api',
        duration: 7200,
        width: 1280,
        height: 720,
        image_id: null,
        launch_time: new Date(launched + i * 60_000).toISOString(),
        running_at: null,
        ended_at: null,
        state_reason: null,
        job_id: null,
        updated_at: new Date(launched + i * 60_000).toISOString(),
      })),
    )
    .execute();
  await db.close();
}

export interface Comparison {
  /**
   * The baseline sends the body as a stored string (the product caches it), serialises it per request
   * (it does not), or does the whole job per request: the token checked, Config's page read from the
   * same database and serialised (`mosques-page`, for GET /api/config/mosques?limit=10).
   */
  baseline: 'cached' | 'json' | 'mosques-page';
  /** The budgets-table row and its test: throughput ratio, and p99 under this many ms. */
  budgetRow?: string;
  minRatio?: number;
  maxP99Ms?: number;
}

/** A baseline that builds its own answer must answer the product's very body, or it does other work. */
async function sameBody(bareUrl: string, token: string, expected: string): Promise<void> {
  const bare = await fetch(bareUrl, { headers: { authorization: `Bearer ${token}` } }).then((r) => r.text());
  if (bare !== expected) throw new Error(`the baseline's body differs from the product's:\n${bare}\n${expected}`);
}

/** Loads `url` (signed in) and a bare route answering its very body, in alternating rounds. */
export async function compare(
  name: string,
  url: string,
  token: string,
  dataDir: string,
  how: Comparison,
): Promise<BenchResult[]> {
  const response = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
  if (!response.ok) throw new Error(`${url}: ${response.status}`);
  const bodyFile = path.join(dataDir, `${name.replace(/\W+/g, '-')}.json`);
  const body = await response.text();
  fs.writeFileSync(bodyFile, body);
  const readsDatabase = how.baseline === 'mosques-page';
  const baseline = await startBaselineServer(
    bodyFile,
    readsDatabase ? { BASELINE_DB_FILE: sqlitePath({ dataDir, databaseUrl: undefined }), BASELINE_TOKEN: token } : {},
  );
  try {
    const query = new URL(url).search;
    const bareUrl = `${baseline.baseUrl}/${how.baseline}${readsDatabase ? query : ''}`;
    if (readsDatabase) await sameBody(bareUrl, token, body);
    const { ours, bare } = await alternate(url, token, bareUrl, readsDatabase ? token : undefined);
    const sends = {
      cached: 'sending the same body as a stored string',
      json: 'serialising the same body per request',
      'mosques-page':
        'checking the same token, reading the same page and count from the same database and serialising it per request',
    }[how.baseline];
    const label = `bare Fastify route ${sends}; median of ${ROUNDS} alternating rounds of ${SECONDS} s`;
    if (ours.errors > 0) throw new Error(`${name}: ${ours.errors} failed requests under load`);
    if (bare.errors > 0) throw new Error(`${name}: the baseline failed ${bare.errors} requests under load`);
    const ratio = round(ours.rps / bare.rps, 3);
    const withinRatio = how.minRatio === undefined ? undefined : ratio >= how.minRatio;
    const withinP99 = how.maxP99Ms === undefined ? undefined : ours.p99 < how.maxP99Ms;
    return [
      {
        name: `API: ${name} throughput at ${CONNECTIONS} connections`,
        figure: round(ours.rps, 0),
        unit: 'req/s',
        baseline: round(bare.rps, 0),
        baselineLabel: label,
        ratio,
        budget: how.minRatio === undefined ? undefined : `at least ${how.minRatio}x the baseline`,
        withinBudget: withinRatio,
        budgetRow: how.budgetRow,
      },
      {
        name: `API: ${name} p50 latency`,
        figure: ours.p50,
        unit: 'ms',
        baseline: bare.p50,
        baselineLabel: label,
        ratio: round(ours.p50 / Math.max(bare.p50, 1), 3),
      },
      {
        name: `API: ${name} p99 latency`,
        figure: ours.p99,
        unit: 'ms',
        baseline: bare.p99,
        baselineLabel: label,
        ratio: round(ours.p99 / Math.max(bare.p99, 1), 3),
        budget: how.maxP99Ms === undefined ? undefined : `under ${how.maxP99Ms} ms`,
        withinBudget: withinP99,
        budgetRow: how.maxP99Ms === undefined ? undefined : how.budgetRow,
      },
    ];
  } finally {
    await baseline.stop();
  }
}

export async function run(): Promise<BenchResult[]> {
  const dataDir = scratchDataDir();
  await seedInstances(dataDir);
  const server = await startRealServer(dataDir);
  try {
    const token = await signIn(server.baseUrl);
    return await compare(
      `GET /api/instances/ (${INSTANCES} instances)`,
      `${server.baseUrl}/api/instances/`,
      token,
      dataDir,
      {
        baseline: 'cached',
        budgetRow: 'instances',
        minRatio: 0.5,
      },
    );
  } finally {
    await server.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  console.table(await run());
}
