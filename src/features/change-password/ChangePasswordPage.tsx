import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import CircularProgress from '@mui/material/CircularProgress';
import Grid from '@mui/material/Grid';
import Stack from '@mui/material/Stack';
import { useMutation } from '@tanstack/react-query';
import { useEffect, useState, type FormEvent } from 'react';
import { Link as RouterLink, useNavigate } from 'react-router-dom';
import { useAuth } from '../../auth/context';
import { changePassword, changePasswordErrorMessage, verifyToken } from '../../api/auth';
import { apiErrorMessage } from '../../api/client';
import { useNotify } from '../../notifications/context';
import { PageHeader } from '../../components/PageHeader';
import { validatePasswordChange, type PasswordChangeForm } from '../../lib/password-change';
import { PasswordChecklist } from './PasswordChecklist';
import { PasswordField } from './PasswordField';
import { SecurityTipsCard } from './SecurityTipsCard';
import { StrengthMeter } from './StrengthMeter';

export const SUCCESS_MESSAGE = 'Password changed successfully! Redirecting to profile...';
export const REDIRECT_DELAY_MS = 2000;

const EMPTY: PasswordChangeForm = { currentPassword: '', newPassword: '', confirmPassword: '' };

/** /change-password (docs/reference.md section 2; rules in section 5; errors in section 8). */
export default function ChangePasswordPage() {
  const navigate = useNavigate();
  const { user, updateUser } = useAuth();
  const notify = useNotify();
  const mutation = useMutation({ mutationFn: changePassword });
  const [form, setForm] = useState<PasswordChangeForm>(EMPTY);
  const [error, setError] = useState<string | null>(null);
  const [succeeded, setSucceeded] = useState(false);
  const disabled = mutation.isPending || succeeded;

  useEffect(() => {
    if (!succeeded) return;
    const timer = setTimeout(() => void navigate('/profile'), REDIRECT_DELAY_MS);
    return () => clearTimeout(timer);
  }, [succeeded, navigate]);

  const set = (field: keyof PasswordChangeForm) => (value: string) =>
    setForm((current) => ({ ...current, [field]: value }));

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (disabled) return;
    const problem = validatePasswordChange(form);
    if (problem) {
      setError(problem);
      return;
    }
    setError(null);
    mutation.mutate(
      { current_password: form.currentPassword, new_password: form.newPassword },
      {
        onSuccess: () => {
          // The server no longer counts this account's password as the generated one: the banner goes.
          if (user) updateUser({ ...user, generated_credentials: false });
          setSucceeded(true);
          setForm(EMPTY);
          // The account as the server now has it (its "Last Updated" on the profile).
          verifyToken().then(updateUser, (failure: unknown) =>
            notify.warning(apiErrorMessage(failure, 'Password changed, but the profile could not be read again')),
          );
        },
        onError: (failure) => setError(changePasswordErrorMessage(failure)),
      },
    );
  };

  const mismatch = form.confirmPassword !== '' && form.confirmPassword !== form.newPassword;

  return (
    <>
      <PageHeader title="Change Password" subtitle="Update your account password" />
      <Grid container spacing={3}>
        <Grid size={{ xs: 12, md: 7 }}>
          <Card>
            <CardContent>
              {error && (
                <Alert severity="error" sx={{ mb: 1 }}>
                  {error}
                </Alert>
              )}
              {succeeded && (
                <Alert severity="success" sx={{ mb: 1 }}>
                  {SUCCESS_MESSAGE}
                </Alert>
              )}
              <Box component="form" noValidate onSubmit={submit} aria-label="Change password form">
                <PasswordField
                  id="current-password"
                  label="Current Password"
                  value={form.currentPassword}
                  onChange={set('currentPassword')}
                  autoComplete="current-password"
                  disabled={disabled}
                />
                <PasswordField
                  id="new-password"
                  label="New Password"
                  value={form.newPassword}
                  onChange={set('newPassword')}
                  autoComplete="new-password"
                  disabled={disabled}
                />
                <StrengthMeter password={form.newPassword} />
                <PasswordField
                  id="confirm-password"
                  label="Confirm New Password"
                  value={form.confirmPassword}
                  onChange={set('confirmPassword')}
                  autoComplete="new-password"
                  disabled={disabled}
                  error={mismatch}
                  helperText={mismatch ? 'Passwords do not match' : undefined}
                />
                <Stack direction="row" spacing={2} sx={{ mt: 2 }}>
                  <Button
                    type="submit"
                    variant="contained"
                    disabled={disabled}
                    startIcon={mutation.isPending ? <CircularProgress size={18} color="inherit" /> : undefined}
                  >
                    {mutation.isPending ? 'Changing Password...' : 'Change Password'}
                  </Button>
                  <Button component={RouterLink} to="/profile" color="inherit" disabled={mutation.isPending}>
                    Cancel
                  </Button>
                </Stack>
              </Box>
            </CardContent>
          </Card>
        </Grid>
        <Grid size={{ xs: 12, md: 5 }}>
          <Stack spacing={3}>
            <PasswordChecklist password={form.newPassword} />
            <SecurityTipsCard />
          </Stack>
        </Grid>
      </Grid>
    </>
  );
}
