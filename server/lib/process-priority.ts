import fs from 'node:fs';
import os from 'node:os';

/**
 * A detached process (a recorder, an audio encode) leads a session of its own, which Linux's autogroup scheduling (on by default
 * on desktops and many servers) weighs as a whole against the server's: the niceness of the group
 * is set too, else the process's own counts only inside its group. Linux only: elsewhere, and where
 * the kernel refuses (it limits how often a group's niceness changes), the process's own stands.
 */
export function lowerPriority(pid: number, by: number): void {
  try {
    // Relative to the server's own (which the process inherited): lowering is allowed, raising is not.
    const niceness = Math.min(19, os.getPriority() + by);
    os.setPriority(pid, niceness);
    fs.writeFileSync(`/proc/${pid}/autogroup`, String(niceness));
  } catch {
    // Exited already (its death is found by the next inspection), or not ours to change: it runs anyway.
  }
}
