import type { SchedulerPrayerTime } from '../../../contract/scheduler';
import type { Timer } from '../../lib/clock';

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
  /** The recording window (UTC): a recorder keeps trying until windowEnd. */
  windowStart: string;
  windowEnd: string;
}

/** A gap in a recording's media, in UTC, with what caused it. */
export interface RecordingGap {
  start: string;
  end: string;
  reason: string;
}

/** What a recording holds, as its recorder measured it from the media. */
export interface RecordingFacts {
  recordingId: string;
  /** The recorder is still writing (or joining) it. */
  inProgress: boolean;
  coveredSeconds: number;
  gaps: RecordingGap[];
  /** The recorder's own account of an early end or failure, if any. */
  reason: string | null;
  /**
   * Still in progress, and no live server follows its recorder (its server died and none has taken
   * it over yet): what the database holds of it is a partial view, not its outcome.
   */
  unattended?: boolean;
}

/**
 * Starts one recording. Throws when the launch failed; the scheduler retries with back-off. A launch
 * resolves only once the recording exists and the provider holds its instance: a launch cut short
 * (a crash) must not read as done.
 */
export interface RecordingLauncher {
  launch(request: LaunchRequest): Promise<{ instanceId: string; recordingId: string | null }>;
  /** What the instance's recording holds; null when there is none. */
  recordingOf(instanceId: string): Promise<RecordingFacts | null>;
  /**
   * The recorder a launch of this job made, if its launch completed (whichever server made it): a job
   * whose claim was taken over, or whose window ended while it was claimed, still has its recorder.
   */
  launchedFor(jobId: string): Promise<{ instanceId: string; recordingId: string | null } | null>;
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
  /** Every active mosque (the Friday ledger has a row for each). */
  activeMosques(): Promise<{ id: string; name: string }[]>;
}

/** The checks made 10 minutes before a recording starts. */
export interface PreflightChecks {
  /** Throws (with a readable message) when the capture provider is not healthy. */
  providerHealthy(): Promise<void>;
  /** Throws when the stream source cannot be resolved to media. */
  resolveStream(url: string): Promise<void>;
  /** Bytes free where local recordings are written; null when recordings are not local. */
  freeBytes(): Promise<number | null>;
}

/** When the scheduler should look again: the clock's timer, unless a test drives `tick()` itself. */
export type SchedulerTimer = Timer;

/** A cause the scheduler raises or clears (the alarms module owns the rest). */
export interface SchedulerAlarmCause {
  kind: 'launch_failed' | 'missed' | 'unschedulable' | 'preflight' | 'capture_failed';
  key: string;
  message: string;
  mosqueId?: string | null;
  mosqueName?: string | null;
  jobId?: string | null;
  instanceId?: string | null;
}

export interface SchedulerAlarms {
  raise(cause: SchedulerAlarmCause): Promise<unknown>;
  resolve(...keys: string[]): Promise<void>;
  /** Resolves every open alarm whose key starts with `prefix` but is not in `stillTrue`. */
  resolveAllExcept(prefix: string, stillTrue: ReadonlySet<string>): Promise<void>;
}
