import Chip from '@mui/material/Chip';
import { fridayOfJobId } from '../../../contract/scheduler';

/** Which day a recording job records: "Friday 2026-11-27", or "One-off" for a recording at a chosen time. */
export function CaptureDayChip({ jobId }: { jobId: string }) {
  const friday = fridayOfJobId(jobId);
  return (
    <Chip
      size="small"
      variant="outlined"
      color={friday ? 'default' : 'info'}
      label={friday ? `Friday ${friday}` : 'One-off'}
      component="span"
    />
  );
}
