import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import { Navigate, useLocation } from 'react-router-dom';
import { useAuth } from './context';

export function FullPageSpinner({ label = 'Loading' }: { label?: string }) {
  return (
    <Box
      role="status"
      sx={{
        minHeight: '100vh',
        display: 'flex',
        flexDirection: 'column',
        alignItems: 'center',
        justifyContent: 'center',
        gap: 2,
      }}
    >
      <CircularProgress aria-label={label} />
      <Typography color="textSecondary">{label}...</Typography>
    </Box>
  );
}

/** The guard of every route but /login: a spinner while the session is checked, then the page or /login. */
export function RequireAuth({ children }: { children: ReactNode }) {
  const { status, signOutReason } = useAuth();
  const location = useLocation();
  if (status === 'loading') return <FullPageSpinner />;
  if (status === 'anonymous') {
    const to = signOutReason === 'session_expired' ? '/login?reason=session_expired' : '/login';
    // After an explicit logout the next sign-in starts from the dashboard, not the page left behind.
    const state = signOutReason === 'logout' ? undefined : { from: `${location.pathname}${location.search}` };
    return <Navigate to={to} replace state={state} />;
  }
  return children;
}
