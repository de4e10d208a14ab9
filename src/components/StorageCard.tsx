import Alert from '@mui/material/Alert';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import LinearProgress from '@mui/material/LinearProgress';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useStorageUsage } from '../api/recordings';
import { formatDateTime } from '../lib/dates';
import { formatBytes } from '../lib/recording-outcome';

/** Where recordings are kept, how much they take and how much room is left (local store). */
export function StorageCard() {
  const { data, isError } = useStorageUsage();
  if (isError) return <Alert severity="error">Failed to load storage usage</Alert>;
  const total = data && data.free_bytes !== null ? data.used_bytes + data.free_bytes : null;
  return (
    <Card variant="outlined" aria-label="Recording storage">
      <CardContent>
        <Typography variant="overline" color="textSecondary">
          Recording storage
        </Typography>
        {!data ? (
          <LinearProgress aria-label="Loading storage usage" />
        ) : (
          <Stack spacing={1}>
            <Typography variant="body2" sx={{ wordBreak: 'break-all' }}>
              {data.store === 's3' ? 'Bucket' : 'Local folder'}: {data.location.replace(/^local:/, '')}
            </Typography>
            <Typography variant="h6">{formatBytes(data.used_bytes)} used</Typography>
            {/* The server measures at most every 10 minutes: the figure may lag a recording that just landed. */}
            <Typography variant="caption" color="textSecondary">
              Measured {formatDateTime(data.measured_at)}
            </Typography>
            {data.free_bytes !== null && (
              <>
                <LinearProgress variant="determinate" value={total ? Math.min(100, (data.used_bytes / total) * 100) : 0} aria-label="Share of the disk used by recordings" />
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
