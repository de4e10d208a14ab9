/**
 * The server at fleet scale, as production runs it (the built server, scheduler running): 10,000
 * mosques with 10,000 pending Friday jobs, then
 * - GET /api/scheduler/upcoming?limit=20 against a bare Fastify route answering the same body;
 * - the latency of a mosque PUT that moves its Friday time (the scheduler re-plans it);
 * - the p99 of an unrelated signed-in GET while 1,000 mosques are created at once.
 * The mosques are written straight into the database before the server starts (loading them is not
 * what is measured); every measured call goes through HTTP with the scheduler running.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { openDatabase } from '../server/db';
import { compare } from './api';
import { percentile, round, type BenchResult } from './lib';
import { call, scratchDataDir, signIn, startRealServer } from './servers';

const MOSQUES = 10_000;
const PUTS = 100;
const BURST = 1_000;
/** Creates in flight at once during the burst (a bulk import, or several operators). */
const BURST_CONCURRENCY = 10;
const CITIES: [number, number, string][] = [
  [21.4225, 39.8262, 'Asia/Riyadh'], [30.0444, 31.2357, 'Africa/Cairo'], [41.0082, 28.9784, 'Europe/Istanbul'],
  [51.5074, -0.1278, 'Europe/London'], [40.7128, -74.006, 'America/New_York'], [-6.2088, 106.8456, 'Asia/Jakarta'],
  [24.8607, 67.0011, 'Asia/Karachi'], [-33.8688, 151.2093, 'Australia/Sydney'], [48.8566, 2.3522, 'Europe/Paris'],
  [43.6532, -79.3832, 'America/Toronto'], [-36.8485, 174.7633, 'Pacific/Auckland'], [1.3521, 103.8198, 'Asia/Singapore'],
];

const mosqueId = (i: number) => `f${String(i).padStart(9, '0')}`;

/** 10,000 active mosques with coordinates, zone and stream, written in batches before the server starts. */
async function seedMosques(dataDir: string): Promise<void> {
  const db = await openDatabase({ dataDir, databaseUrl: undefined });
  const now = new Date().toISOString();
  const rows = Array.from({ length: MOSQUES }, (_, i) => {
    const [lat, lng, timezone] = CITIES[i % CITIES.length];
    return {
      mosque_id: mosqueId(i), name: `Mosque ${i}`, name_ar: null, google_maps_url: null, languages: '["en"]',
      id_token: `https://streams.example.org/m${i}/index.m3u8`, active: 1, broadcast_status: 'inactive' as const,
      latitude: lat + ((i * 37) % 100) / 500 - 0.1, longitude: lng + ((i * 53) % 100) / 500 - 0.1, timezone,
      city: null, district: null, country: null, country_code: null, coordinates_method: 'manual', calculation_method: null,
      fixed_jumuah_time: i % 10 === 0 ? '13:30' : null, created_at: now, updated_at: now,
    };
  });
  for (let i = 0; i < rows.length; i += 500) await db.kysely.insertInto('mosques').values(rows.slice(i, i + 500)).execute();
  await db.close();
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
    const id = mosqueId((i * 97) % MOSQUES);
    times.push(await timed(() => call(baseUrl, token, 'PUT', `/api/config/mosques/${id}`, { fixed_jumuah_time: i % 2 === 0 ? '12:45' : '13:15' })));
  }
  return [
    { name: `Fleet: mosque PUT moving its Friday time, p50 of ${PUTS} (scheduler running, ${MOSQUES.toLocaleString('en')} jobs)`, figure: round(percentile(times, 50), 1), unit: 'ms', budget: 'p50 under 20 ms', withinBudget: percentile(times, 50) < 20, budgetRow: 'put' },
    { name: `Fleet: mosque PUT, p99 of ${PUTS}`, figure: round(percentile(times, 99), 1), unit: 'ms' },
  ];
}

/** 1,000 creates, BURST_CONCURRENCY at a time, while another user's GET is timed back to back. */
async function burst(baseUrl: string, token: string): Promise<BenchResult[]> {
  const reader = await signIn(baseUrl);
  const probe: number[] = [];
  let creating = true;
  const prober = (async () => {
    while (creating) probe.push(await timed(() => call(baseUrl, reader, 'GET', '/api/auth/verify-token')));
  })();
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: BURST_CONCURRENCY }, async () => {
      while (next < BURST) {
        const i = next++;
        await call(baseUrl, token, 'POST', '/api/config/mosques', {
          mosque_id: `burst${String(i).padStart(5, '0')}`, name: `Burst ${i}`, languages: ['en'], latitude: 21.4 + i / 10_000, longitude: 39.8,
          timezone: 'Asia/Riyadh', ID_token: `https://streams.example.org/b${i}/index.m3u8`,
        });
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  creating = false;
  await prober;
  const p99 = percentile(probe, 99);
  return [
    { name: `Fleet: signed-in GET /api/auth/verify-token p99 during a burst of ${BURST.toLocaleString('en')} mosque creates (${probe.length} GETs)`, figure: round(p99, 1), unit: 'ms', budget: 'under 50 ms', withinBudget: p99 < 50, budgetRow: 'burst' },
    { name: '... the same GET, p50', figure: round(percentile(probe, 50), 1), unit: 'ms' },
    { name: `Fleet: the burst's creates, ${BURST_CONCURRENCY} at a time`, figure: round(BURST / seconds, 1), unit: 'creates/s' },
  ];
}

export async function run(): Promise<BenchResult[]> {
  const dataDir = scratchDataDir();
  await seedMosques(dataDir);
  const server = await startRealServer(dataDir);
  try {
    const token = await signIn(server.baseUrl);
    await call(server.baseUrl, token, 'POST', '/api/scheduler/start');
    const planned = await call<{ data: { scheduled: number; created: number } }>(server.baseUrl, token, 'POST', '/api/scheduler/schedule-friday', { forceRefresh: false, mosqueFilter: null });
    if (planned.data.created + planned.data.scheduled < MOSQUES) throw new Error(`expected ${MOSQUES} pending jobs, got ${JSON.stringify(planned.data)}`);
    return [
      ...(await compare(`GET /api/scheduler/upcoming?limit=20 (${MOSQUES.toLocaleString('en')} pending jobs)`, `${server.baseUrl}/api/scheduler/upcoming?limit=20`, token, dataDir, {
        // The server serialises one body per list and serves it until a job changes: the bare route sends a stored string too.
        baseline: 'cached',
        budgetRow: 'upcoming',
        minRatio: 0.5,
        maxP99Ms: 25,
      })),
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
