import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { INSTANCE_PATHS, type UserDataPaths } from '../server/capture/aws/user-data';

/*
 * An EC2 recorder machine for tests against moto, which runs none: the user-data the server launched
 * an instance with, run by bash with the instance's folders moved into `dir`, `shutdown` and `apt-get`
 * as stubs (a machine with ffmpeg and Node needs nothing installed), and the host's node first on PATH.
 * It runs in its own process group, so `kill()` takes the recorder and its ffmpeg with it, as a machine
 * that dies does.
 */

const STUB = (name: string) =>
  `#!/bin/sh\necho "$*" >> "$(dirname "$0")/${name}.calls"\n${name === 'apt-get' ? 'exit 1' : 'exit 0'}\n`;

export interface SandboxMachine {
  paths: UserDataPaths;
  /** The script's exit code (null when killed). */
  exited: Promise<number | null>;
  /** Kills the script, its recorder and ffmpeg at once. */
  kill(): void;
  /** What it printed to its console so far. */
  consoleText(): string;
  /** The arguments `shutdown` was called with, one call a line ('' when never). */
  shutdownCalls(): string;
}

export function startSandboxMachine(userData: string, dir: string, env: Record<string, string> = {}): SandboxMachine {
  const paths: UserDataPaths = {
    workDir: path.join(dir, 'work'),
    runtimeDir: path.join(dir, 'opt'),
    console: path.join(dir, 'console.log'),
  };
  const stubs = path.join(dir, 'stubs');
  fs.mkdirSync(stubs, { recursive: true });
  for (const name of ['shutdown', 'apt-get']) fs.writeFileSync(path.join(stubs, name), STUB(name), { mode: 0o755 });
  const script = path.join(dir, 'user-data.sh');
  fs.writeFileSync(
    script,
    userData
      .replaceAll(INSTANCE_PATHS.workDir, paths.workDir)
      .replaceAll(INSTANCE_PATHS.runtimeDir, paths.runtimeDir)
      .replaceAll(INSTANCE_PATHS.console, paths.console),
  );
  const child = spawn('bash', [script], {
    env: { PATH: [stubs, path.dirname(process.execPath), process.env.PATH].join(path.delimiter), HOME: dir, ...env },
    stdio: 'ignore',
    detached: true,
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  const read = (file: string) => (fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '');
  return {
    paths,
    exited,
    kill: () => {
      try {
        if (child.pid) process.kill(-child.pid, 'SIGKILL');
      } catch {
        // already gone
      }
    },
    consoleText: () => read(paths.console),
    shutdownCalls: () => read(path.join(stubs, 'shutdown.calls')),
  };
}
