/**
 * Child processes for the HTTP benchmarks: the real server as production runs it (`node
 * build/server/main.js`, built by `npm run build`), and the bare Fastify baseline on plain node.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { killRecorders } from '../testkit/capture';
import { freePort } from '../testkit/ports';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const BUILT_SERVER = path.join(root, 'build/server/main.js');
const SOURCE_SERVER = path.join(root, 'server/main.ts');
const BASELINE_SERVER = path.join(root, 'bench/baseline-server.mjs');
export const BENCH_ADMIN = { username: 'admin', password: 'Bench-pass-1' };

export interface RunningServer {
  baseUrl: string;
  dataDir: string;
  pid: number;
  /** Milliseconds from spawn to the first 200 on the probe path. */
  startMs: number;
  stop(): Promise<void>;
}

async function waitUntilOk(url: string, child: ChildProcess, output: () => string): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited early:\n${output()}`);
    const ok = await fetch(url).then(
      (response) => response.status === 200,
      () => false,
    );
    if (ok) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`server did not answer 200 within 60 s:\n${output()}`);
}

async function start(
  script: string,
  env: Record<string, string>,
  probePath: string,
  dataDir: string,
  nodeArgs: string[] = [],
): Promise<RunningServer> {
  if (!fs.existsSync(script)) throw new Error(`${path.relative(root, script)} is missing: run npm run build`);
  const port = await freePort();
  let output = '';
  const started = performance.now();
  const child = spawn(process.execPath, [...nodeArgs, script], {
    cwd: root,
    env: { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (output += d.toString()));
  const baseUrl = `http://127.0.0.1:${port}`;
  await waitUntilOk(`${baseUrl}${probePath}`, child, () => output);
  return {
    baseUrl,
    dataDir,
    pid: child.pid ?? 0,
    startMs: performance.now() - started,
    // The recorders it started outlive a server by design (the next start adopts them): a benchmark that
    // is done with its data folder stops them too, or they ran on (495 after six fleet runs on a Friday).
    stop: async () => {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await exited;
      }
      killRecorders(dataDir);
    },
  };
}

/** A scratch data directory for the real server, removed by the caller. */
export const scratchDataDir = () => fs.mkdtempSync(path.join(os.tmpdir(), 'bench-server-'));

const realServerEnv = (dataDir: string, env: Record<string, string>) => ({
  NODE_ENV: 'production',
  LOG_LEVEL: 'warn',
  DATA_DIR: dataDir,
  ADMIN_PASSWORD: BENCH_ADMIN.password,
  DEMO_STREAM: '0',
  ...env,
});

/** The real server (production mode, warn-level logs, local capture driver) on `dataDir`. */
export function startRealServer(dataDir: string, env: Record<string, string> = {}): Promise<RunningServer> {
  return start(BUILT_SERVER, realServerEnv(dataDir, env), '/api/auth/first-run', dataDir);
}

/**
 * The same server run from its TypeScript sources through tsx (its recorders too), for a benchmark of
 * behaviour rather than speed: it needs no build, and never measures one older than the sources.
 */
export function startSourceServer(dataDir: string, env: Record<string, string> = {}): Promise<RunningServer> {
  const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
  return start(SOURCE_SERVER, realServerEnv(dataDir, env), '/api/auth/first-run', dataDir, ['--import', tsx]);
}

/** Where the baseline keeps its compiled code between starts, as the built server does (build/.compile-cache). */
const BASELINE_COMPILE_CACHE = path.join(os.tmpdir(), 'bench-baseline-compile-cache');

/**
 * The bare Fastify baseline, answering /ok, and /json and /cached with the body in `bodyFile` when
 * given, and /mosques-page when `env` names its database and token (bench/baseline-server.mjs). It
 * gets Node's module compile cache like the built server, so that starts compare alike.
 */
export function startBaselineServer(bodyFile?: string, extraEnv: Record<string, string> = {}): Promise<RunningServer> {
  const env = {
    NODE_COMPILE_CACHE: BASELINE_COMPILE_CACHE,
    ...(bodyFile ? { BASELINE_BODY_FILE: bodyFile } : {}),
    ...extraEnv,
  };
  return start(BASELINE_SERVER, env, '/ok', bodyFile ? path.dirname(bodyFile) : os.tmpdir());
}

/** Resident memory of a process, in MB (Linux). */
export function rssMb(pid: number): number {
  const line = fs
    .readFileSync(`/proc/${pid}/status`, 'utf8')
    .split('\n')
    .find((l) => l.startsWith('VmRSS:'));
  return Number(line?.match(/\d+/)?.[0] ?? Number.NaN) / 1024;
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

/** A signed-in JSON call that must succeed. */
export async function call<T = unknown>(
  baseUrl: string,
  token: string,
  method: string,
  url: string,
  body?: unknown,
): Promise<T> {
  const response = await fetch(`${baseUrl}${url}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    body: body !== undefined ? JSON.stringify(body) : undefined,
  });
  if (!response.ok) throw new Error(`${method} ${url}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

/** Starts the scheduler and plans every mosque's Friday; fails unless `expected` jobs are planned. */
export async function planEveryFriday(baseUrl: string, token: string, expected: number): Promise<void> {
  await call(baseUrl, token, 'POST', '/api/scheduler/start');
  const planned = await call<{ data: { scheduled: number; created: number } }>(
    baseUrl,
    token,
    'POST',
    '/api/scheduler/schedule-friday',
    { forceRefresh: false, mosqueFilter: null },
  );
  if (planned.data.created + planned.data.scheduled < expected)
    throw new Error(`expected ${expected} planned jobs, got ${JSON.stringify(planned.data)}`);
}
