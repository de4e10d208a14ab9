import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import LinearProgress from '@mui/material/LinearProgress';
import IconButton from '@mui/material/IconButton';
import Stack from '@mui/material/Stack';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import RefreshIcon from '@mui/icons-material/Refresh';
import { apiErrorMessage } from '../api/client';
import { useMeasureStorage, useStorageUsage } from '../api/recordings';
import { formatDateTime } from '../lib/dates';
import { formatBytes } from '../lib/recording-outcome';
import { TOOLTIP_DELAYS } from '../lib/tooltip-delays';

export const STORAGE_MEASURE_FAILED = 'Failed to measure the recording storage';

/** Where recordings are kept, how much they take and how much room is left (local store). */
export function StorageCard() {
  const { data, isError } = useStorageUsage();
  const measure = useMeasureStorage();
  if (isError) return <Alert severity="error">Failed to load storage usage</Alert>;
  const total = data && data.free_bytes !== null ? data.used_bytes + data.free_bytes : null;
  return (
    <Card variant="outlined" aria-label="Recording storage">
      <CardContent>
        <Box sx={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between' }}>
          <Typography variant="overline" color="textSecondary">
            Recording storage
          </Typography>
          <Tooltip title="Measure now" {...TOOLTIP_DELAYS}>
            <span>
              <IconButton
                size="small"
                aria-label="Measure recording storage now"
                disabled={measure.isPending}
                onClick={() => measure.mutate()}
              >
                <RefreshIcon fontSize="small" />
              </IconButton>
            </span>
          </Tooltip>
        </Box>
        {measure.isError && <Alert severity="error">{apiErrorMessage(measure.error, STORAGE_MEASURE_FAILED)}</Alert>}
        {!data ? (
          <LinearProgress aria-label="Loading storage usage" />
        ) : (
          <Stack spacing={1}>
            <Typography variant="body2" sx={{ wordBreak: 'break-all' }}>
              {data.store === 's3' ? 'Bucket' : 'Local folder'}: {data.location.replace(/^local:/, '')}
            </Typography>
            <Typography variant="h6">{formatBytes(data.used_bytes)} used</Typography>
            {/* The server measures at most every 10 minutes: the figure may lag a recording that just landed (Refresh measures now). */}
            <Typography variant="caption" color="textSecondary">
              Measured {formatDateTime(data.measured_at)}
            </Typography>
            {data.free_bytes !== null && (
              <>
                <LinearProgress
                  variant="determinate"
                  value={total ? Math.min(100, (data.used_bytes / total) * 100) : 0}
                  aria-label="Share of the disk used by recordings"
                />
                <Typography variant="body2" color="textSecondary">
                  {formatBytes(data.free_bytes)} free on this disk
                </Typography>
              </>
            )}
            <Typography variant="body2" color="textSecondary">
              {data.retention_days === null ? 'Kept until deleted' : `Kept for ${data.retention_days} days`}
            </Typography>
          </Stack>
        )}
      </CardContent>
    </Card>
  );
}
