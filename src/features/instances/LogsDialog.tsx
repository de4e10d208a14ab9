import FormControlLabel from '@mui/material/FormControlLabel';
import Switch from '@mui/material/Switch';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Typography from '@mui/material/Typography';
import FiberManualRecordIcon from '@mui/icons-material/FiberManualRecord';
import RefreshIcon from '@mui/icons-material/Refresh';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import type { Instance } from '../../../contract/instances';
import { INSTANCE_ERRORS, instanceLogsQueryKey, LOG_LINES, useInstanceLogs } from '../../api/instances';
import { ErrorBanner } from '../../components/ErrorBanner';
import { useLive } from '../../live/context';
import { withoutSegmentOpenings } from '../../lib/log-lines';

interface LogsDialogProps {
  instance: Instance;
  onClose: () => void;
}

/**
 * The last 100 log lines of an instance (docs/reference.md sections 4 and 9). For a running instance it is live: the lines
 * are read again every 5 s, and the live feed pushes them too (subscribe_logs) while the dialog is open. Over a
 * connected feed, the lines of an instance that no longer runs, and Refresh, are asked for with request_logs.
 */
export function LogsDialog({ instance, onClose }: LogsDialogProps) {
  const live = instance.state === 'running';
  const logs = useInstanceLogs(instance.id, live);
  const queryClient = useQueryClient();
  const { connected, send, subscribe } = useLive();
  const [dismissedError, setDismissedError] = useState(0);
  const [showAll, setShowAll] = useState(false);
  const box = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (!connected) return undefined;
    const off = subscribe('instance_logs', (message) => {
      if (message.instance_id === instance.id || message.instance_id === instance.instance_id) {
        queryClient.setQueryData(instanceLogsQueryKey(instance.id), message.logs.slice(-LOG_LINES));
      }
    });
    // The server answers a subscription at once with the lines so far, as it answers request_logs.
    send({ action: live ? 'subscribe_logs' : 'request_logs', instance_id: instance.id });
    return () => {
      off();
      if (live) send({ action: 'unsubscribe_logs', instance_id: instance.id });
    };
  }, [live, connected, instance.id, instance.instance_id, subscribe, send, queryClient]);

  const refresh = () => {
    if (!send({ action: 'request_logs', instance_id: instance.id })) void logs.refetch();
  };

  const all = logs.data ?? [];
  const filtered = withoutSegmentOpenings(all);
  const lines = showAll ? all : filtered.lines;
  useEffect(() => {
    if (box.current) box.current.scrollTop = box.current.scrollHeight;
  }, [logs.dataUpdatedAt]);

  const error = logs.isError && logs.errorUpdatedAt !== dismissedError ? INSTANCE_ERRORS.logs : null;

  return (
    <Dialog open onClose={onClose} maxWidth="md" fullWidth aria-labelledby="logs-dialog-title">
      <DialogTitle id="logs-dialog-title" sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap' }}>
        <Box component="span" sx={{ flexGrow: 1, minWidth: 0, wordBreak: 'break-all' }}>
          Logs: {instance.name}
        </Box>
        {live ? (
          <Chip
            size="small"
            color="success"
            icon={<FiberManualRecordIcon />}
            label="Live"
            sx={{ '& .MuiChip-icon': { color: 'inherit', fontSize: 12 } }}
          />
        ) : (
          <Chip size="small" variant="outlined" label={instance.state} sx={{ textTransform: 'capitalize' }} />
        )}
      </DialogTitle>
      <DialogContent>
        <ErrorBanner message={error} onClose={() => setDismissedError(logs.errorUpdatedAt)} />
        <Box sx={{ display: 'flex', alignItems: 'center', flexWrap: 'wrap', columnGap: 2, mb: 1 }}>
          <Typography variant="body2" color="textSecondary" sx={{ flexGrow: 1 }}>
            {live ? `Last ${LOG_LINES} lines, refreshed every 5 seconds` : `Last ${LOG_LINES} lines`}
            {!showAll && filtered.hidden > 0 && ` (${filtered.hidden} segment "Opening" lines hidden)`}
          </Typography>
          <FormControlLabel
            control={<Switch size="small" checked={showAll} onChange={(event) => setShowAll(event.target.checked)} />}
            label="Show every line"
            slotProps={{ typography: { variant: 'body2' } }}
          />
        </Box>
        <Box
          ref={box}
          role="log"
          aria-label={`Logs of ${instance.name}`}
          aria-live="off"
          sx={{
            bgcolor: '#05070f',
            border: 1,
            borderColor: 'divider',
            borderRadius: 1,
            p: 1.5,
            height: { xs: 320, md: 420 },
            overflow: 'auto',
            fontFamily: 'monospace',
            fontSize: 12.5,
            lineHeight: 1.5,
            whiteSpace: 'pre-wrap',
            wordBreak: 'break-all',
          }}
        >
          {logs.isPending && <CircularProgress size={24} aria-label="Loading logs" />}
          {!logs.isPending && lines.length === 0 && !logs.isError && (
            <Typography color="textSecondary">No log lines yet</Typography>
          )}
          {lines.map((line, index) => (
            <div key={index}>{line}</div>
          ))}
        </Box>
      </DialogContent>
      <DialogActions>
        <Button startIcon={<RefreshIcon />} onClick={refresh} disabled={logs.isFetching} color="inherit">
          Refresh
        </Button>
        <Button onClick={onClose} variant="contained">
          Close
        </Button>
      </DialogActions>
    </Dialog>
  );
}
