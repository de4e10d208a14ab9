import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import { useQuery } from '@tanstack/react-query';
import { apiErrorMessage } from '../../api/client';
import { getGithubRawStatus, GITHUB_MESSAGES, GITHUB_STATUS_URL } from '../../api/github';

/**
 * View Raw Status. The status endpoint needs the session's bearer token, which a plain link cannot
 * send, so the console fetches it with its client and shows the body exactly as the server sent it.
 */
export function RawStatusDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const raw = useQuery({
    queryKey: ['github', 'raw-status'],
    queryFn: getGithubRawStatus,
    enabled: open,
    gcTime: 0,
    staleTime: 0,
  });
  return (
    <Dialog open={open} onClose={onClose} maxWidth="md" fullWidth aria-labelledby="raw-status-title">
      <DialogTitle id="raw-status-title">Raw Status: GET {GITHUB_STATUS_URL}</DialogTitle>
      <DialogContent>
        {raw.isPending && <CircularProgress size={24} aria-label="Loading raw status" />}
        {raw.isError && (
          <Alert severity="error">
            {apiErrorMessage(raw.error, GITHUB_MESSAGES.loadFailed, GITHUB_MESSAGES.networkError)}
          </Alert>
        )}
        {raw.isSuccess && (
          <Box
            component="pre"
            aria-label="Raw status JSON"
            sx={{
              m: 0,
              p: 2,
              bgcolor: 'background.default',
              borderRadius: 1,
              overflow: 'auto',
              fontSize: 13,
              maxHeight: '60vh',
            }}
          >
            {JSON.stringify(raw.data, null, 2)}
          </Box>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Close</Button>
      </DialogActions>
    </Dialog>
  );
}
