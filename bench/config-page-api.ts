/**
 * Config's first page over HTTP: GET /api/config/mosques?limit=10 with 10,000 mosques, signed in, at
 * 50 connections, against a bare Fastify route doing the same job on every request (the token
 * checked, the same two statements on the same database file, the same body serialised;
 * bench/baseline-server.mjs). The server reads this page from the database on every request, so no
 * baseline sending a stored string is fair to it, nor one it would flatter.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { seedMosques } from '../testkit/seed-mosques';
import { compare } from './api';
import type { BenchResult } from './lib';
import { scratchDataDir, signIn, startRealServer } from './servers';

const MOSQUES = 10_000;

export async function run(): Promise<BenchResult[]> {
  const dataDir = scratchDataDir();
  await seedMosques(dataDir, MOSQUES, { withPlaces: true });
  const server = await startRealServer(dataDir);
  try {
    const token = await signIn(server.baseUrl);
    return await compare(
      `GET /api/config/mosques?limit=10 (${MOSQUES.toLocaleString('en')} mosques)`,
      `${server.baseUrl}/api/config/mosques?limit=10`,
      token,
      dataDir,
      { baseline: 'mosques-page', budgetRow: 'config-page', minRatio: 0.5 },
    );
  } finally {
    await server.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  console.table(await run());
}
