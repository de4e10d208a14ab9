import type { Instance, Recording } from '../../contract/instances';

/*
 * The health of one recorder, derived from what the fleet reports (issue 6: the Monitoring table's
 * chip is derived, not constant). A recorder is healthy while its media progresses; it is stalled when
 * its recording stops growing (seen here, or ended by the server's stall watchdog); failed when the
 * capture ended with nothing kept.
 */

export type RecorderHealthKind =
  'healthy' | 'starting' | 'stalled' | 'failed' | 'partial' | 'captured' | 'stopping' | 'stopped' | 'unknown';

export interface RecorderHealth {
  kind: RecorderHealthKind;
  label: string;
  color: 'success' | 'info' | 'warning' | 'error' | 'default';
  /** Why, for a tooltip; null when there is nothing to add. */
  detail: string | null;
}

/** A recording in progress whose size and media time have not moved for this long is stalled. */
export const STALL_AFTER_MS = 20_000;

/** What the console last saw of a recording's progress. */
export interface ProgressMark {
  bytes: number;
  seconds: number;
  /** When bytes or seconds last changed (or when first seen), ms since the epoch. */
  changedAt: number;
  /** Media was ever seen flowing (bytes or seconds above zero): drivers that report no progress never stall here. */
  progressed: boolean;
}

export type ProgressRecording = Pick<Recording, 'id' | 'status' | 'bytes' | 'duration_seconds'>;

/**
 * The progress marks after a new list of recordings: a mark is kept while neither figure moves, renewed
 * when one does; recordings no longer recording are dropped.
 */
export function trackProgress(
  previous: ReadonlyMap<string, ProgressMark>,
  recordings: readonly ProgressRecording[],
  now: number,
): Map<string, ProgressMark> {
  const next = new Map<string, ProgressMark>();
  for (const recording of recordings) {
    if (recording.status !== 'recording') continue;
    const bytes = recording.bytes;
    const seconds = recording.duration_seconds ?? 0;
    const before = previous.get(recording.id);
    const moved = !before || bytes !== before.bytes || seconds !== before.seconds;
    next.set(recording.id, {
      bytes,
      seconds,
      changedAt: moved ? now : before.changedAt,
      progressed: (before?.progressed ?? false) || bytes > 0 || seconds > 0,
    });
  }
  return next;
}

const STALL_REASON = /stall|no media/i;

const health = (
  kind: RecorderHealthKind,
  label: string,
  color: RecorderHealth['color'],
  detail: string | null = null,
): RecorderHealth => ({
  kind,
  label,
  color,
  detail,
});

function seconds(ms: number): number {
  return Math.round(ms / 1000);
}

/**
 * The health chip of one instance. `recording` is the instance's recording from the live feed (if the
 * feed carries it), `mark` its progress as seen by this console, `now` the current time in ms.
 */
export function recorderHealth(
  instance: Pick<Instance, 'state' | 'recording_status'>,
  recording: Pick<Recording, 'status' | 'reason'> | undefined,
  mark: ProgressMark | undefined,
  now: number,
): RecorderHealth {
  const status = recording?.status ?? instance.recording_status;
  const reason = recording?.reason ?? null;
  switch (status) {
    case 'failed':
      return health('failed', 'Failed', 'error', reason ?? 'The capture failed without keeping any media');
    case 'partial':
      if (reason && STALL_REASON.test(reason)) return health('stalled', 'Stalled', 'warning', reason);
      return health('partial', 'Partial', 'warning', reason ?? 'The capture ended early; what was recorded is kept');
    case 'captured':
      return health('captured', 'Captured', 'success', 'The media covers the whole recording window');
    default:
      break;
  }
  switch (instance.state) {
    case 'pending':
      return health('starting', 'Starting', 'info', 'Waiting for the first media');
    case 'stopping':
      return health('stopping', 'Stopping', 'info', null);
    case 'stopped':
    case 'terminated':
      return health('stopped', 'Stopped', 'default', null);
    case 'running':
      if (status !== 'recording')
        return health('unknown', 'Unknown', 'default', 'No recording is reported for this instance');
      if (mark?.progressed && now - mark.changedAt > STALL_AFTER_MS) {
        return health('stalled', 'Stalled', 'warning', `No media progress for ${seconds(now - mark.changedAt)} s`);
      }
      return health('healthy', 'Healthy', 'success', 'Media is progressing');
    default:
      return health('unknown', 'Unknown', 'default', null);
  }
}
