import Grid from '@mui/material/Grid';
import LinearProgress from '@mui/material/LinearProgress';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import ComputerIcon from '@mui/icons-material/Computer';
import StorageIcon from '@mui/icons-material/Storage';
import VideocamIcon from '@mui/icons-material/Videocam';
import { useRecordingStats } from '../../api/monitoring';
import { StatCard } from '../../components/StatCard';
import { useLive } from '../../live/context';
import { useFleetInstances } from '../../live/useFleetInstances';
import { activeRecordings, DASHBOARD_BAR_FULL, runningBarValue, summarizeFleet } from '../../lib/fleet-summary';

/** Running Instances (pending count, bar full at 20), Total Instances, Recordings: live from the feed (the fleet from the API while it is down). */
export function FleetCards() {
  const { known, recordings } = useLive();
  const instances = useFleetInstances();
  const stats = useRecordingStats();
  const fleet = instances && summarizeFleet(instances);
  const recordingNow = known ? activeRecordings(recordings) : undefined;
  return (
    <>
      <Grid size={{ xs: 12, sm: 4 }}>
        <StatCard
          title="Running Instances"
          value={fleet?.running}
          subtitle={fleet && `${fleet.pending} pending`}
          icon={<ComputerIcon />}
          color="success"
        >
          {fleet && (
            <Box sx={{ mt: 2 }}>
              <LinearProgress
                variant="determinate"
                value={runningBarValue(fleet.running)}
                color="success"
                aria-label={`Running instances: ${fleet.running} of ${DASHBOARD_BAR_FULL}`}
                sx={{ height: 8, borderRadius: 4 }}
              />
              <Typography variant="caption" color="textSecondary">
                {fleet.running} / {DASHBOARD_BAR_FULL}
              </Typography>
            </Box>
          )}
        </StatCard>
      </Grid>
      <Grid size={{ xs: 12, sm: 4 }}>
        <StatCard
          title="Total Instances"
          value={fleet?.total}
          subtitle={fleet && `${fleet.total - fleet.running - fleet.pending} stopped or ended`}
          icon={<StorageIcon />}
          color="primary"
        />
      </Grid>
      <Grid size={{ xs: 12, sm: 4 }}>
        <StatCard
          title="Recordings"
          value={stats.data?.total_recordings ?? (known ? recordings.length : undefined)}
          subtitle={recordingNow !== undefined && `${recordingNow} recording now`}
          icon={<VideocamIcon />}
          color="secondary"
        />
      </Grid>
    </>
  );
}
