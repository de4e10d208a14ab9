import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import Typography from '@mui/material/Typography';
import CheckCircleIcon from '@mui/icons-material/CheckCircle';
import ErrorIcon from '@mui/icons-material/Error';
import RemoveCircleOutlinedIcon from '@mui/icons-material/RemoveCircleOutlined';
import type { GithubCheckStatus, GithubValidationResult } from '../../../contract/github';
import { formatDateTime } from '../../lib/dates';
import { checkLabel } from './github-labels';
import { DetailRow } from './DetailRow';

const CHECK_NAMES = {
  github_api: 'GitHub API',
  repository_access: 'Repository Access',
  permissions: 'Permissions',
} as const;

function CheckIcon({ status }: { status: GithubCheckStatus }) {
  if (status === 'success') return <CheckCircleIcon color="success" />;
  if (status === 'error') return <ErrorIcon color="error" />;
  return <RemoveCircleOutlinedIcon color="disabled" />;
}

/** Each check with its status and message, plus who the token is and what the repository allows. */
export function ValidationResultsDialog({
  result,
  onClose,
}: {
  result: GithubValidationResult | null;
  onClose: () => void;
}) {
  const ok = result?.overall_status === 'success';
  return (
    <Dialog open={result !== null} onClose={onClose} maxWidth="sm" fullWidth aria-labelledby="validation-results-title">
      <DialogTitle id="validation-results-title">Validation Results</DialogTitle>
      {result && (
        <DialogContent>
          <Alert severity={ok ? 'success' : 'error'} sx={{ mb: 1 }}>
            {ok ? 'All checks passed' : 'Some checks failed'}
          </Alert>
          <List aria-label="Validation checks">
            {(Object.keys(CHECK_NAMES) as Array<keyof typeof CHECK_NAMES>).map((key) => {
              const check = result.checks[key];
              const label = checkLabel(check.status);
              return (
                <ListItem
                  key={key}
                  disableGutters
                  secondaryAction={<Chip size="small" label={label.label} color={label.color} />}
                >
                  <ListItemIcon sx={{ minWidth: 40 }}>
                    <CheckIcon status={check.status} />
                  </ListItemIcon>
                  <ListItemText primary={CHECK_NAMES[key]} secondary={check.message} sx={{ pr: 10 }} />
                </ListItem>
              );
            })}
          </List>
          {result.user_info && (
            <DetailRow label="Token User">
              <Typography>{result.user_info.login}</Typography>
            </DetailRow>
          )}
          {result.repository_info && (
            <>
              <DetailRow label="Repository">
                <Typography>{result.repository_info.full_name}</Typography>
              </DetailRow>
              <DetailRow label="Push Permission">
                <Chip
                  size="small"
                  label={result.repository_info.permissions.push ? 'Yes' : 'No'}
                  color={result.repository_info.permissions.push ? 'success' : 'error'}
                />
              </DetailRow>
            </>
          )}
          {result.token_scopes && (
            <DetailRow label="Token Scopes">
              <Typography>{result.token_scopes.length > 0 ? result.token_scopes.join(', ') : 'none'}</Typography>
            </DetailRow>
          )}
          {result.rate_limit_reset && (
            <DetailRow label="Rate Limit Resets">
              <Typography>{formatDateTime(result.rate_limit_reset)}</Typography>
            </DetailRow>
          )}
          <DetailRow label="Checked">
            <Typography>{formatDateTime(result.checked_at)}</Typography>
          </DetailRow>
        </DialogContent>
      )}
      <DialogActions>
        <Button onClick={onClose}>Close</Button>
      </DialogActions>
    </Dialog>
  );
}
