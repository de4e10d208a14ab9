import Alert from '@mui/material/Alert';
import Grid from '@mui/material/Grid';
import { useAuth } from '../../auth/context';
import { PageHeader } from '../../components/PageHeader';
import { AccountActionsCard } from './AccountActionsCard';
import { AccountDetailsCard } from './AccountDetailsCard';
import { ActivityCard } from './ActivityCard';
import { ProfileSummaryCard } from './ProfileSummaryCard';
import { SecurityCard } from './SecurityCard';

/** /profile (docs/reference.md section 2, My Profile). */
export default function ProfilePage() {
  const { user } = useAuth();
  return (
    <>
      <PageHeader title="My Profile" subtitle="View and manage your account information" />
      {!user ? (
        <Alert severity="error">User information not available</Alert>
      ) : (
        <Grid container spacing={3}>
          <Grid size={{ xs: 12, md: 4 }}>
            <ProfileSummaryCard user={user} />
          </Grid>
          <Grid size={{ xs: 12, md: 8 }} sx={{ display: 'flex', flexDirection: 'column', gap: 3 }}>
            <AccountDetailsCard user={user} />
            <ActivityCard user={user} />
          </Grid>
          <Grid size={{ xs: 12, md: 6 }}>
            <AccountActionsCard isSuperuser={user.is_superuser} />
          </Grid>
          <Grid size={{ xs: 12, md: 6 }}>
            <SecurityCard />
          </Grid>
        </Grid>
      )}
    </>
  );
}
