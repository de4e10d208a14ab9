import type { Clock, Timer } from '../server/lib/clock';

interface Pending {
  at: number;
  fire: () => void;
}

/**
 * A clock that starts at `start` and moves only when told. Its timers fire when it is moved past
 * their time (in time order), as a real timer would when that much time has passed.
 */
export class ManualClock implements Clock {
  private current: number;
  private readonly pending = new Set<Pending>();

  constructor(start: Date | string) {
    this.current = new Date(start).getTime();
  }

  now(): Date {
    return new Date(this.current);
  }

  timer(): Timer {
    let armed: Pending | undefined;
    return {
      arm: (delayMs, fire) => {
        if (armed) this.pending.delete(armed);
        armed = { at: this.current + Math.max(0, delayMs), fire };
        this.pending.add(armed);
      },
      disarm: () => {
        if (armed) this.pending.delete(armed);
        armed = undefined;
      },
    };
  }

  /** When the soonest timer armed on this clock fires (epoch ms), or undefined when none is armed. */
  nextTimerAt(): number | undefined {
    let soonest: number | undefined;
    for (const p of this.pending) if (soonest === undefined || p.at < soonest) soonest = p.at;
    return soonest;
  }

  set(instant: Date | string): void {
    this.current = new Date(instant).getTime();
    this.fireDue();
  }

  advance(ms: number): void {
    this.current += ms;
    this.fireDue();
  }

  private fireDue(): void {
    const due = [...this.pending].filter((p) => p.at <= this.current).sort((a, b) => a.at - b.at);
    for (const p of due) {
      this.pending.delete(p);
      p.fire();
    }
  }
}
