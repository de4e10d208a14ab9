import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from './ports';

/** Finds PostgreSQL's server binaries (Debian keeps them out of PATH). */
export function postgresBinDir(): string | undefined {
  const fromPath = spawnSync('sh', ['-c', 'command -v initdb'], { encoding: 'utf8' }).stdout.trim();
  if (fromPath) return path.dirname(fromPath);
  const root = '/usr/lib/postgresql';
  if (!fs.existsSync(root)) return undefined;
  const versions = fs.readdirSync(root).sort((a, b) => Number(b) - Number(a));
  return versions.map((v) => path.join(root, v, 'bin')).find((dir) => fs.existsSync(path.join(dir, 'initdb')));
}

export interface TemporaryPostgres {
  /** URL of the maintenance database; tests create their own databases from it. */
  adminUrl: string;
  dataDir: string;
  stop(): void;
  start(): void;
  /** Stops the cluster and removes its folder (~47 MB). */
  destroy(): void;
}

/**
 * A throw-away PostgreSQL cluster on 127.0.0.1 in a temporary directory. Runs as the `postgres`
 * user when this process is root, since initdb refuses to run as root.
 */
export async function startTemporaryPostgres(): Promise<TemporaryPostgres> {
  const bin = postgresBinDir();
  if (!bin) throw new Error('PostgreSQL server binaries not found: apt-get install postgresql');
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'capture-pg-'));
  const port = await freePort();
  const asRoot = process.getuid?.() === 0;
  if (asRoot) execFileSync('chown', ['-R', 'postgres:postgres', dataDir]);
  const run = (tool: string, args: string[]) => {
    const command = path.join(bin, tool);
    if (asRoot) execFileSync('runuser', ['-u', 'postgres', '--', command, ...args], { stdio: 'pipe' });
    else execFileSync(command, args, { stdio: 'pipe' });
  };
  run('initdb', ['-D', path.join(dataDir, 'db'), '-A', 'trust', '-U', 'postgres', '--no-sync']);
  const options = `-p ${port} -h 127.0.0.1 -k ${dataDir} -c fsync=off -c max_connections=200`;
  const start = () =>
    run('pg_ctl', ['-D', path.join(dataDir, 'db'), '-o', options, '-l', path.join(dataDir, 'log'), '-w', 'start']);
  const stop = () => run('pg_ctl', ['-D', path.join(dataDir, 'db'), '-m', 'fast', '-w', 'stop']);
  start();
  const stopIfRunning = () => {
    try {
      stop();
    } catch {
      // already stopped
    }
  };
  return {
    adminUrl: `postgres://postgres@127.0.0.1:${port}/postgres`,
    dataDir,
    start,
    stop: stopIfRunning,
    destroy: () => {
      stopIfRunning();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
