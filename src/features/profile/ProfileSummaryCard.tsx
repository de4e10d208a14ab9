import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { User } from '../../../contract/auth';
import { UserAvatar } from '../../components/UserAvatar';
import { roleLabel } from '../../lib/roles';

export function ProfileSummaryCard({ user }: { user: User }) {
  return (
    <Card sx={{ height: '100%' }}>
      <CardContent
        sx={{ display: 'flex', flexDirection: 'column', alignItems: 'center', textAlign: 'center', gap: 1, py: 4 }}
      >
        <UserAvatar username={user.username} fullName={user.full_name} size={96} sx={{ mb: 1 }} />
        <Typography variant="h5" component="h2">
          {user.full_name || user.username}
        </Typography>
        <Typography color="textSecondary">@{user.username}</Typography>
        <Stack direction="row" spacing={1} useFlexGap sx={{ mt: 1, flexWrap: 'wrap', justifyContent: 'center' }}>
          <Chip label={roleLabel(user.role)} color="primary" size="small" />
          {user.is_superuser && <Chip label="Superuser" color="secondary" size="small" />}
          <Chip
            label={user.is_active ? 'Active' : 'Inactive'}
            color={user.is_active ? 'success' : 'default'}
            size="small"
          />
        </Stack>
      </CardContent>
    </Card>
  );
}
