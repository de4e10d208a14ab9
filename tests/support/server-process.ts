import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { StopWaiting, waitFor } from '../../testkit/wait';

/*
 * The real server (NODE_ENV=production) as a child process in its own process group, shared by the
 * e2e and fault suites (each adds its own admin, options and API on top).
 */

const ROOT = path.resolve(import.meta.dirname, '../..');
const BUILT_SERVER = path.join(ROOT, 'build/server/main.js');
/** What the built server and its recorder are made of: a file here newer than the build means the build is stale. */
const SERVER_SOURCES = ['server', 'contract', 'recorder'];

function newestSourceMs(): number {
  let newest = 0;
  for (const folder of SERVER_SOURCES) {
    for (const file of fs.readdirSync(path.join(ROOT, folder), { recursive: true, encoding: 'utf8' })) {
      if (file.endsWith('.ts')) newest = Math.max(newest, fs.statSync(path.join(ROOT, folder, file)).mtimeMs);
    }
  }
  return newest;
}

/** Whether `npm run build` built the server from the current sources. */
export function builtServerIsCurrent(): boolean {
  return fs.existsSync(BUILT_SERVER) && fs.statSync(BUILT_SERVER).mtimeMs >= newestSourceMs();
}

/**
 * How the suites start the server: as production does (`node build/server/main.js`, with the built
 * recorder) when `npm run build` has built it from the current sources (CI builds once, before the
 * suites); from the sources through tsx when there is no build or it is older than a source file, so
 * a change is never tested against an older build.
 */
export function serverCommand(): { command: string; args: string[]; label: string } {
  return builtServerIsCurrent()
    ? { command: process.execPath, args: [BUILT_SERVER], label: 'built server (build/server/main.js)' }
    : {
        command: path.join(ROOT, 'node_modules/.bin/tsx'),
        args: ['server/main.ts'],
        label: 'server sources (tsx server/main.ts)',
      };
}
const started = new Set<ChildProcess>();

// Whatever happens to the test run, no server is left behind.
process.once('exit', () => {
  for (const child of started) signalGroup(child, 'SIGKILL');
});

/** Signals the child's process group (the server, and the node process tsx starts), unless it has exited. */
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
  const { command, args, label } = serverCommand();
  const child = spawn(command, args, {
    cwd: ROOT,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      PORT: String(port),
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      ALLOW_PRIVATE_STREAM_HOSTS: '1',
      ...env,
    },
  });
  started.add(child);
  let output = `[${label}]\n`;
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
  await waitFor(
    async () => {
      if (!server.running()) throw new StopWaiting(`The server exited before answering:\n${server.output()}`);
      return fetch(`${baseUrl}/api/auth/verify-token`, { signal: AbortSignal.timeout(2000) }).then(
        () => true,
        () => false,
      );
    },
    () => `the server to answer on ${baseUrl}:\n${server.output()}`,
    timeoutMs,
    200,
  );
}
