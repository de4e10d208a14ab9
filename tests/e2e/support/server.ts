import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { killRecorders } from '../../../testkit/capture';
import { freePort } from '../../../testkit/ports';
import { signalGroup, spawnServerProcess, untilAnswering } from '../../support/server-process';

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
  /** Listen on this port (a restart on the address the browser already uses); a free one otherwise. */
  port?: number;
  timeoutMs?: number;
}

/**
 * Spawns the real server (NODE_ENV=production; built, as `npm run test:e2e` builds first: see
 * serverCommand) on a free port with a temporary DATA_DIR and the superuser E2E_ADMIN, and resolves
 * once it answers HTTP. It serves the console built in dist/.
 */
export async function startServer(options: StartOptions = {}): Promise<RunningServer> {
  const port = options.port ?? (await freePort());
  const ownDataDir = options.dataDir === undefined;
  const dataDir = options.dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'capture-e2e-'));
  const baseUrl = `http://127.0.0.1:${port}`;
  const server = spawnServerProcess(port, dataDir, {
    ADMIN_USERNAME: E2E_ADMIN.username,
    ADMIN_PASSWORD: E2E_ADMIN.password,
    DEMO_STREAM: options.demoStream ? '1' : '0',
    ...options.env,
  });

  const stop = async () => {
    signalGroup(server.child, 'SIGTERM');
    const killer = setTimeout(() => signalGroup(server.child, 'SIGKILL'), 10_000);
    await server.exited;
    clearTimeout(killer);
    if (!ownDataDir) return;
    // Recorders run detached from the server: one that was still finishing (a terminate sent just
    // before) can write into its folder while the folder is removed (ENOTEMPTY in a CI run).
    killRecorders(dataDir);
    fs.rmSync(dataDir, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 });
  };

  try {
    await untilAnswering(server, baseUrl, options.timeoutMs ?? 60_000);
  } catch (error) {
    await stop();
    throw error;
  }
  return { baseUrl, dataDir, output: server.output, stop };
}
