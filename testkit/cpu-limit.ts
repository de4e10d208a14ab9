import fs from 'node:fs';
import path from 'node:path';
import { waitFor } from './wait';

/**
 * A cgroup whose processes together get at most a share of one CPU, enforced by the kernel's CPU
 * bandwidth control (cgroup v2 `cpu.max`, or v1 `cpu.cfs_quota_us`): a process in it runs below real
 * time however idle the machine is, and no faster than that however busy. Needs root (as CI runs).
 */
export interface CpuLimit {
  dir: string;
  /** A shell command line that joins the group, then becomes `command` with the arguments it was given. */
  joinThenExec(command: string): string;
  /** Moves a running process (all its threads) into the group. */
  hold(pid: number): void;
  /** Lifts the limit: the processes in it run as fast as the machine lets them. */
  lift(): void;
  /** Lifts the limit, then removes the group once the processes in it have exited (within `timeoutMs`). */
  remove(timeoutMs?: number): Promise<void>;
}

const PERIOD_US = 100_000;
/** The kernel takes no quota under 1 ms per period, nor a period over 1 s: a smaller share lengthens the period. */
const MIN_QUOTA_US = 1000;
const MAX_PERIOD_US = 1_000_000;

/** Where the v2 hierarchy, or else the v1 hierarchy with the cpu controller, is mounted. */
function cpuHierarchy(): { version: 1 | 2; mount: string } {
  const mounts = fs
    .readFileSync('/proc/mounts', 'utf8')
    .split('\n')
    .map((line) => line.split(' '));
  const v1 = mounts.find(([, , type, options]) => type === 'cgroup' && options?.split(',').includes('cpu'));
  if (v1) return { version: 1, mount: v1[1] };
  const v2 = mounts.find(([, , type]) => type === 'cgroup2');
  if (v2) return { version: 2, mount: v2[1] };
  throw new Error('no cgroup hierarchy with the cpu controller is mounted: a CPU limit cannot be set here');
}

export function cpuLimit(name: string, percentOfOneCpu: number): CpuLimit {
  const { version, mount } = cpuHierarchy();
  const dir = path.join(mount, name);
  try {
    fs.mkdirSync(dir);
    if (version === 2) fs.writeFileSync(path.join(mount, 'cgroup.subtree_control'), '+cpu');
  } catch (error) {
    throw new Error(`cannot make a CPU-limited cgroup under ${mount} (${(error as Error).message}): run as root`, {
      cause: error,
    });
  }
  const period = Math.min(MAX_PERIOD_US, Math.max(PERIOD_US, Math.round((MIN_QUOTA_US * 100) / percentOfOneCpu)));
  const quota = Math.max(MIN_QUOTA_US, Math.round((period * percentOfOneCpu) / 100));
  const set = (quotaUs: number | null) => {
    if (version === 2) return fs.writeFileSync(path.join(dir, 'cpu.max'), `${quotaUs ?? 'max'} ${period}`);
    fs.writeFileSync(path.join(dir, 'cpu.cfs_period_us'), String(period));
    fs.writeFileSync(path.join(dir, 'cpu.cfs_quota_us'), String(quotaUs ?? -1));
  };
  set(quota);
  return {
    dir,
    joinThenExec: (command) => `echo $$ > '${dir}/cgroup.procs' && exec ${command} "$@"`,
    hold: (pid) => fs.writeFileSync(path.join(dir, 'cgroup.procs'), String(pid)),
    lift: () => set(null),
    remove: async (timeoutMs = 30_000) => {
      set(null);
      const removed = () => {
        try {
          fs.rmdirSync(dir);
          return true;
        } catch {
          return false;
        }
      };
      await waitFor(removed, `the cgroup ${dir} to be removed`, timeoutMs);
    },
  };
}
