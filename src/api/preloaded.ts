/*
 * Reads started before the page that shows them has loaded: a stored session opening /config asks for
 * the table's first page while the console's code is still arriving, instead of once the page has
 * rendered. The page's query takes its read once, by key; a read that failed is asked again, and one
 * never taken (the address changed meanwhile) is dropped when it is older than PRELOAD_TTL_MS.
 */

export const PRELOAD_TTL_MS = 10_000;

interface Read {
  at: number;
  result: Promise<unknown>;
  /** The answer and when it came, once it has. */
  settled?: { value: unknown; at: number };
}

const reads = new Map<string, Read>();

export function preload<T>(key: string, read: () => Promise<T>, now = Date.now()): void {
  const result = read();
  const entry: Read = { at: now, result };
  result.then(
    (value) => {
      entry.settled = { value, at: Date.now() };
    },
    () => undefined,
  );
  reads.set(key, entry);
}

/** The preloaded answer for `key` when there is a fresh one, else `read()`. */
export function takePreloaded<T>(key: string, read: () => Promise<T>, now = Date.now()): Promise<T> {
  const entry = reads.get(key);
  reads.delete(key);
  if (!entry || now - entry.at >= PRELOAD_TTL_MS) return read();
  return (entry.result as Promise<T>).catch(() => read());
}

/**
 * The preloaded answer for `key` when it has already come (and is fresh), taken; else undefined and the
 * read stays for takePreloaded. A page renders it at once, rather than a loading state first and the
 * answer a moment later (one render of the page instead of two).
 */
export function takeArrived<T>(key: string, now = Date.now()): { value: T; at: number } | undefined {
  const entry = reads.get(key);
  if (!entry?.settled || now - entry.at >= PRELOAD_TTL_MS) return undefined;
  reads.delete(key);
  return entry.settled as { value: T; at: number };
}
