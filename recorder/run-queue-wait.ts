/*
 * How long a process has waited for a CPU while ready to run: the kernel's run-queue delay of its main
 * thread (the second field of /proc/<pid>/schedstat, in ns), which grows while a busy machine or a CPU
 * quota keeps it off the CPU and not while it waits on the network. It tells our own lateness apart
 * from the stream's. Part of the recorder runtime: Node and its siblings only.
 */
import fs from 'node:fs';

/** Milliseconds `pid`'s main thread has waited for a CPU since it started; 0 where the kernel does not say. */
export function runQueueWaitMs(pid: number | null): number {
  if (pid === null) return 0;
  try {
    const waitedNs = Number(fs.readFileSync(`/proc/${pid}/schedstat`, 'utf8').split(' ')[1]);
    return Number.isFinite(waitedNs) ? waitedNs / 1e6 : 0;
  } catch {
    // No procfs (not Linux) or the process has just exited: no wait is known, and none is credited.
    return 0;
  }
}
