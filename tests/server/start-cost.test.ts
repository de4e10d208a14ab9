// PostgreSQL pass: skipped: the app is built on SQLite in a child process; which modules start loads does not depend on the database.
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { scaled } from '../../testkit/time-scale';

const root = path.resolve(import.meta.dirname, '../..');

/**
 * Loaded in a fresh process: a test worker may already hold what is measured. Builds the app, answers
 * a few requests (one that may be compressed among them) and prints the internal modules loaded.
 */
const CHILD = `
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
const { buildApp } = await import(${JSON.stringify(path.join(root, 'server/app.ts'))});
const { loadConfig } = await import(${JSON.stringify(path.join(root, 'server/config.ts'))});
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'start-cost-'));
const app = await buildApp(loadConfig({ NODE_ENV: 'test', DATA_DIR: dataDir, LOG_LEVEL: 'silent', DEMO_STREAM: '0' }), { logger: false, healthCheckIntervalMs: 0 });
await app.ready();
for (const headers of [{}, { 'accept-encoding': 'br, gzip' }]) {
  for (const url of ['/api/auth/first-run', '/api/health', '/api/scheduler/upcoming?limit=20', '/no/such/page']) await app.inject({ url, headers });
}
await app.close();
fs.rmSync(dataDir, { recursive: true, force: true });
console.log(JSON.stringify(process.moduleLoadList));
`;

describe('start cost', () => {
  it("starts and answers without loading Node's fetch implementation (undici: about 40 ms on the first answer)", async () => {
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['--import', 'tsx', '--input-type=module', '-e', CHILD],
      { cwd: root, timeout: scaled(60_000) },
    );
    const loaded = JSON.parse(stdout.trim().split('\n').at(-1) ?? '[]') as string[];
    expect(loaded.length).toBeGreaterThan(50);
    expect(loaded.filter((name) => name.includes('undici'))).toEqual([]);
  });
});
