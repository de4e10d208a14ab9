/*
 * The recording window on this machine's clock, and the waits between tries. Part of the recorder
 * runtime: Node and its siblings only.
 */
import type { RecorderConfig, RecorderSettings, RunRecord } from './protocol';

export interface LocalWindow {
  start: number;
  end: number;
  /** Server clock minus this machine's: what turns a local time into the server's. */
  offsetMs: number;
}

export function localWindow(config: RecorderConfig): LocalWindow {
  const offsetMs = config.clockOffsetMs ?? 0;
  return { start: Date.parse(config.windowStart) - offsetMs, end: Date.parse(config.windowEnd) - offsetMs, offsetMs };
}

/** Wait before the next try after `failures` runs in a row without media: 5 s doubling up to 30 s by default. */
export function retryDelayMs(failures: number, settings: RecorderSettings): number {
  const seconds = Math.min(settings.retryMaxSeconds, settings.retryInitialSeconds * 2 ** Math.max(0, failures - 1));
  return seconds * 1000;
}

/**
 * The waits between tries. A stream that was giving media a moment ago is tried again quickly (every
 * `dropRetrySeconds` for `dropRetryForSeconds` after it dropped): most drops of a live sermon are an
 * encoder restart or a network blip of seconds, and the doubling back-off would add up to tens of
 * seconds of lost sermon to each. A stream that is not live yet, or has been down for longer, is
 * tried with the back-off of retryDelayMs.
 */
export class RetryPlan {
  private failures = 0;

  /** `droppedAt`: when the stream last gave media (a relaunched recorder carries on from its runs). */
  constructor(
    private readonly settings: RecorderSettings,
    private droppedAt: number | null = null,
  ) {}

  /** The wait after a run that ended at `now`; `gaveMedia` when the run recorded something. */
  next(gaveMedia: boolean, now: number): number {
    if (gaveMedia) {
      this.droppedAt = now;
      this.failures = 0;
      return 1000;
    }
    if (this.droppedAt !== null && now - this.droppedAt < this.settings.dropRetryForSeconds * 1000)
      return this.settings.dropRetrySeconds * 1000;
    this.failures++;
    return retryDelayMs(this.failures, this.settings);
  }
}

/** A wait that a stop can cut short. */
export class Pause {
  private wake: (() => void) | undefined;
  private timer: NodeJS.Timeout | undefined;

  for(ms: number): Promise<void> {
    return new Promise((resolve) => {
      this.wake = resolve;
      this.timer = setTimeout(resolve, Math.max(0, ms));
    });
  }

  interrupt(): void {
    clearTimeout(this.timer);
    this.wake?.();
  }
}

/**
 * A run a killed recorder left open: it ended when the recorder went down. Its media is placed to end
 * where the recorder last saw it advance (saved every second); a piece cut short by the kill that no
 * longer probes is lost, and shows as part of the gap.
 */
export function closeAbandonedRun(run: RunRecord, now: Date): void {
  run.endedAt = run.lastMediaAt ?? now.toISOString();
  run.endReason = 'Recorder was down';
  run.endCause = 'recorder_down';
}
