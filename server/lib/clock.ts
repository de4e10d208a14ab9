/** One pending wake-up: arming again replaces it. */
export interface Timer {
  arm(delayMs: number, fire: () => void): void;
  disarm(): void;
}

/**
 * The server's only source of "now", and of waiting for a moment to come: whoever moves time (the
 * system, or a test's clock) also decides when a timer fires, so no code picks a timer by itself.
 */
export interface Clock {
  now(): Date;
  timer(): Timer;
}

/** Node fires longer timeouts at once; never arm beyond it (a later re-arm covers the rest). */
const MAX_TIMER_MS = 2 ** 31 - 1;

/** One pending setTimeout. */
class SystemTimer implements Timer {
  private handle: NodeJS.Timeout | undefined;

  arm(delayMs: number, fire: () => void): void {
    this.disarm();
    this.handle = setTimeout(fire, Math.min(Math.max(0, delayMs), MAX_TIMER_MS));
  }

  disarm(): void {
    if (this.handle) clearTimeout(this.handle);
    this.handle = undefined;
  }
}

export const systemClock: Clock = { now: () => new Date(), timer: () => new SystemTimer() };
