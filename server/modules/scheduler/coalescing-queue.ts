import { yieldToEventLoop } from '../../lib/yield-to-event-loop';

/**
 * Collects keys (mosque ids) and hands them to `work` in batches, one batch at a time: keys that
 * arrive while a batch runs form the next one, so a burst of changes costs a few batches instead of
 * one pass each, and a key added again during its own batch is worked again with the newer state.
 * No timer: the first change is worked at once, so nothing waits longer than before.
 */
/** Keys per batch: a batch is planned without a break, so its size bounds how long requests wait behind it. */
export const MAX_BATCH = 10;

export class CoalescingQueue {
  private readonly pending = new Set<string>();
  private running: Promise<void> | undefined;

  constructor(
    private readonly work: (keys: string[]) => Promise<void>,
    private readonly onError: (error: unknown, keys: string[]) => void,
  ) {}

  add(key: string): void {
    this.pending.add(key);
    this.running ??= this.drain();
  }

  /** Resolves once every key added so far has been worked. */
  async idle(): Promise<void> {
    while (this.running) await this.running;
  }

  private async drain(): Promise<void> {
    try {
      while (this.pending.size > 0) {
        const keys = [...this.pending].slice(0, MAX_BATCH);
        for (const key of keys) this.pending.delete(key);
        await this.work(keys).catch((error: unknown) => this.onError(error, keys));
        // Requests that queued up behind the batch go first.
        await yieldToEventLoop();
      }
    } finally {
      this.running = undefined;
    }
  }
}
