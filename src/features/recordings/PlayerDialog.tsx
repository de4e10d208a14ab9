import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import type { LibraryRecording } from '../../../contract/recordings';
import { RECORDING_MESSAGES, useMediaLink } from '../../api/recordings';

/** Plays a recording in the browser from a signed link; the server answers the player's range requests. */
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
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Close</Button>
      </DialogActions>
    </Dialog>
  );
}
