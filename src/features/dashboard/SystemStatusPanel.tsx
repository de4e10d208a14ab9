import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Chip from '@mui/material/Chip';
import LinearProgress from '@mui/material/LinearProgress';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import { useLive } from '../../live/context';
import { NOT_KNOWN } from '../../components/StatCard';
import { useFleetInstances } from '../../live/useFleetInstances';
import {
  activeRecordings,
  healthBarValue,
  summarizeFleet,
  systemStatusColor,
  systemStatusLabel,
} from '../../lib/fleet-summary';

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Box sx={{ display: 'flex', justifyContent: 'space-between', alignItems: 'center', gap: 2 }}>
      <Typography color="textSecondary">{label}</Typography>
      {children}
    </Box>
  );
}

/** Connection, system status (green only when operational), active recordings, pending tasks, health bar. */
export function SystemStatusPanel() {
  const { connected, known, systemStatus, recordings } = useLive();
  const instances = useFleetInstances();
  const health = healthBarValue(connected);
  const pending = instances ? summarizeFleet(instances).pending : NOT_KNOWN;
  return (
    <Card sx={{ height: '100%' }} component="section" aria-labelledby="system-status-title">
      <CardContent>
        <Typography id="system-status-title" variant="h6" component="h2" gutterBottom>
          System Status
        </Typography>
        <Stack spacing={1.5}>
          <Row label="Connection">
            <Chip
              size="small"
              color={connected ? 'success' : 'error'}
              label={connected ? 'WebSocket Connected' : 'WebSocket Disconnected'}
            />
          </Row>
          <Row label="System Status">
            <Chip
              size="small"
              color={systemStatusColor(systemStatus)}
              label={systemStatusLabel(systemStatus)}
              aria-label={`System status ${systemStatusLabel(systemStatus)}`}
            />
          </Row>
          <Row label="Active Recordings">
            <Typography sx={{ fontWeight: 500 }}>{known ? activeRecordings(recordings) : NOT_KNOWN}</Typography>
          </Row>
          <Row label="Pending Tasks">
            <Typography sx={{ fontWeight: 500 }}>{pending}</Typography>
          </Row>
          <Box>
            <Box sx={{ display: 'flex', justifyContent: 'space-between', mb: 0.5 }}>
              <Typography color="textSecondary">System Health</Typography>
              <Typography sx={{ fontWeight: 500 }}>{health}%</Typography>
            </Box>
            <LinearProgress
              variant="determinate"
              value={health}
              color={connected ? 'success' : 'error'}
              aria-label="System health"
              sx={{ height: 8, borderRadius: 4 }}
            />
          </Box>
        </Stack>
      </CardContent>
    </Card>
  );
}
