import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import type { Mosque } from '../../../contract/mosques';
import { StreamTest } from '../../widgets/StreamTest';

/**
 * "Test stream" of a mosque: its own stream (ID_token) recorded for half a minute now, as its Friday
 * recording will open it, to check this week that it resolves and records. Its Friday is not touched.
 */
export function MosqueStreamTestDialog({ mosque, onClose }: { mosque: Mosque; onClose: () => void }) {
  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="sm" aria-labelledby="mosque-stream-test-title">
      <DialogTitle id="mosque-stream-test-title">Test stream: {mosque.name}</DialogTitle>
      <DialogContent sx={{ display: 'flex', flexDirection: 'column', gap: 2 }}>
        <DialogContentText>
          Records {mosque.mosque_id}&apos;s stream now, as its Friday recording will open it. Nothing is scheduled or
          launched.
        </DialogContentText>
        <StreamTest request={{ mosque_id: mosque.mosque_id }} />
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Close</Button>
      </DialogActions>
    </Dialog>
  );
}
