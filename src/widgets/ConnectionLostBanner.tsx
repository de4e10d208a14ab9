import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import { useEffect, useState } from 'react';
import { useLive } from '../live/context';

/** How long a freshly opened page waits for the live feed before calling it lost. */
export const CONNECTION_GRACE_MS = 2000;

export const CONNECTION_LOST = 'WebSocket connection lost';

/**
 * True when the live feed is down: at once when a connection that was up drops, and after a short grace
 * when a page opens without one (so the banner does not flash while the socket is still being opened).
 */
export function useConnectionLost(graceMs = CONNECTION_GRACE_MS): boolean {
  const { connected, gaveUp } = useLive();
  const [everConnected, setEverConnected] = useState(connected);
  const [graceOver, setGraceOver] = useState(false);
  // Derived state, updated while rendering (React's pattern for "remember that this happened").
  if (connected && !everConnected) setEverConnected(true);
  useEffect(() => {
    const timer = setTimeout(() => setGraceOver(true), graceMs);
    return () => clearTimeout(timer);
  }, [graceMs]);
  return !connected && (graceOver || everConnected || gaveUp);
}

/** The Dashboard's and Monitoring's warning (docs/reference.md section 8, Live socket). */
export function ConnectionLostBanner() {
  const lost = useConnectionLost();
  const { gaveUp, reconnect } = useLive();
  if (!lost) return null;
  const action = gaveUp ? (
    <Button color="inherit" size="small" onClick={reconnect}>
      Reconnect
    </Button>
  ) : undefined;
  return (
    <Alert severity="warning" sx={{ mb: 2 }} action={action}>
      {CONNECTION_LOST}
    </Alert>
  );
}
