/** The scheduler's rules in one place (docs/architecture.md "Time"; docs/reference.md section 9). */

/** Launch defaults of docs/reference.md section 9. */
export const DEFAULT_DURATION_SECONDS = 7200;
export const DEFAULT_WIDTH = 1280;
export const DEFAULT_HEIGHT = 720;

/** The recurring job (id, name, trigger, next run) is declared in contract/: the console's mocks show it too. */
export { nextRecurringRun, RECURRING_JOB_ID, RECURRING_JOB_NAME, RECURRING_TRIGGER } from '../../../contract/scheduler';

/** Launch retries: 5 s, 15 s, 45 s, 135 s between attempts; at most 5 attempts, never past the window's end. */
export const MAX_LAUNCH_ATTEMPTS = 5;
export function retryDelayMs(attemptsSoFar: number): number {
  return 5000 * 3 ** Math.max(0, attemptsSoFar - 1);
}

/** A launch that takes longer than this counts as failed (the capture call keeps its idempotency key). */
export const LAUNCH_TIMEOUT_MS = 60_000;
/** A 'launching' claim older than this, held by a process we cannot see, is taken over. */
export const STALE_CLAIM_MS = 2 * 60_000;
/** A first launch more than this after the recording start is flagged late. */
export const LATE_AFTER_MS = 60_000;
/** Longest sleep: other processes' changes (new jobs, stop) are seen at least this often. */
export const POLL_INTERVAL_MS = 15_000;
/** Launches one process runs at a time; more due jobs wait for a slot (or another process). */
export const LAUNCH_CONCURRENCY = 16;
/** Finished jobs stay in the default jobs list this long. */
export const RECENT_JOBS_MS = 7 * 24 * 3600 * 1000;
