import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Typography from '@mui/material/Typography';
import CloudOffIcon from '@mui/icons-material/CloudOff';
import { useCallback, useEffect } from 'react';
import { serverAnswers, type ChunkFailure } from './recoverable-lazy';

/** How often an unreachable server is asked again. */
export const SERVER_PROBE_MS = 3000;

export const UNREACHABLE_TITLE = 'Cannot reach the server';
export const STALE_TITLE = 'A new version of the console is available';

interface ServerUnreachableProps {
  failure: ChunkFailure;
  /** Called once the server answers again (the page should then load afresh). */
  onRecovered: () => void;
  probeMs?: number;
}

/**
 * Shown in place of a page whose code could not be loaded. While the server is unreachable it asks it again
 * every few seconds and when the browser comes back online, and hands back as soon as it answers.
 */
export function ServerUnreachable({ failure, onRecovered, probeMs = SERVER_PROBE_MS }: ServerUnreachableProps) {
  const probe = useCallback(async () => {
    if (await serverAnswers()) onRecovered();
  }, [onRecovered]);
  useEffect(() => {
    if (failure !== 'unreachable') return;
    const timer = setInterval(() => void probe(), probeMs);
    const onOnline = () => void probe();
    window.addEventListener('online', onOnline);
    return () => {
      clearInterval(timer);
      window.removeEventListener('online', onOnline);
    };
  }, [failure, probeMs, probe]);

  const stale = failure === 'stale-release';
  return (
    <Box
      role="alert"
      sx={{ py: 8, px: 2, display: 'flex', flexDirection: 'column', alignItems: 'center', gap: 2, textAlign: 'center' }}
    >
      <CloudOffIcon color="warning" sx={{ fontSize: 48 }} />
      <Typography variant="h6">{stale ? STALE_TITLE : UNREACHABLE_TITLE}</Typography>
      <Typography color="textSecondary" sx={{ maxWidth: 520 }}>
        {stale
          ? 'This page belongs to a newer release than the one open in this tab. Reload to continue.'
          : 'This page could not be loaded because the server does not answer. It will open by itself as soon as the server is back.'}
      </Typography>
      {stale ? (
        <Button variant="contained" onClick={() => window.location.reload()}>
          Reload
        </Button>
      ) : (
        <>
          <Alert severity="info" variant="outlined">
            Checking again every {Math.round(probeMs / 1000)} seconds
          </Alert>
          <Button variant="outlined" onClick={() => void probe()}>
            Try again now
          </Button>
        </>
      )}
    </Box>
  );
}
