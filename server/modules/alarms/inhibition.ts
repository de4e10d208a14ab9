import type { AlarmKind } from '../../../contract/alarms';
import type { AlarmRow } from './repository';

/** The provider outage the pre-flight check reports (scheduler/alarm-keys.ts names it the same). */
const PROVIDER_OUTAGE_KEY = 'preflight:provider';
/** A job's stream that the pre-flight check could not resolve: `preflight:<job id>:stream`. */
const STREAM_PREFLIGHT = /^preflight:.+:stream$/;

/** What a failed capture explains for the same recording or job: its stall, its launch, its dead recorder, its partial end. */
const EXPLAINED_BY_FAILED_CAPTURE = new Set<AlarmKind>(['stall', 'launch_failed', 'recorder_died', 'capture_partial']);
/** What an outage of the capture provider explains, fleet-wide. */
const EXPLAINED_BY_PROVIDER_OUTAGE = new Set<AlarmKind>(['stall', 'launch_failed', 'recorder_died', 'missed']);
/** What an unresolvable stream explains for its job. */
const EXPLAINED_BY_STREAM_PREFLIGHT = new Set<AlarmKind>(['stall', 'launch_failed']);

type Subject = Pick<AlarmRow, 'id' | 'kind' | 'job_id' | 'instance_id'>;

const sameRecording = (a: Subject, b: Subject) =>
  (a.instance_id !== null && a.instance_id === b.instance_id) || (a.job_id !== null && a.job_id === b.job_id);

/**
 * Inhibition, as in Alertmanager: an open alarm that explains another holds the other's notifications
 * (the operator is told the cause, not each of its effects). Returns the open alarm that explains
 * `alarm`, if any.
 */
export function inhibitorOf(
  alarm: Subject,
  open: readonly Pick<AlarmRow, 'id' | 'kind' | 'job_id' | 'instance_id' | 'cause_key'>[],
): Pick<AlarmRow, 'id' | 'cause_key'> | undefined {
  const kind = alarm.kind as AlarmKind;
  return open.find((cause) => {
    if (cause.id === alarm.id) return false;
    if (cause.kind === 'capture_failed') return EXPLAINED_BY_FAILED_CAPTURE.has(kind) && sameRecording(cause, alarm);
    if (cause.cause_key === PROVIDER_OUTAGE_KEY) return EXPLAINED_BY_PROVIDER_OUTAGE.has(kind);
    if (STREAM_PREFLIGHT.test(cause.cause_key))
      return EXPLAINED_BY_STREAM_PREFLIGHT.has(kind) && cause.job_id !== null && cause.job_id === alarm.job_id;
    return false;
  });
}
