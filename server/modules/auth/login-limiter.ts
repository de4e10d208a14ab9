import type { Clock } from '../../lib/clock';

export interface LimiterRule {
  maxFailures: number;
  windowMs: number;
}

/** Keys are swept of stale entries after this many recorded attempts, so unused keys do not pile up. */
const SWEEP_EVERY = 1000;

/**
 * Counts failed sign-ins per key (a username or an address) in a sliding window.
 * In memory: each server process limits on its own, which still bounds guessing per process.
 */
export class FailureLimiter {
  private readonly failures = new Map<string, number[]>();
  private recordedSinceSweep = 0;

  constructor(
    private readonly rule: LimiterRule,
    private readonly clock: Clock,
  ) {}

  /** Milliseconds until the key may try again, or 0 when it is not blocked. */
  blockedFor(key: string): number {
    const recent = this.recent(key);
    if (recent.length < this.rule.maxFailures) return 0;
    return Math.max(1, recent[0] + this.rule.windowMs - this.clock.now().getTime());
  }

  /**
   * Counts one attempt as failed now, before it is checked, so attempts that arrive together cannot
   * all slip under the limit while their passwords are being verified. Returns a function that
   * takes this one attempt back (for an attempt that turned out to succeed).
   */
  recordFailure(key: string): () => void {
    const at = this.clock.now().getTime();
    const recent = this.recent(key);
    recent.push(at);
    this.failures.set(key, recent);
    if (++this.recordedSinceSweep >= SWEEP_EVERY) this.sweep();
    return () => {
      const list = this.failures.get(key);
      const index = list?.indexOf(at) ?? -1;
      if (list && index >= 0) list.splice(index, 1);
      if (list?.length === 0) this.failures.delete(key);
    };
  }

  reset(key: string): void {
    this.failures.delete(key);
  }

  private recent(key: string): number[] {
    const since = this.clock.now().getTime() - this.rule.windowMs;
    const kept = (this.failures.get(key) ?? []).filter((at) => at > since);
    if (kept.length === 0) this.failures.delete(key);
    else this.failures.set(key, kept);
    return kept;
  }

  private sweep(): void {
    this.recordedSinceSweep = 0;
    for (const key of [...this.failures.keys()]) this.recent(key);
  }
}
