import { MAX_TIMER_MS } from './policy';
import type { SchedulerTimer } from './ports';

/** Production timer: one pending setTimeout, never longer than Node allows. */
export class RealTimer implements SchedulerTimer {
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

/** Test timer: remembers what was asked; the test decides when to fire by calling the scheduler's tick(). */
export class ManualTimer implements SchedulerTimer {
  armedDelayMs: number | undefined;
  private fire: (() => void) | undefined;

  arm(delayMs: number, fire: () => void): void {
    this.armedDelayMs = delayMs;
    this.fire = fire;
  }

  disarm(): void {
    this.armedDelayMs = undefined;
    this.fire = undefined;
  }

  /** Fires the armed callback now, as the real timer would when its delay has passed. */
  trigger(): void {
    const fire = this.fire;
    this.disarm();
    fire?.();
  }
}
