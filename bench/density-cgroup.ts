/**
 * One cgroup v2 per side of the density benchmark: every process started in it, and every child it
 * starts, short-lived or not, is counted in its cpu.stat, also after it exited and was reaped.
 */
import fs from 'node:fs';
import path from 'node:path';

export interface Side {
  dir: string;
  /** CPU seconds of every process the side ever ran. */
  cpuSeconds(): number;
  /** Processes in the side now. */
  pids(): number[];
  /** Sum of the proportional set size of the side's processes now, in MB. */
  pssMb(): number;
}

/** Where the unified (v2) hierarchy is mounted; null when this machine has none. */
function unifiedMount(): string | null {
  const line = fs
    .readFileSync('/proc/mounts', 'utf8')
    .split('\n')
    .find((l) => l.split(' ')[2] === 'cgroup2');
  return line ? line.split(' ')[1] : null;
}

/** Makes a cgroup per side under one of this run; a clear error when cgroups v2 cannot be written here. */
export function makeSides(names: string[]): { sides: Side[]; remove(): void } {
  const mount = unifiedMount();
  if (!mount) throw new Error('no cgroup v2 hierarchy is mounted: the density benchmark counts each side in one');
  const base = path.join(mount, `capture-density-${process.pid}`);
  try {
    fs.mkdirSync(base);
  } catch (error) {
    throw new Error(`cannot create a cgroup under ${mount} (${(error as Error).message}): run the benchmark as root`, {
      cause: error,
    });
  }
  const sides = names.map((name) => {
    const dir = path.join(base, name);
    fs.mkdirSync(dir);
    return side(dir);
  });
  return {
    sides,
    remove: () => {
      for (const s of sides) fs.rmdirSync(s.dir);
      fs.rmdirSync(base);
    },
  };
}

function side(dir: string): Side {
  const pids = () => fs.readFileSync(path.join(dir, 'cgroup.procs'), 'utf8').split('\n').filter(Boolean).map(Number);
  return {
    dir,
    pids,
    cpuSeconds: () => {
      const usage = /^usage_usec (\d+)$/m.exec(fs.readFileSync(path.join(dir, 'cpu.stat'), 'utf8'));
      return Number(usage?.[1] ?? Number.NaN) / 1e6;
    },
    pssMb: () => pids().reduce((sum, pid) => sum + pssKb(pid), 0) / 1024,
  };
}

/** A process's PSS in kB (0 once it is gone). */
function pssKb(pid: number): number {
  try {
    return Number(/^Pss:\s+(\d+) kB$/m.exec(fs.readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8'))?.[1] ?? 0);
  } catch {
    return 0;
  }
}

/** CPU seconds a process used itself (not its children), from /proc/PID/stat; null once it is gone. */
export function ownCpuSeconds(pid: number): number | null {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command (which may hold spaces): utime and stime are the 12th and 13th, in ticks of 1/100 s.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return null;
  }
}
