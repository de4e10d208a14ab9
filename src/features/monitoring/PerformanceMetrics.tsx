import Accordion from '@mui/material/Accordion';
import AccordionDetails from '@mui/material/AccordionDetails';
import AccordionSummary from '@mui/material/AccordionSummary';
import Box from '@mui/material/Box';
import Grid from '@mui/material/Grid';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import ExpandMoreIcon from '@mui/icons-material/ExpandMore';
import type { ReactNode } from 'react';
import type { SystemMetrics } from '../../../contract/monitoring';
import { formatMs, formatSeconds } from '../../lib/fleet-summary';
import { Sparkline } from './Sparkline';

function Figure({ label, value }: { label: string; value: ReactNode }) {
  return (
    <Box sx={{ display: 'flex', justifyContent: 'space-between', gap: 2 }}>
      <Typography color="textSecondary">{label}</Typography>
      <Typography sx={{ fontWeight: 500 }}>{value}</Typography>
    </Box>
  );
}

function Panel({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Box
      component="section"
      aria-label={title}
      sx={{ p: 2, border: 1, borderColor: 'divider', borderRadius: 1, height: '100%' }}
    >
      <Typography variant="subtitle1" component="h3" gutterBottom sx={{ fontWeight: 500 }}>
        {title}
      </Typography>
      <Stack spacing={1}>{children}</Stack>
    </Box>
  );
}

/** Expandable: API response times with a p95 chart of the last hour, instance metrics, websocket. */
export function PerformanceMetrics({ metrics }: { metrics: SystemMetrics | undefined }) {
  const api = metrics?.api_response_times;
  const history = api?.history ?? [];
  const requestsLastHour = history.reduce((sum, minute) => sum + minute.requests, 0);
  return (
    <Accordion defaultExpanded disableGutters>
      <AccordionSummary
        expandIcon={<ExpandMoreIcon />}
        aria-controls="performance-metrics-content"
        id="performance-metrics-header"
      >
        <Typography variant="h6" component="h2">
          Performance Metrics
        </Typography>
      </AccordionSummary>
      <AccordionDetails id="performance-metrics-content">
        <Grid container spacing={2}>
          <Grid size={{ xs: 12, sm: 4 }}>
            <Panel title="API Response Times">
              <Figure label="Average" value={formatMs(api?.average_ms)} />
              <Figure label="95th percentile" value={formatMs(api?.p95_ms)} />
              <Figure label="Requests measured" value={api?.sample_count ?? '—'} />
              <Box>
                <Typography variant="caption" color="textSecondary">
                  p95 over the last hour ({requestsLastHour} requests)
                </Typography>
                <Sparkline
                  values={history.map((minute) => minute.p95_ms)}
                  label="API p95 response time per minute over the last hour"
                  formatMax={(max) => `max ${formatMs(max)}`}
                  startLabel="60 min ago"
                  endLabel="now"
                />
              </Box>
            </Panel>
          </Grid>
          <Grid size={{ xs: 12, sm: 4 }}>
            <Panel title="Instance Metrics">
              <Figure
                label="Average launch time"
                value={formatSeconds(metrics?.instance_metrics.average_launch_time_seconds)}
              />
              <Figure label="Launches measured" value={metrics?.instance_metrics.launches_measured ?? '—'} />
              {Object.entries(metrics?.instance_metrics.by_state ?? {}).map(([state, count]) => (
                <Figure key={state} label={`${state.charAt(0).toUpperCase()}${state.slice(1)}`} value={count} />
              ))}
            </Panel>
          </Grid>
          <Grid size={{ xs: 12, sm: 4 }}>
            <Panel title="WebSocket">
              <Figure label="Active connections" value={metrics?.websocket_metrics.active_connections ?? '—'} />
              <Figure label="Messages sent (24 h)" value={metrics?.websocket_metrics.messages_sent_24h ?? '—'} />
            </Panel>
          </Grid>
        </Grid>
      </AccordionDetails>
    </Accordion>
  );
}
