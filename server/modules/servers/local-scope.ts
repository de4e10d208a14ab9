/** A local recorders' scope, `local:<host>:<data folder>` (capture/local/driver.ts), read back; null for any other scope. */
export function parseLocalScope(scope: string): { host: string; folder: string } | null {
  const match = /^local:([^:]+):(.+)$/.exec(scope);
  return match ? { host: match[1], folder: match[2] } : null;
}
