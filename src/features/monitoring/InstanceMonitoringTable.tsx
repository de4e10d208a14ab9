import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Chip from '@mui/material/Chip';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { StateChip } from '../../components/StateChip';
import { useFleetInstances } from '../../live/useFleetInstances';
import type { RecorderHealth } from '../../lib/recorder-health';
import { formatRuntime } from '../../lib/runtime';
import { useRecorderHealth } from './useRecorderHealth';
import { MosqueName } from '../../widgets/MosqueName';

/** Rows the table shows (docs/reference.md section 9). */
export const MONITORED_INSTANCES = 10;

function HealthChip({ health }: { health: RecorderHealth }) {
  const chip = <Chip size="small" variant="outlined" color={health.color} label={health.label} />;
  if (!health.detail) return chip;
  return (
    <Tooltip title={health.detail} enterDelay={100} enterTouchDelay={700} leaveDelay={0}>
      {chip}
    </Tooltip>
  );
}

/** The first 10 instances of the live feed (of the API while it is down) with a health chip derived from each recorder. */
export function InstanceMonitoringTable() {
  const instances = useFleetInstances();
  const healthOf = useRecorderHealth();
  const shown = (instances ?? []).slice(0, MONITORED_INSTANCES);
  return (
    <Card component="section" aria-labelledby="live-monitoring-title">
      <CardContent>
        <Typography id="live-monitoring-title" variant="h6" component="h2" gutterBottom>
          Live Instance Monitoring
        </Typography>
        {shown.length === 0 ? (
          <Typography color="textSecondary" sx={{ py: 2 }}>
            {instances ? 'No instances to monitor' : 'Loading instances…'}
          </Typography>
        ) : (
          <TableContainer>
            <Table size="small" aria-label="Live instance monitoring">
              <TableHead>
                <TableRow>
                  <TableCell>Name</TableCell>
                  <TableCell>Mosque</TableCell>
                  <TableCell>State</TableCell>
                  <TableCell>Runtime</TableCell>
                  <TableCell>Health</TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {shown.map((instance) => (
                  <TableRow key={instance.id}>
                    <TableCell>
                      <Typography variant="body2">{instance.name}</Typography>
                      <Typography variant="caption" color="textSecondary">
                        {instance.instance_id}
                      </Typography>
                    </TableCell>
                    <TableCell>
                      <MosqueName mosqueId={instance.mosque_id} />
                    </TableCell>
                    <TableCell>
                      <StateChip state={instance.state} />
                    </TableCell>
                    <TableCell>{formatRuntime(instance.runtime_hours)}</TableCell>
                    <TableCell>
                      <HealthChip health={healthOf(instance)} />
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </TableContainer>
        )}
      </CardContent>
    </Card>
  );
}
