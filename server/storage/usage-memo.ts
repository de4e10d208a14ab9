import type { Clock } from '../lib/clock';
import type { RecordingStore, StoreUsage } from './recording-store';

/** How old the store's usage may be before it is measured again: measuring lists every object. */
export const USAGE_MAX_AGE_MS = 10 * 60_000;
/** How old a figure an operator's "measure now" still accepts: clicks in a row list the bucket once. */
export const USAGE_REMEASURE_AGE_MS = 30_000;

/**
 * The store's usage, measured at most every USAGE_MAX_AGE_MS (the storage card polls every minute on
 * every console, and a bucket is measured by listing the whole prefix) and again after the server
 * removed recordings. Concurrent readers share one measurement; a failed one is not kept.
 */
export class UsageMemo {
  private last: { usage: Promise<StoreUsage>; at: number } | undefined;

  constructor(
    private readonly store: RecordingStore,
    private readonly clock: Clock,
    private readonly maxAgeMs = USAGE_MAX_AGE_MS,
  ) {}

  /** The usage, measured again when the last figure is `maxAgeMs` old (by default the memo's own age). */
  async read(maxAgeMs = this.maxAgeMs): Promise<StoreUsage & { measuredAt: string }> {
    const now = this.clock.now().getTime();
    if (!this.last || now - this.last.at >= maxAgeMs) {
      const usage = this.store.usage();
      this.last = { usage, at: now };
      usage.catch(() => {
        if (this.last?.usage === usage) this.last = undefined;
      });
    }
    const { usage, at } = this.last;
    return { ...(await usage), measuredAt: new Date(at).toISOString() };
  }

  /** The store lost recordings here: the next read measures again. */
  invalidate(): void {
    this.last = undefined;
  }
}
