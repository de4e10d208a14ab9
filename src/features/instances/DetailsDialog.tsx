import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Grid from '@mui/material/Grid';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import ArticleIcon from '@mui/icons-material/Article';
import DownloadIcon from '@mui/icons-material/Download';
import StopIcon from '@mui/icons-material/Stop';
import type { ReactNode } from 'react';
import type { Instance, InstanceDetails } from '../../../contract/instances';
import { apiErrorMessage } from '../../api/client';
import { useInstanceDetails } from '../../api/instances';
import { RECORDING_DOWNLOAD_FAILED, useDownloadRecording } from '../../api/recordings';
import { StateChip } from '../../components/StateChip';
import { StoppedChip } from '../../components/StoppedChip';
import { formatDateTime } from '../../lib/dates';
import { formatRuntime } from '../../lib/runtime';
import { useNotify } from '../../notifications/context';
import { formatBytes, formatSeconds } from './fleet';
import { LiveContentSection } from './LiveContentSection';
import { MosqueName } from '../../widgets/MosqueName';

interface DetailsDialogProps {
  instance: Instance;
  onClose: () => void;
  onLogs: (instance: Instance) => void;
  onTerminate: (instance: Instance) => void;
}

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Box sx={{ display: 'flex', gap: 2, py: 0.5, justifyContent: 'space-between', alignItems: 'baseline' }}>
      <Typography variant="body2" color="textSecondary" sx={{ flexShrink: 0 }}>
        {label}
      </Typography>
      <Typography variant="body2" component="div" sx={{ textAlign: 'right', wordBreak: 'break-all', minWidth: 0 }}>
        {children}
      </Typography>
    </Box>
  );
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Paper variant="outlined" sx={{ p: 2, height: '100%' }} component="section" aria-label={title}>
      <Typography variant="subtitle1" component="h3" sx={{ fontWeight: 500, mb: 1 }}>
        {title}
      </Typography>
      {children}
    </Paper>
  );
}

/** Seconds from launch to media flowing, when both are known. */
function secondsToRunning(details: InstanceDetails): number | null {
  if (!details.running_at) return null;
  const seconds = (Date.parse(details.running_at) - Date.parse(details.launch_time)) / 1000;
  return Number.isFinite(seconds) && seconds >= 0 ? seconds : null;
}

/** The details viewer (docs/reference.md section 2): basic info, recording info, metrics, actions; the recording can be downloaded. */
export function DetailsDialog({ instance, onClose, onLogs, onTerminate }: DetailsDialogProps) {
  const details = useInstanceDetails(instance.id);
  const download = useDownloadRecording();
  const notify = useNotify();
  const data = details.data;
  const recording = data?.recording ?? null;

  const save = () => {
    if (!recording) return;
    download.mutate(recording, { onError: (error) => notify.error(apiErrorMessage(error, RECORDING_DOWNLOAD_FAILED)) });
  };

  return (
    <Dialog open onClose={onClose} maxWidth="md" fullWidth aria-labelledby="details-dialog-title">
      <DialogTitle id="details-dialog-title" sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap' }}>
        <Box component="span" sx={{ flexGrow: 1, minWidth: 0, wordBreak: 'break-all' }}>
          Instance Details: {instance.name}
        </Box>
        <StateChip state={data?.state ?? instance.state} />
      </DialogTitle>
      <DialogContent>
        {details.isPending && (
          <Box sx={{ py: 4, textAlign: 'center' }}>
            <CircularProgress size={28} aria-label="Loading details" />
          </Box>
        )}
        {details.isError && (
          <Alert severity="error">{apiErrorMessage(details.error, 'Failed to load instance details')}</Alert>
        )}
        {data && (
          <Grid container spacing={2}>
            <Grid size={{ xs: 12, md: 6 }}>
              <Section title="Basic Information">
                <Field label="Name">{data.name}</Field>
                <Field label="Instance ID">{data.instance_id}</Field>
                <Field label="Fleet ID">{data.id}</Field>
                <Field label="State">{data.state}</Field>
                {data.state_reason && <Field label="Reason">{data.state_reason}</Field>}
                <Field label="Type">{data.instance_type}</Field>
                <Field label="Provider">{data.provider}</Field>
                <Field label="Mosque">
                  <MosqueName mosqueId={data.mosque_id} />
                </Field>
                <Field label="Image">{data.image_id ?? 'N/A'}</Field>
                <Field label="Launched">{formatDateTime(data.launch_time)}</Field>
                {data.ended_at && <Field label="Ended">{formatDateTime(data.ended_at)}</Field>}
              </Section>
            </Grid>
            <Grid size={{ xs: 12, md: 6 }}>
              <Section title="Recording Information">
                <Field label="Stream URL">{data.url}</Field>
                <Field label="Method">{data.method}</Field>
                <Field label="Requested duration">{formatSeconds(data.duration)}</Field>
                <Field label="Frame size">{`${data.width} x ${data.height}`}</Field>
                <Field label="Recording status">
                  {recording?.stopped_by ? (
                    <StoppedChip by={recording.stopped_by} />
                  ) : recording ? (
                    <Chip size="small" label={recording.status} sx={{ textTransform: 'capitalize' }} />
                  ) : (
                    'No recording'
                  )}
                </Field>
                {recording && (
                  <>
                    <Field label="File">{recording.file_name ?? 'N/A'}</Field>
                    <Field label="Started">{formatDateTime(recording.started_at)}</Field>
                    {recording.ended_at && <Field label="Ended">{formatDateTime(recording.ended_at)}</Field>}
                    {recording.reason && <Field label="Note">{recording.reason}</Field>}
                  </>
                )}
              </Section>
            </Grid>
            <Grid size={{ xs: 12, md: 6 }}>
              <Section title="Metrics">
                <Field label="Runtime">{formatRuntime(data.runtime_hours)}</Field>
                <Field label="Time to running">{formatSeconds(secondsToRunning(data))}</Field>
                <Field label="Recorded duration">{formatSeconds(recording?.duration_seconds)}</Field>
                <Field label="File size">{formatBytes(recording?.bytes)}</Field>
              </Section>
            </Grid>
            <Grid size={{ xs: 12, md: 6 }}>
              <Section title="Actions">
                <Stack spacing={1} sx={{ alignItems: 'flex-start' }}>
                  <Button startIcon={<ArticleIcon />} onClick={() => onLogs(instance)}>
                    View Logs
                  </Button>
                  {data.state === 'running' && (
                    <Button color="error" startIcon={<StopIcon />} onClick={() => onTerminate(instance)}>
                      Terminate
                    </Button>
                  )}
                  {recording?.download_url && (
                    <Button
                      startIcon={download.isPending ? <CircularProgress size={16} color="inherit" /> : <DownloadIcon />}
                      onClick={save}
                      disabled={download.isPending || recording.bytes === 0}
                    >
                      Download Recording
                    </Button>
                  )}
                </Stack>
              </Section>
            </Grid>
            {data.live_content && (
              <Grid size={12}>
                <Section title="Live loudness">
                  <LiveContentSection content={data.live_content} />
                </Section>
              </Grid>
            )}
          </Grid>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} variant="contained">
          Close
        </Button>
      </DialogActions>
    </Dialog>
  );
}
