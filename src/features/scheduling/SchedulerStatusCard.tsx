import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Chip from '@mui/material/Chip';
import Skeleton from '@mui/material/Skeleton';
import Typography from '@mui/material/Typography';
import PlayArrowIcon from '@mui/icons-material/PlayArrow';
import StopIcon from '@mui/icons-material/Stop';
import type { ReactNode } from 'react';
import type { SchedulerStatus } from '../../../contract/scheduler';
import { zonedDateTime, zonedTime, zoneAbbreviation } from './zoned-time';

interface SchedulerStatusCardProps {
  status: SchedulerStatus | undefined;
  /** When the status was last read (ms), for the "Updated" line. */
  updatedAt: number;
  busy: boolean;
  onStart: () => void;
  onStop: () => void;
}

function Figure({ label, value, detail }: { label: string; value: ReactNode; detail?: ReactNode }) {
  return (
    <Box role="group" aria-label={label} sx={{ minWidth: 0 }}>
      <Typography variant="body2" color="textSecondary">
        {label}
      </Typography>
      <Typography variant="h5" component="p" sx={{ fontWeight: 500, overflowWrap: 'anywhere' }}>
        {value}
      </Typography>
      {detail && (
        <Typography variant="body2" color="textSecondary" noWrap>
          {detail}
        </Typography>
      )}
    </Box>
  );
}

const loading = <Skeleton width={60} />;

/** The scheduler status card (docs/reference.md section 2, Scheduling): state chip, the three figures, Start or Stop. */
export function SchedulerStatusCard({ status, updatedAt, busy, onStart, onStop }: SchedulerStatusCardProps) {
  const running = status?.scheduler_running;
  return (
    <Card component="section" aria-labelledby="scheduler-status-title" sx={{ mb: 3 }}>
      <CardContent>
        <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 1.5, mb: 2 }}>
          <Typography id="scheduler-status-title" variant="h6" component="h2">
            Scheduler Status
          </Typography>
          {status && (
            <Chip label={running ? 'Running' : 'Stopped'} color={running ? 'success' : 'error'} size="small" />
          )}
          <Box sx={{ flexGrow: 1 }} />
          {updatedAt > 0 && (
            <Typography variant="body2" color="textSecondary">
              Updated {zonedTime(new Date(updatedAt).toISOString())}
            </Typography>
          )}
          {status &&
            (running ? (
              <Button variant="outlined" color="error" startIcon={<StopIcon />} onClick={onStop} disabled={busy}>
                Stop Scheduler
              </Button>
            ) : (
              <Button
                variant="contained"
                color="success"
                startIcon={<PlayArrowIcon />}
                onClick={onStart}
                disabled={busy}
              >
                Start Scheduler
              </Button>
            ))}
        </Box>
        <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr 2fr' }, gap: 3 }}>
          <Figure label="Total Jobs" value={status ? status.total_jobs : loading} />
          <Figure
            label="Active Schedules"
            value={status ? status.active_schedules : loading}
            detail="Recordings waiting to start"
          />
          <Figure
            label="Next Recording"
            value={
              status
                ? status.next_recording
                  ? `${zonedDateTime(status.next_recording)} ${zoneAbbreviation(status.next_recording)}`
                  : 'None scheduled'
                : loading
            }
            detail={status?.next_recording_mosque ?? undefined}
          />
        </Box>
      </CardContent>
    </Card>
  );
}
