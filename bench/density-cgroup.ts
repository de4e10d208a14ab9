/**
 * One cgroup per side of the density benchmark: every process started in it, and every child it
 * starts, short-lived or not, is counted in its CPU usage (v2 `cpu.stat`, or v1 `cpuacct.usage` on a
 * machine with the older hierarchy), also after it exited and was reaped.
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

/** Where the v1 hierarchy with CPU accounting, or else the unified (v2) one, is mounted; null when neither is. */
function accountingMount(): { version: 1 | 2; mount: string } | null {
  const mounts = fs
    .readFileSync('/proc/mounts', 'utf8')
    .split('\n')
    .map((line) => line.split(' '));
  const v1 = mounts.find(([, , type, options]) => type === 'cgroup' && options?.split(',').includes('cpuacct'));
  if (v1) return { version: 1, mount: v1[1] };
  const v2 = mounts.find(([, , type]) => type === 'cgroup2');
  return v2 ? { version: 2, mount: v2[1] } : null;
}

/** Makes a cgroup per side under one of this run; a clear error when cgroups cannot be written here. */
export function makeSides(names: string[]): { sides: Side[]; remove(): void } {
  const found = accountingMount();
  if (!found) throw new Error('no cgroup hierarchy counts CPU here: the density benchmark counts each side in one');
  const { version, mount } = found;
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
    return side(dir, version);
  });
  return {
    sides,
    remove: () => {
      for (const s of sides) fs.rmdirSync(s.dir);
      fs.rmdirSync(base);
    },
  };
}

function side(dir: string, version: 1 | 2): Side {
  const pids = () => fs.readFileSync(path.join(dir, 'cgroup.procs'), 'utf8').split('\n').filter(Boolean).map(Number);
  return {
    dir,
    pids,
    cpuSeconds: () => {
      if (version === 1) return Number(fs.readFileSync(path.join(dir, 'cpuacct.usage'), 'utf8')) / 1e9;
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
