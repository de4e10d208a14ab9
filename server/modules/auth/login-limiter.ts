import type { Clock } from '../../lib/clock';

export interface LimiterRule {
  maxFailures: number;
  windowMs: number;
}

/**
 * Counts failed sign-ins per key (a username or an address) in a sliding window.
 * In memory: each server process limits on its own, which still bounds guessing per process.
 */
export class FailureLimiter {
  private readonly failures = new Map<string, number[]>();

  constructor(
    private readonly rule: LimiterRule,
    private readonly clock: Clock,
  ) {}

  /** Milliseconds until the key may try again, or 0 when it is not blocked. */
  blockedFor(key: string): number {
    const recent = this.recent(key);
    if (recent.length < this.rule.maxFailures) return 0;
    return recent[0] + this.rule.windowMs - this.clock.now().getTime();
  }

  recordFailure(key: string): void {
    const recent = this.recent(key);
    recent.push(this.clock.now().getTime());
    this.failures.set(key, recent);
  }

  reset(key: string): void {
    this.failures.delete(key);
  }

  private recent(key: string): number[] {
    const since = this.clock.now().getTime() - this.rule.windowMs;
    const kept = (this.failures.get(key) ?? []).filter((at) => at > since);
    if (kept.length === 0) this.failures.delete(key);
    return kept;
  }
}
