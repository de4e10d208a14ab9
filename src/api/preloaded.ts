/*
 * Reads started before the page that shows them has loaded: a stored session opening /config asks for
 * the table's first page while the console's code is still arriving, instead of once the page has
 * rendered. The page's query takes its read once, by key; a read that failed is asked again, and one
 * never taken (the address changed meanwhile) is dropped when it is older than PRELOAD_TTL_MS.
 */

export const PRELOAD_TTL_MS = 10_000;
const reads = new Map<string, { at: number; result: Promise<unknown> }>();

export function preload<T>(key: string, read: () => Promise<T>, now = Date.now()): void {
  const result = read();
  result.catch(() => undefined);
  reads.set(key, { at: now, result });
}

/** The preloaded answer for `key` when there is a fresh one, else `read()`. */
export function takePreloaded<T>(key: string, read: () => Promise<T>, now = Date.now()): Promise<T> {
  const entry = reads.get(key);
  reads.delete(key);
  if (!entry || now - entry.at >= PRELOAD_TTL_MS) return read();
  return (entry.result as Promise<T>).catch(() => read());
}
