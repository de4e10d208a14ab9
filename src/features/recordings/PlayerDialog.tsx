import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import HeadphonesIcon from '@mui/icons-material/Headphones';
import type { LibraryRecording } from '../../../contract/recordings';
import { apiErrorMessage } from '../../api/client';
import { RECORDING_MESSAGES, useDownloadAudio, useMediaLink } from '../../api/recordings';
import { RecordingContentPanel } from './RecordingContentPanel';

/**
 * The recording's page: plays it in the browser from a signed link (the server answers the player's
 * range requests), with its loudness strip, integrated loudness and longest silence under it; and
 * offers its sound alone (AAC, normalised to -16 LUFS) as a download for listeners.
 */
export function PlayerDialog({ recording, onClose }: { recording: LibraryRecording | null; onClose: () => void }) {
  const link = useMediaLink(recording?.id ?? null);
  const audio = useDownloadAudio();
  const close = () => {
    audio.reset();
    onClose();
  };
  const title = recording
    ? `${recording.mosque_name ?? recording.mosque_id ?? 'Ad-hoc capture'} — ${recording.friday}`
    : '';
  return (
    <Dialog open={recording !== null} onClose={close} maxWidth="md" fullWidth aria-labelledby="player-title">
      <DialogTitle id="player-title">{title}</DialogTitle>
      <DialogContent>
        {link.isError && <Alert severity="error">{RECORDING_MESSAGES.playFailed}</Alert>}
        {link.isPending && <CircularProgress aria-label="Opening the recording" />}
        {link.data && (
          <video
            data-testid="recording-player"
            src={link.data}
            controls
            autoPlay
            muted
            preload="metadata"
            style={{ width: '100%', maxHeight: '60vh', background: '#000' }}
          />
        )}
        {audio.isError && (
          <Alert severity="error" sx={{ mt: 2 }}>
            {apiErrorMessage(audio.error, RECORDING_MESSAGES.audioFailed)}
          </Alert>
        )}
        {recording && (
          <Box sx={{ mt: 2 }}>
            <RecordingContentPanel recordingId={recording.id} />
          </Box>
        )}
      </DialogContent>
      <DialogActions>
        {recording && (
          <Button
            startIcon={audio.isPending ? <CircularProgress size={16} /> : <HeadphonesIcon />}
            disabled={audio.isPending}
            onClick={() => audio.mutate(recording.id)}
          >
            {audio.isPending ? 'Preparing audio…' : 'Download audio'}
          </Button>
        )}
        <Button onClick={close}>Close</Button>
      </DialogActions>
    </Dialog>
  );
}
