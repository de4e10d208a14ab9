import fs from 'node:fs';

export { processAlive } from '../../../recorder/recorder-state';

/** What a recorder (node, then ffmpeg) needs from the server's environment: locale, paths, TLS roots, proxies. */
const RECORDER_ENV =
  /^(PATH|HOME|USER|LANG|LANGUAGE|LC_[A-Z]+|TZ|TMPDIR|SSL_CERT_FILE|SSL_CERT_DIR|NODE_EXTRA_CA_CERTS|https?_proxy|HTTPS?_PROXY|no_proxy|NO_PROXY|all_proxy|ALL_PROXY)$/;

/**
 * The environment a recorder starts with: only the variables above, never the server's secrets
 * (SECRET_KEY, METRICS_TOKEN, AWS keys, DATABASE_URL) nor its NODE_OPTIONS loaders.
 */
export function recorderEnvironment(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return Object.fromEntries(
    Object.entries(env).filter(([name, value]) => value !== undefined && RECORDER_ENV.test(name)),
  );
}

/** Sends a signal, ignoring a process that is already gone. A negative pid names a process group. */
export function signal(pid: number, name: NodeJS.Signals): boolean {
  try {
    process.kill(pid, name);
    return true;
  } catch {
    return false;
  }
}

/** The last `count` lines of a text file, reading only its end. */
export function tailLines(file: string, count: number): string[] {
  let fd: number;
  try {
    fd = fs.openSync(file, 'r');
  } catch {
    return [];
  }
  try {
    const size = fs.fstatSync(fd).size;
    let chunk = Math.max(4096, count * 200);
    for (;;) {
      const start = Math.max(0, size - chunk);
      const buffer = Buffer.alloc(size - start);
      fs.readSync(fd, buffer, 0, buffer.length, start);
      const lines = buffer.toString('utf8').split('\n');
      if (lines.at(-1) === '') lines.pop();
      if (lines.length > count || start === 0) {
        // The first line of a window that does not start the file may be cut: drop it.
        return (start === 0 ? lines : lines.slice(1)).slice(-count);
      }
      chunk *= 4;
    }
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * A process's resident memory now, in bytes (VmRSS of /proc/<pid>/status), or undefined where there
 * is no such file (the process is gone, or the system is not Linux).
 */
export function residentBytes(pid: number): number | undefined {
  try {
    const kib = /^VmRSS:\s+(\d+) kB$/m.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return kib === undefined ? undefined : Number(kib) * 1024;
  } catch {
    return undefined;
  }
}
