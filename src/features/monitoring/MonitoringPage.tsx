import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Grid from '@mui/material/Grid';
import Typography from '@mui/material/Typography';
import ComputerIcon from '@mui/icons-material/Computer';
import FavoriteIcon from '@mui/icons-material/Favorite';
import RefreshIcon from '@mui/icons-material/Refresh';
import VideocamIcon from '@mui/icons-material/Videocam';
import { useIsFetching, useQueryClient } from '@tanstack/react-query';
import { apiErrorMessage } from '../../api/client';
import { monitoringQueryKeys, useRecordingStats, useSystemHealth, useSystemMetrics } from '../../api/monitoring';
import { ConnectionLostBanner } from '../../widgets/ConnectionLostBanner';
import { ErrorBanner } from '../../components/ErrorBanner';
import { PageHeader } from '../../components/PageHeader';
import { StatCard } from '../../components/StatCard';
import { useFleetInstances } from '../../live/useFleetInstances';
import { formatDateTime } from '../../lib/dates';
import { summarizeFleet, systemStatusColor, systemStatusLabel } from '../../lib/fleet-summary';
import { InstanceMonitoringTable } from './InstanceMonitoringTable';
import { PerformanceMetrics } from './PerformanceMetrics';
import { SystemHealthList } from './SystemHealthList';
import { StorageCard } from '../../widgets/StorageCard';

export const MONITORING_LOAD_FAILED = 'Failed to load monitoring data';

/** /monitoring (docs/reference.md section 2): every figure measured by the server, polled every 30 s. */
export default function MonitoringPage() {
  const instances = useFleetInstances();
  const health = useSystemHealth();
  const metrics = useSystemMetrics();
  const stats = useRecordingStats();
  const queryClient = useQueryClient();
  const fetching = useIsFetching({ queryKey: monitoringQueryKeys.all }) > 0;
  const fleet = instances && summarizeFleet(instances);
  const failed = [health, metrics, stats].find((query) => query.isError);
  const status = health.data?.overall_status;
  const failing = health.data?.failing ?? [];
  const statusColor = systemStatusColor(status);

  return (
    <>
      <PageHeader
        title="Monitoring"
        subtitle="Fleet, recorder and system health"
        actions={
          <>
            {metrics.data && (
              <Typography variant="body2" color="textSecondary">
                Updated {formatDateTime(metrics.data.generated_at)}
              </Typography>
            )}
            <Button
              variant="outlined"
              startIcon={<RefreshIcon />}
              disabled={fetching}
              onClick={() => void queryClient.invalidateQueries({ queryKey: monitoringQueryKeys.all })}
            >
              Refresh
            </Button>
          </>
        }
      />
      <ConnectionLostBanner />
      <ErrorBanner message={failed ? apiErrorMessage(failed.error, MONITORING_LOAD_FAILED) : null} />
      <Grid container spacing={3}>
        <Grid size={{ xs: 12, sm: 4 }}>
          <StatCard
            title="Active Instances"
            value={fleet?.running}
            subtitle={fleet && `${fleet.pending} pending, ${fleet.total} listed`}
            icon={<ComputerIcon />}
            color="success"
          />
        </Grid>
        <Grid size={{ xs: 12, sm: 4 }}>
          <StatCard
            title="Recordings"
            value={stats.data?.total_recordings ?? '—'}
            subtitle="Total captured"
            icon={<VideocamIcon />}
            color="secondary"
          />
        </Grid>
        <Grid size={{ xs: 12, sm: 4 }}>
          <StatCard
            title="System Health"
            value={
              health.data ? (
                <Chip
                  label={systemStatusLabel(status)}
                  color={statusColor}
                  sx={{ fontSize: '1rem', fontWeight: 500 }}
                />
              ) : (
                '—'
              )
            }
            subtitle={
              health.data
                ? failing.length > 0
                  ? `Failing: ${failing.join(', ')}`
                  : 'All components healthy'
                : 'Checking...'
            }
            icon={<FavoriteIcon />}
            color={statusColor === 'default' ? 'primary' : statusColor}
          />
        </Grid>
        <Grid size={{ xs: 12, lg: 8 }}>
          <InstanceMonitoringTable />
        </Grid>
        <Grid size={{ xs: 12, lg: 4 }}>
          <SystemHealthList health={health.data} />
        </Grid>
        {/* Its own cell: under the System Health card (which fills its cell's height) it was pushed out of the grid item and painted over. */}
        <Grid size={{ xs: 12, md: 6, lg: 4 }}>
          <StorageCard />
        </Grid>
        <Grid size={12}>
          <PerformanceMetrics metrics={metrics.data} />
        </Grid>
      </Grid>
    </>
  );
}
