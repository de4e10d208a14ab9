import Box from '@mui/material/Box';
import Tooltip from '@mui/material/Tooltip';
import CheckCircleIcon from '@mui/icons-material/CheckCircle';
import ErrorIcon from '@mui/icons-material/Error';
import ScheduleIcon from '@mui/icons-material/Schedule';
import WarningIcon from '@mui/icons-material/Warning';
import { timingStatus } from '../../lib/timing';
import { TOOLTIP_DELAYS } from './tooltip';

/** What each icon tells, as its accessible name and tooltip. */
export const TIMING_LABELS = {
  none: 'No recording time',
  past: 'Recording time has passed',
  soon: 'Starts within the hour',
  later: 'Starts in more than an hour',
} as const;

function timing(time: string | null | undefined, now: Date) {
  const status = timingStatus(time, now);
  if (status === 'error') return { status, label: TIMING_LABELS.past, Icon: ErrorIcon };
  if (status === 'success') return { status, label: TIMING_LABELS.later, Icon: CheckCircleIcon };
  const missing = !time || Number.isNaN(new Date(time).getTime());
  return missing ? { status, label: TIMING_LABELS.none, Icon: WarningIcon } : { status, label: TIMING_LABELS.soon, Icon: ScheduleIcon };
}

/**
 * The timing icon of an upcoming recording (SPEC.md section 4): warning if there is no time, error if the
 * time is past, warning within 1 hour, success otherwise. Named for screen readers; the tooltip says the same.
 */
export function TimingIcon({ time, now }: { time: string | null | undefined; now: Date }) {
  const { status, label, Icon } = timing(time, now);
  return (
    <Tooltip title={label} describeChild {...TOOLTIP_DELAYS}>
      <Box component="span" role="img" aria-label={label} data-timing={status} sx={{ display: 'inline-flex', color: `${status}.main` }}>
        <Icon fontSize="small" aria-hidden />
      </Box>
    </Tooltip>
  );
}
