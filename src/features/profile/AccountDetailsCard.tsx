import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Chip from '@mui/material/Chip';
import Grid from '@mui/material/Grid';
import Typography from '@mui/material/Typography';
import type { User } from '../../../contract/auth';
import { roleLongLabel } from '../../lib/roles';
import { InfoRow } from './InfoRow';

const orNotSet = (value: string | null | undefined) => (value && value.trim() ? value : 'Not set');

export function AccountDetailsCard({ user }: { user: User }) {
  return (
    <Card>
      <CardContent>
        <Typography variant="h6" component="h2" gutterBottom>
          Account Details
        </Typography>
        <Grid container spacing={2}>
          <Grid size={{ xs: 12, sm: 6 }}>
            <InfoRow label="Username">{orNotSet(user.username)}</InfoRow>
          </Grid>
          <Grid size={{ xs: 12, sm: 6 }}>
            <InfoRow label="Email Address">{orNotSet(user.email)}</InfoRow>
          </Grid>
          <Grid size={{ xs: 12, sm: 6 }}>
            <InfoRow label="Full Name">{orNotSet(user.full_name)}</InfoRow>
          </Grid>
          <Grid size={{ xs: 12, sm: 6 }}>
            <InfoRow label="Role">
              {roleLongLabel(user.role)}
              {user.is_superuser && <Chip label="Superuser Privileges" color="secondary" size="small" sx={{ ml: 1 }} />}
            </InfoRow>
          </Grid>
        </Grid>
      </CardContent>
    </Card>
  );
}
