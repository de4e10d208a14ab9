import crypto from 'node:crypto';
import os from 'node:os';

/** `host/pid/nonce`: who holds a launch claim or the planning lease; lets a restarted server on the same host spot a dead holder. */
export function newClaimantId(): string {
  return `${os.hostname()}/${process.pid}/${crypto.randomBytes(4).toString('hex')}`;
}

function processIsGone(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

/** The holder was another process on this host, and that process no longer exists. */
export function isDeadHereClaimant(claimant: string): boolean {
  const [host, pid] = claimant.split('/');
  return host === os.hostname() && Number(pid) !== process.pid && processIsGone(Number(pid));
}
