import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

/** Finds PostgreSQL's server binaries (Debian keeps them out of PATH). */
export function postgresBinDir(): string | undefined {
  const fromPath = spawnSync('sh', ['-c', 'command -v initdb'], { encoding: 'utf8' }).stdout.trim();
  if (fromPath) return path.dirname(fromPath);
  const root = '/usr/lib/postgresql';
  if (!fs.existsSync(root)) return undefined;
  const versions = fs.readdirSync(root).sort((a, b) => Number(b) - Number(a));
  return versions.map((v) => path.join(root, v, 'bin')).find((dir) => fs.existsSync(path.join(dir, 'initdb')));
}

/** The kernel's range for ephemeral ports (outgoing connections and listen(0)); Linux's default when unreadable. */
function ephemeralPortRange(): [number, number] {
  try {
    const [low, high] = fs.readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/).map(Number);
    if (low && high) return [low, high];
  } catch {
    // not Linux: the default below
  }
  return [32768, 60999];
}

function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/** The lowest port freePort hands out: below it lie well-known services' ports. */
const LOWEST_TEST_PORT = 10_000;

/**
 * A port that was free a moment ago, for a process that binds it itself (a server started as a child).
 * It is picked below the kernel's ephemeral range: a port from that range could be taken, between this
 * check and the child's bind, by any outgoing connection on the machine (it was, once, in CI, and the
 * server failed with EADDRINUSE). Picked at random, two suites asking at once rarely meet; when they
 * do, the check here sees it.
 */
export async function freePort(): Promise<number> {
  const [ephemeralLow] = ephemeralPortRange();
  const span = ephemeralLow - LOWEST_TEST_PORT;
  if (span < 1000) throw new Error(`The ephemeral port range starts at ${ephemeralLow}: no room below it for test servers`);
  for (let attempt = 0; attempt < 50; attempt++) {
    const port = LOWEST_TEST_PORT + Math.floor(Math.random() * span);
    if (await canListen(port)) return port;
  }
  throw new Error(`No free port found between ${LOWEST_TEST_PORT} and ${ephemeralLow}`);
}

export interface TemporaryPostgres {
  /** URL of the maintenance database; tests create their own databases from it. */
  adminUrl: string;
  dataDir: string;
  stop(): void;
  start(): void;
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
  const start = () => run('pg_ctl', ['-D', path.join(dataDir, 'db'), '-o', options, '-l', path.join(dataDir, 'log'), '-w', 'start']);
  const stop = () => run('pg_ctl', ['-D', path.join(dataDir, 'db'), '-m', 'fast', '-w', 'stop']);
  start();
  return {
    adminUrl: `postgres://postgres@127.0.0.1:${port}/postgres`,
    dataDir,
    start,
    stop: () => {
      try {
        stop();
      } catch {
        // already stopped
      }
    },
  };
}
