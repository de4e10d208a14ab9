import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '../../support/postgres';

export const E2E_ADMIN = { username: 'admin', password: 'Admin-e2e-pass-1' };

export interface RunningServer {
  baseUrl: string;
  dataDir: string;
  /** Everything the server printed so far (for failure messages). */
  output(): string;
  /** Stops the server (SIGTERM, then SIGKILL after 10 s) and removes its data directory. */
  stop(): Promise<void>;
}

export interface StartOptions {
  /** Start the demo stream (off unless asked). */
  demoStream?: boolean;
  /** More environment, e.g. DATABASE_URL or CAPTURE_PROVIDER. */
  env?: Record<string, string>;
  /** Keep using this data directory (a restart); it is then not removed by stop(). */
  dataDir?: string;
  timeoutMs?: number;
}

const ROOT = path.resolve(import.meta.dirname, '../../..');
const running = new Set<ChildProcess>();

// Whatever happens to the test run, no server is left behind.
process.once('exit', () => {
  for (const child of running) killGroup(child, 'SIGKILL');
});

function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  try {
    process.kill(-child.pid, signal); // the group: tsx and the node process it starts
  } catch {
    // already gone
  }
}

/**
 * Spawns the real server (`tsx server/main.ts`, NODE_ENV=production) on a free port with a temporary
 * DATA_DIR and the superuser E2E_ADMIN, and resolves once it answers HTTP. It serves the console
 * built in dist/ (`npm run test:e2e` builds it first).
 */
export async function startServer(options: StartOptions = {}): Promise<RunningServer> {
  const port = await freePort();
  const ownDataDir = options.dataDir === undefined;
  const dataDir = options.dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'capture-e2e-'));
  const baseUrl = `http://127.0.0.1:${port}`;
  const child = spawn(path.join(ROOT, 'node_modules/.bin/tsx'), ['server/main.ts'], {
    cwd: ROOT,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      PORT: String(port),
      DATA_DIR: dataDir,
      ADMIN_USERNAME: E2E_ADMIN.username,
      ADMIN_PASSWORD: E2E_ADMIN.password,
      DEMO_STREAM: options.demoStream ? '1' : '0',
      LOG_LEVEL: 'warn',
      ...options.env,
    },
  });
  running.add(child);
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));

  const stop = async () => {
    killGroup(child, 'SIGTERM');
    const killer = setTimeout(() => killGroup(child, 'SIGKILL'), 10_000);
    await exited;
    clearTimeout(killer);
    running.delete(child);
    if (ownDataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  };

  const deadline = Date.now() + (options.timeoutMs ?? 60_000);
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) {
      await stop();
      throw new Error(`The server exited before answering:\n${output}`);
    }
    try {
      await fetch(`${baseUrl}/api/auth/verify-token`, { signal: AbortSignal.timeout(2000) });
      break;
    } catch {
      if (Date.now() > deadline) {
        await stop();
        throw new Error(`The server did not answer on ${baseUrl} in time:\n${output}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
  return { baseUrl, dataDir, output: () => output, stop };
}
