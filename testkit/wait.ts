import { scaled } from './time-scale';

/** Thrown by a probe when waiting longer cannot help (the process it waits on has exited): the wait fails at once. */
export class StopWaiting extends Error {}

/**
 * Polls until `probe` gives a truthy value, or fails naming what it waited for (and the probe's last error).
 * `timeoutMs` is the ceiling on a quiet machine; TEST_TIME_SCALE raises it on a busy one. `what` may be a
 * function, asked only on failure, to describe the state the wait ended in.
 */
export async function waitFor<T>(
  probe: () => Promise<T | undefined | false | null> | T | undefined | false | null,
  what: string | (() => string | Promise<string>),
  timeoutMs = 30_000,
  everyMs = 250,
): Promise<T> {
  const ceilingMs = scaled(timeoutMs);
  const deadline = Date.now() + ceilingMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await probe();
      if (value) return value;
    } catch (error) {
      if (error instanceof StopWaiting) throw error;
      last = error;
    }
    if (Date.now() > deadline) {
      const described = typeof what === 'string' ? what : await what();
      throw new Error(
        `Timed out after ${ceilingMs} ms waiting for ${described}${last ? ` (last error: ${String(last)})` : ''}`,
      );
    }
    await pause(everyMs);
  }
}

/**
 * Checks that something does NOT happen: runs `check` (expectations that hold while nothing has happened)
 * at once, then every `everyMs` until `ms` have passed, and throws the first failure as soon as it comes.
 * `ms` is the window on a quiet machine; TEST_TIME_SCALE widens it on a busy one, where whatever should
 * not happen would also come later. Use it instead of a fixed sleep followed by the expectations.
 */
export async function expectQuietFor(ms: number, check: () => unknown, everyMs = 20): Promise<void> {
  const deadline = Date.now() + scaled(ms);
  for (;;) {
    await check();
    const left = deadline - Date.now();
    if (left <= 0) return;
    await pause(Math.min(everyMs, left));
  }
}

/** A fixed pause: only for a poll's interval, or where real time itself is what a test is about (it says why). */
export const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
