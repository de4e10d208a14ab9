import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Grid from '@mui/material/Grid';
import Typography from '@mui/material/Typography';
import type { User } from '../../../contract/auth';
import { formatLongDateTime } from '../../lib/dates';
import { InfoRow } from './InfoRow';

export function ActivityCard({ user }: { user: User }) {
  return (
    <Card>
      <CardContent>
        <Typography variant="h6" component="h2" gutterBottom>
          Activity Information
        </Typography>
        <Grid container spacing={2}>
          <Grid size={{ xs: 12, sm: 6, xl: 4 }}>
            <InfoRow label="Last Login">{formatLongDateTime(user.last_login)}</InfoRow>
          </Grid>
          <Grid size={{ xs: 12, sm: 6, xl: 4 }}>
            <InfoRow label="Account Created">{formatLongDateTime(user.created_at)}</InfoRow>
          </Grid>
          <Grid size={{ xs: 12, sm: 6, xl: 4 }}>
            <InfoRow label="Last Updated">{formatLongDateTime(user.updated_at)}</InfoRow>
          </Grid>
        </Grid>
      </CardContent>
    </Card>
  );
}
