/**
 * Lets what queued up meanwhile (other requests, timers) run before long work goes on. With SQLite
 * every query answers synchronously, so a loop of awaits alone never lets a waiting request in.
 */
export const yieldToEventLoop = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));
