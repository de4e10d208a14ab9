import type { SchedulerPrayerTime } from '../../../contract/scheduler';

/*
 * The scheduler's narrow view of the rest of the server. The service is built and tested against
 * these; adapters.ts connects them to the capture fleet and the prayer-times service.
 */

export interface LaunchRequest {
  jobId: string;
  url: string;
  /** Seconds; the rest of the recording window, so a late launch still ends when planned. */
  duration: number;
  width: number;
  height: number;
  mosqueId: string;
  /** The job id: launching the same job twice (a retry after a crash) must not start two recorders. */
  idempotencyKey: string;
  /** The job's recording window (ISO UTC): the recorder keeps trying until windowEnd. */
  windowStart?: string;
  windowEnd?: string;
}

/** Starts one recording. Throws when the launch failed; the scheduler retries with back-off. */
export interface RecordingLauncher {
  launch(request: LaunchRequest): Promise<{ instanceId: string }>;
  /**
   * True when the launcher itself publishes each attempt's launch_complete / launch_error (the capture
   * fleet does): the scheduler then publishes only what it alone knows (missed jobs, giving up).
   */
  readonly announcesOutcomes?: boolean;
}

/** One mosque's coming Friday prayer. */
export interface FridayPlan {
  mosqueId: string;
  mosqueName: string;
  /** Stream URL the recorder captures. */
  url: string;
  prayerAt: Date;
  /** 20 minutes before prayerAt (the planner owns that rule). */
  recordingStart: Date;
  /** The mosque's IANA zone. */
  timezone: string;
}

export interface PlanSkip {
  mosqueId: string;
  mosqueName: string | null;
  reason: string;
}

/**
 * Computes each active mosque's next Friday prayer whose recording has not ended yet, in the
 * mosque's own zone (DST-correct). `filter` null means every active mosque.
 */
export interface FridayPlanner {
  planFriday(now: Date, filter: string[] | null): Promise<{ plans: FridayPlan[]; skipped: PlanSkip[] }>;
  /** The coming Friday's prayer records (GET /api/scheduler/prayer-times). */
  prayerTimes(now: Date): Promise<SchedulerPrayerTime[]>;
}

/** When the scheduler should look again. Production uses a real timer; tests call `tick()` themselves. */
export interface SchedulerTimer {
  arm(delayMs: number, fire: () => void): void;
  disarm(): void;
}
