import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import { useCallback } from 'react';
import { formatCountdown } from '../lib/inactivity';
import { useAuth } from './context';
import { useInactivity } from './useInactivity';

/** The automatic logout after 24 h of inactivity, with its warning in the last 5 minutes. */
export function SessionTimeout() {
  const { logout } = useAuth();
  const expire = useCallback(() => void logout('session_expired'), [logout]);
  const { warning, remainingMs, extend } = useInactivity({ onExpire: expire });

  return (
    <Dialog open={warning} aria-labelledby="session-timeout-title">
      <DialogTitle id="session-timeout-title">Session expiring soon</DialogTitle>
      <DialogContent>
        <DialogContentText>
          You have been inactive for a long time. For your security you will be logged out in{' '}
          {formatCountdown(remainingMs)}.
        </DialogContentText>
      </DialogContent>
      <DialogActions>
        <Button onClick={() => void logout()} color="inherit">
          Logout
        </Button>
        <Button onClick={extend} variant="contained" autoFocus>
          Extend Session
        </Button>
      </DialogActions>
    </Dialog>
  );
}
