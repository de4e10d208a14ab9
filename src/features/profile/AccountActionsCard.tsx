import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import LockIcon from '@mui/icons-material/Lock';
import PeopleIcon from '@mui/icons-material/People';
import { Link as RouterLink } from 'react-router-dom';

export function AccountActionsCard({ isSuperuser }: { isSuperuser: boolean }) {
  return (
    <Card sx={{ height: '100%' }}>
      <CardContent>
        <Typography variant="h6" component="h2" gutterBottom>
          Account Actions
        </Typography>
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
          <Button component={RouterLink} to="/change-password" variant="contained" startIcon={<LockIcon />}>
            Change Password
          </Button>
          {isSuperuser && (
            <Button component={RouterLink} to="/users" variant="outlined" startIcon={<PeopleIcon />}>
              Manage Users
            </Button>
          )}
        </Stack>
      </CardContent>
    </Card>
  );
}
