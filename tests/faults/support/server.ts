import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '../../../testkit/ports';
import { apiRequest } from '../../../testkit/server-cluster';
import { signalGroup, spawnServerProcess, untilAnswering } from '../../support/server-process';

export const FAULT_ADMIN = { username: 'admin', password: 'Fault-admin-pass-1' };

export interface ApiResponse<T = unknown> {
  status: number;
  body: T;
  text: string;
}

export interface ServerProcess {
  baseUrl: string;
  dataDir: string;
  pid: number;
  output(): string;
  /** True while the server process has not exited. */
  running(): boolean;
  /** Sends a signal to the server's process group and waits for it to exit. */
  kill(signal: NodeJS.Signals): Promise<void>;
  /** SIGTERM, then SIGKILL after 10 s. */
  stop(): Promise<void>;
  request<T = Record<string, unknown>>(
    method: string,
    url: string,
    options?: { token?: string; body?: unknown; timeoutMs?: number },
  ): Promise<ApiResponse<T>>;
  login(username?: string, password?: string): Promise<string>;
}

export interface ServerOptions {
  /** DATA_DIR; a new temporary one when absent. Kept across restarts: pass the same one again. */
  dataDir?: string;
  env?: Record<string, string>;
  timeoutMs?: number;
}

const madeDirs = new Set<string>();

/** A new folder under the system's temporary one, removed after the test file (removeTemporaryDirs). */
export function temporaryDir(prefix: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `capture-fault-${prefix}-`));
  madeDirs.add(dir);
  return dir;
}

/** Removes the folders temporaryDir made in this test file; run once its servers have been stopped. */
export function removeTemporaryDirs(): void {
  // A killed recorder's ffprobe or a piece still being flushed can land in a folder while it goes.
  for (const dir of madeDirs) fs.rmSync(dir, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 });
  madeDirs.clear();
}

/** The real server (built, or its sources: see serverCommand) in its own process group, resolved once it answers HTTP. */
export async function spawnServer(options: ServerOptions = {}): Promise<ServerProcess> {
  const port = await freePort();
  const dataDir = options.dataDir ?? temporaryDir('server');
  const baseUrl = `http://127.0.0.1:${port}`;
  const server = spawnServerProcess(port, dataDir, {
    DATABASE_URL: '',
    ADMIN_USERNAME: FAULT_ADMIN.username,
    ADMIN_PASSWORD: FAULT_ADMIN.password,
    DEMO_STREAM: '0',
    ...options.env,
  });
  const { child, running } = server;

  const kill = async (signal: NodeJS.Signals) => {
    signalGroup(child, signal);
    await server.exited;
  };
  const stop = async () => {
    const killer = setTimeout(() => signalGroup(child, 'SIGKILL'), 10_000);
    await kill('SIGTERM');
    clearTimeout(killer);
  };

  const request: ServerProcess['request'] = async (method, url, options = {}) => {
    const { status, body, text } = await apiRequest(baseUrl, method, url, options);
    return { status, body: body as never, text };
  };

  const login: ServerProcess['login'] = async (username = FAULT_ADMIN.username, password = FAULT_ADMIN.password) => {
    const response = await request<{ access_token: string }>('POST', '/api/auth/login', {
      body: { username, password },
    });
    if (response.status !== 200) throw new Error(`login ${username} failed: ${response.status} ${response.text}`);
    return response.body.access_token;
  };

  try {
    await untilAnswering(server, baseUrl, options.timeoutMs ?? 60_000);
  } catch (error) {
    await kill('SIGKILL');
    throw error;
  }
  return { baseUrl, dataDir, pid: child.pid as number, output: server.output, running, kill, stop, request, login };
}
