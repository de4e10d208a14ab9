import DialogContentText from '@mui/material/DialogContentText';
import type { Job, UpcomingRecording } from '../../../contract/scheduler';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { zonedDateTime, zoneAbbreviation } from './zoned-time';

/** What a cancel confirmation names: the mosque, its Friday and the recording's start on the mosque's clock. */
export interface CancelTarget {
  jobId: string;
  mosque: string;
  friday: string | null;
  start: string | null;
  timezone: string | null;
}

export function cancelTargetOf(target: Job | UpcomingRecording): CancelTarget {
  if ('job_id' in target) {
    return {
      jobId: target.job_id,
      mosque: target.mosque_name,
      friday: null,
      start: target.recording_time,
      timezone: target.timezone,
    };
  }
  return {
    jobId: target.id,
    mosque: target.mosque_name ?? target.name,
    friday: target.friday_date,
    start: target.recording_start,
    timezone: target.timezone,
  };
}

export function CancelRecordingDialog({
  target,
  onConfirm,
  onClose,
}: {
  target: CancelTarget | null;
  onConfirm: () => void;
  onClose: () => void;
}) {
  const start = target?.start
    ? `${zonedDateTime(target.start, target.timezone ?? undefined)} ${zoneAbbreviation(target.start, target.timezone ?? undefined)}`
    : 'an unknown time';
  return (
    <ConfirmDialog
      open={target !== null}
      title="Cancel this recording?"
      message={
        <DialogContentText>
          {`${target?.mosque ?? ''}${target?.friday ? `, Friday ${target.friday}` : ''}: the recording starting ${start} will not be launched. `}
          You can restore it from the Fridays list until its recording window ends.
        </DialogContentText>
      }
      confirmLabel="Cancel Recording"
      cancelLabel="Keep"
      confirmColor="error"
      onConfirm={onConfirm}
      onCancel={onClose}
    />
  );
}

export function StopSchedulerDialog({
  open,
  onConfirm,
  onClose,
}: {
  open: boolean;
  onConfirm: () => void;
  onClose: () => void;
}) {
  return (
    <ConfirmDialog
      open={open}
      title="Stop the scheduler?"
      message="While it is stopped no Friday recording is launched: a recording that falls due meanwhile starts late, or is missed if its window ends first."
      confirmLabel="Stop"
      cancelLabel="Keep Running"
      confirmColor="error"
      onConfirm={onConfirm}
      onCancel={onClose}
    />
  );
}
