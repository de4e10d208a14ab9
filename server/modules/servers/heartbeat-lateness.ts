import type { Clock } from '../../lib/clock';

/** Beats remembered for the largest lateness: ten minutes, a scrape interval many times over. */
const WINDOW_MS = 10 * 60_000;

/**
 * How late this server's heartbeats land: from the moment a beat fell due to the moment its write was
 * committed, so a busy event loop and a slow database both show. A lateness nearing DEAD_AFTER_MS is
 * a server about to be taken over while it runs.
 */
export class HeartbeatLateness {
  private readonly beats: { at: number; seconds: number }[] = [];

  constructor(private readonly clock: Clock) {}

  /** A beat due at `dueAt` was written now. */
  record(dueAt: number): void {
    const now = this.clock.now().getTime();
    this.beats.push({ at: now, seconds: Math.max(0, now - dueAt) / 1000 });
    while (this.beats.length > 0 && this.beats[0].at < now - WINDOW_MS) this.beats.shift();
  }

  /** The latest beat's lateness in seconds (0 before the first). */
  last(): number {
    return this.beats.at(-1)?.seconds ?? 0;
  }

  /** The largest lateness of the last ten minutes, in seconds. */
  max(): number {
    const since = this.clock.now().getTime() - WINDOW_MS;
    return this.beats.reduce((max, beat) => (beat.at >= since ? Math.max(max, beat.seconds) : max), 0);
  }
}
