import type { AlarmKind } from '../../../contract/alarms';
import type { AlarmRow } from './repository';

/** What a failed capture explains for the same recording or job: its stall, its launch, its dead recorder, its partial end. */
const EXPLAINED_BY_FAILED_CAPTURE = new Set<AlarmKind>(['stall', 'launch_failed', 'recorder_died', 'capture_partial']);

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
    // A pre-flight alarm explains nothing: it is a forecast (a probe may time out under load), and one
    // that held the fleet's stalls and launch failures while open hid what really happened.
    return cause.kind === 'capture_failed' && EXPLAINED_BY_FAILED_CAPTURE.has(kind) && sameRecording(cause, alarm);
  });
}
