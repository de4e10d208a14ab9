import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import { Link as RouterLink, useLocation } from 'react-router-dom';
import { useAuth } from '../auth/context';

export const GENERATED_PASSWORD_WARNING =
  'You are signed in with the password generated at the first start, which is also saved in a file on the server. Replace it with your own.';

/** Above every page until the generated first password is replaced (the server keeps the flag on the account). */
export function GeneratedPasswordBanner() {
  const { user } = useAuth();
  const { pathname } = useLocation();
  if (!user?.generated_credentials || pathname === '/change-password') return null;
  return (
    <Alert
      severity="warning"
      sx={{ mb: 2 }}
      action={
        <Button component={RouterLink} to="/change-password" color="inherit" size="small">
          Change password
        </Button>
      }
    >
      {GENERATED_PASSWORD_WARNING}
    </Alert>
  );
}
