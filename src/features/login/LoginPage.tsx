import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { useState, type FormEvent } from 'react';
import { Navigate, useLocation, useSearchParams } from 'react-router-dom';
import { useAuth } from '../../auth/context';
import { Notice } from '../../components/Notice';
import { FirstRunHint } from './FirstRunHint';
import { LoginField } from './LoginField';

export const SESSION_EXPIRED_MESSAGE = 'Your session has expired. Please log in again.';

function redirectTarget(state: unknown): string {
  const from = (state as { from?: unknown } | null)?.from;
  return typeof from === 'string' && from.startsWith('/') && !from.startsWith('/login') ? from : '/';
}

/** /login (docs/reference.md section 2, Login; section 8, Login errors). */
export default function LoginPage() {
  const { status, login } = useAuth();
  const location = useLocation();
  const [params] = useSearchParams();
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [missing, setMissing] = useState({ username: false, password: false });
  const [error, setError] = useState<string | null>(null);
  const [sending, setSending] = useState(false);
  const [failedSignIns, setFailedSignIns] = useState(0);

  if (status === 'authenticated') return <Navigate to={redirectTarget(location.state)} replace />;

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const nowMissing = { username: !username.trim(), password: !password };
    setMissing(nowMissing);
    if (nowMissing.username || nowMissing.password) return;
    setError(null);
    setSending(true);
    try {
      await login(username.trim(), password);
    } catch (failure) {
      setError(failure instanceof Error ? failure.message : 'Login failed');
      setSending(false);
      setFailedSignIns((count) => count + 1);
    }
  };

  return (
    <Box sx={{ minHeight: '100vh', display: 'flex', alignItems: 'center', justifyContent: 'center', p: 2 }}>
      <Paper component="main" elevation={6} sx={{ width: '100%', maxWidth: 420, p: { xs: 3, sm: 4 } }}>
        <Typography variant="h5" component="h1" align="center" sx={{ fontWeight: 600 }}>
          Capture Command Center
        </Typography>
        <Typography color="textSecondary" align="center" sx={{ mb: 2 }}>
          Sign in to the operator console
        </Typography>
        {params.get('reason') === 'session_expired' && !error && (
          <Notice severity="info">{SESSION_EXPIRED_MESSAGE}</Notice>
        )}
        {error && <Notice severity="error">{error}</Notice>}
        <Box component="form" noValidate onSubmit={(event) => void submit(event)}>
          <LoginField
            id="username"
            label="Username"
            value={username}
            onChange={setUsername}
            autoComplete="username"
            autoFocus
            disabled={sending}
            error={missing.username ? 'Username is required' : undefined}
          />
          <LoginField
            id="password"
            label="Password"
            type="password"
            value={password}
            onChange={setPassword}
            autoComplete="current-password"
            disabled={sending}
            error={missing.password ? 'Password is required' : undefined}
          />
          <Button type="submit" fullWidth variant="contained" size="large" disabled={sending} sx={{ mt: 2 }}>
            Login
          </Button>
        </Box>
        <Typography variant="body2" color="textSecondary" align="center" sx={{ mt: 3 }}>
          Use the credentials created during setup.
        </Typography>
        <Box sx={{ mt: 2 }}>
          <FirstRunHint failedSignIns={failedSignIns} />
        </Box>
      </Paper>
    </Box>
  );
}
