/** Child processes for the HTTP and live-feed benchmarks: the real server, and a bare baseline. */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from '../testkit/postgres';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const tsx = path.join(root, 'node_modules/.bin/tsx');
export const BENCH_ADMIN = { username: 'admin', password: 'Bench-pass-1' };

export interface RunningServer {
  baseUrl: string;
  dataDir: string;
  stop(): Promise<void>;
}

async function waitUntilUp(url: string, child: ChildProcess, output: () => string): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited early:\n${output()}`);
    try {
      await fetch(url);
      return;
    } catch {
      await new Promise((r) => setTimeout(r, 200));
    }
  }
  throw new Error(`server did not answer within 60 s:\n${output()}`);
}

function start(script: string, env: Record<string, string>, probePath: string, dataDir: string): Promise<RunningServer> {
  return freePort().then(async (port) => {
    let output = '';
    const child = spawn(tsx, [script], {
      cwd: root,
      env: { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout?.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr?.on('data', (d: Buffer) => (output += d.toString()));
    const baseUrl = `http://127.0.0.1:${port}`;
    await waitUntilUp(`${baseUrl}${probePath}`, child, () => output);
    return {
      baseUrl,
      dataDir,
      stop: () =>
        new Promise<void>((resolve) => {
          if (child.exitCode !== null) return resolve();
          child.once('exit', () => resolve());
          child.kill('SIGTERM');
        }),
    };
  });
}

/** The real server (production mode, warn-level logs) on a scratch data directory. */
export function startRealServer(prepare?: (dataDir: string) => Promise<void>): Promise<RunningServer> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-server-'));
  const env = { NODE_ENV: 'production', LOG_LEVEL: 'warn', DATA_DIR: dataDir, ADMIN_PASSWORD: BENCH_ADMIN.password, DEMO_STREAM: '0' };
  return (prepare ? prepare(dataDir) : Promise.resolve()).then(() => start('server/main.ts', env, '/api/auth/verify-token', dataDir));
}

/** A bare Fastify process answering GET /json with the body stored in `bodyFile`. */
export function startBaselineServer(bodyFile: string): Promise<RunningServer> {
  return start('bench/baseline-server.ts', { BASELINE_BODY_FILE: bodyFile }, '/json', path.dirname(bodyFile));
}

export async function signIn(baseUrl: string): Promise<string> {
  const response = await fetch(`${baseUrl}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(BENCH_ADMIN),
  });
  if (!response.ok) throw new Error(`bench sign-in failed: ${response.status}`);
  return ((await response.json()) as { access_token: string }).access_token;
}
