import crypto from 'node:crypto';

/**
 * Ids the fleet hands out: `cap-` + 12 hex for an instance (also the local driver's instance id and
 * folder name), `rec-` for a recording, `ami-local-` for an image of the local driver, `st-` for a stream test.
 */
export function newId(prefix: 'cap' | 'rec' | 'ami-local' | 'st'): string {
  return `${prefix}-${crypto.randomBytes(6).toString('hex')}`;
}

/** Ids that may name a folder: letters, digits and hyphens only. */
export function isSafeId(id: string): boolean {
  return /^[A-Za-z0-9-]{1,80}$/.test(id);
}
