import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import IconButton from '@mui/material/IconButton';
import InputAdornment from '@mui/material/InputAdornment';
import TextField from '@mui/material/TextField';
import Visibility from '@mui/icons-material/Visibility';
import VisibilityOff from '@mui/icons-material/VisibilityOff';
import { useState, type FormEvent } from 'react';
import { useDiscardGuard } from '../../components/useDiscardGuard';
import { GITHUB_DEFAULT_EMAIL, GITHUB_DEFAULT_USER, type GithubConfigureRequest } from '../../../contract/github';

export interface ConfigureDefaults {
  repoUrl: string;
  user: string;
  email: string;
}

interface ConfigureDialogProps {
  open: boolean;
  defaults: Partial<ConfigureDefaults>;
  saving: boolean;
  error: string | null;
  onCancel: () => void;
  onSubmit: (body: GithubConfigureRequest) => void;
}

/**
 * "Configure GitHub Access": token (masked, with a show toggle), repository URL, commit name and email
 * (bot defaults). Token and URL are required (docs/reference.md section 5). The token never leaves this form
 * except in the configure call.
 */
export function ConfigureDialog({ open, defaults, saving, error, onCancel, onSubmit }: ConfigureDialogProps) {
  const [token, setToken] = useState('');
  const [showToken, setShowToken] = useState(false);
  const [repoUrl, setRepoUrl] = useState(defaults.repoUrl ?? '');
  const [user, setUser] = useState(defaults.user ?? GITHUB_DEFAULT_USER);
  const [email, setEmail] = useState(defaults.email ?? GITHUB_DEFAULT_EMAIL);
  const dirty =
    token !== '' ||
    repoUrl !== (defaults.repoUrl ?? '') ||
    user !== (defaults.user ?? GITHUB_DEFAULT_USER) ||
    email !== (defaults.email ?? GITHUB_DEFAULT_EMAIL);
  const guard = useDiscardGuard({ dirty, busy: saving, onDiscard: onCancel });
  const ready = token.trim() !== '' && repoUrl.trim() !== '';

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!ready || saving) return;
    onSubmit({
      github_pat: token.trim(),
      github_repo_url: repoUrl.trim(),
      github_user: user.trim(),
      github_email: email.trim(),
    });
  };

  return (
    <Dialog open={open} onClose={guard.onClose} maxWidth="sm" fullWidth aria-labelledby="configure-github-title">
      <form onSubmit={submit} noValidate>
        <DialogTitle id="configure-github-title">Configure GitHub Access</DialogTitle>
        <DialogContent>
          {error && (
            <Alert severity="error" sx={{ mb: 1 }}>
              {error}
            </Alert>
          )}
          <TextField
            label="Personal Access Token"
            type={showToken ? 'text' : 'password'}
            value={token}
            onChange={(event) => setToken(event.target.value)}
            required
            fullWidth
            margin="normal"
            autoComplete="off"
            disabled={saving}
            helperText="Private repositories need a token with the repo scope. It is stored encrypted and never shown again."
            slotProps={{
              htmlInput: { spellCheck: false },
              input: {
                endAdornment: (
                  <InputAdornment position="end">
                    <IconButton
                      aria-label={showToken ? 'Hide token' : 'Show token'}
                      onClick={() => setShowToken((shown) => !shown)}
                      onMouseDown={(event) => event.preventDefault()}
                      edge="end"
                      disabled={saving}
                    >
                      {showToken ? <VisibilityOff /> : <Visibility />}
                    </IconButton>
                  </InputAdornment>
                ),
              },
            }}
          />
          <TextField
            label="Repository URL"
            value={repoUrl}
            onChange={(event) => setRepoUrl(event.target.value)}
            required
            fullWidth
            margin="normal"
            placeholder="https://github.com/owner/repository"
            disabled={saving}
            type="url"
          />
          <TextField
            label="Git User Name"
            value={user}
            onChange={(event) => setUser(event.target.value)}
            fullWidth
            margin="normal"
            disabled={saving}
          />
          <TextField
            label="Git Email"
            value={email}
            onChange={(event) => setEmail(event.target.value)}
            fullWidth
            margin="normal"
            type="email"
            disabled={saving}
          />
        </DialogContent>
        <DialogActions>
          <Button onClick={onCancel} disabled={saving} color="inherit">
            Cancel
          </Button>
          <Button type="submit" variant="contained" disabled={!ready || saving}>
            {saving ? 'Saving...' : 'Save Configuration'}
          </Button>
        </DialogActions>
      </form>
      {guard.prompt}
    </Dialog>
  );
}
