import Box from '@mui/material/Box';
import Tooltip from '@mui/material/Tooltip';
import CheckCircleIcon from '@mui/icons-material/CheckCircle';
import ErrorIcon from '@mui/icons-material/Error';
import ScheduleIcon from '@mui/icons-material/Schedule';
import WarningIcon from '@mui/icons-material/Warning';
import { timingOf, type TimingKind } from './timing-label';
import { TOOLTIP_DELAYS } from '../../lib/tooltip-delays';

const ICONS: Record<TimingKind, typeof ErrorIcon> = {
  past: ErrorIcon,
  later: CheckCircleIcon,
  none: WarningIcon,
  soon: ScheduleIcon,
};

/**
 * The timing icon of an upcoming recording (docs/reference.md section 4): warning if there is no time, error if the
 * time is past, warning within 1 hour, success otherwise. Named for screen readers; the tooltip says the same.
 */
export function TimingIcon({ time, now }: { time: string | null | undefined; now: Date }) {
  const { status, kind, label } = timingOf(time, now);
  const Icon = ICONS[kind];
  return (
    <Tooltip title={label} describeChild {...TOOLTIP_DELAYS}>
      <Box
        component="span"
        role="img"
        aria-label={label}
        data-timing={status}
        sx={{ display: 'inline-flex', color: `${status}.main` }}
      >
        <Icon fontSize="small" aria-hidden />
      </Box>
    </Tooltip>
  );
}
