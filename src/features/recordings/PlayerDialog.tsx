import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import type { LibraryRecording } from '../../../contract/recordings';
import { RECORDING_MESSAGES, useMediaLink } from '../../api/recordings';
import { RecordingContentPanel } from './LoudnessStrip';

/**
 * The recording's page: plays it in the browser from a signed link (the server answers the player's
 * range requests), with its loudness strip, integrated loudness and longest silence under it.
 */
export function PlayerDialog({ recording, onClose }: { recording: LibraryRecording | null; onClose: () => void }) {
  const link = useMediaLink(recording?.id ?? null);
  const title = recording
    ? `${recording.mosque_name ?? recording.mosque_id ?? 'Ad-hoc capture'} — ${recording.friday}`
    : '';
  return (
    <Dialog open={recording !== null} onClose={onClose} maxWidth="md" fullWidth aria-labelledby="player-title">
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
        {recording && (
          <Box sx={{ mt: 2 }}>
            <RecordingContentPanel recordingId={recording.id} />
          </Box>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Close</Button>
      </DialogActions>
    </Dialog>
  );
}
