import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import BlockIcon from '@mui/icons-material/Block';
import type { ReactNode } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import { useAuth } from './context';

/** Superuser-only pages (User Management). Others see a plain refusal; the server refuses the calls too. */
export function RequireSuperuser({ children }: { children: ReactNode }) {
  const { user } = useAuth();
  if (user?.is_superuser) return children;
  return (
    <Paper sx={{ p: 4, maxWidth: 560, mx: 'auto', mt: 4, textAlign: 'center' }}>
      <BlockIcon color="error" sx={{ fontSize: 48, mb: 1 }} />
      <Typography variant="h5" component="h1" gutterBottom>
        Not allowed
      </Typography>
      <Typography color="textSecondary" sx={{ mb: 3 }}>
        You are not allowed to view this page. User management is available to superusers only.
      </Typography>
      <Box>
        <Button component={RouterLink} to="/" variant="contained">
          Back to Dashboard
        </Button>
      </Box>
    </Paper>
  );
}
