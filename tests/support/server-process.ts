import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';

/*
 * The real server (`tsx server/main.ts`, NODE_ENV=production) as a child process in its own process
 * group, shared by the e2e and fault suites (each adds its own admin, options and API on top).
 */

const ROOT = path.resolve(import.meta.dirname, '../..');
const started = new Set<ChildProcess>();

// Whatever happens to the test run, no server is left behind.
process.once('exit', () => {
  for (const child of started) signalGroup(child, 'SIGKILL');
});

/** Signals the child's process group (tsx and the node process it starts), unless it has exited. */
export function signalGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    // already gone
  }
}

export interface ServerChild {
  child: ChildProcess;
  /** Everything the server printed so far. */
  output(): string;
  /** Resolves when the process has exited. */
  exited: Promise<void>;
  /** True while the process has not exited. */
  running(): boolean;
}

/** Spawns the server on 127.0.0.1:`port` with DATA_DIR `dataDir`, LOG_LEVEL=warn and `env` on top of this process's environment. */
export function spawnServerProcess(port: number, dataDir: string, env: Record<string, string>): ServerChild {
  const child = spawn(path.join(ROOT, 'node_modules/.bin/tsx'), ['server/main.ts'], {
    cwd: ROOT,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, NODE_ENV: 'production', HOST: '127.0.0.1', PORT: String(port), DATA_DIR: dataDir, LOG_LEVEL: 'warn', ALLOW_PRIVATE_STREAM_HOSTS: '1', ...env },
  });
  started.add(child);
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((resolve) =>
    child.once('exit', () => {
      started.delete(child);
      resolve();
    }),
  );
  return { child, output: () => output, exited, running: () => child.exitCode === null && child.signalCode === null };
}

/** Resolves once the server answers HTTP on `baseUrl`; throws (with its output) if it exits first or does not answer in `timeoutMs`. */
export async function untilAnswering(server: ServerChild, baseUrl: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (!server.running()) throw new Error(`The server exited before answering:\n${server.output()}`);
    const answered = await fetch(`${baseUrl}/api/auth/verify-token`, { signal: AbortSignal.timeout(2000) }).then(
      () => true,
      () => false,
    );
    if (answered) return;
    if (Date.now() > deadline) throw new Error(`The server did not answer on ${baseUrl} in time:\n${server.output()}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
