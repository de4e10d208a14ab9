import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import Typography from '@mui/material/Typography';
import ShieldIcon from '@mui/icons-material/Shield';
import TimerIcon from '@mui/icons-material/Timer';

/** Text only (docs/reference.md section 2, My Profile, Security card). */
export function SecurityCard() {
  return (
    <Card sx={{ height: '100%' }}>
      <CardContent>
        <Typography variant="h6" component="h2" gutterBottom>
          Security
        </Typography>
        <List dense disablePadding>
          <ListItem disableGutters>
            <ListItemIcon sx={{ minWidth: 36 }}>
              <ShieldIcon color="success" fontSize="small" />
            </ListItemIcon>
            <ListItemText primary="Your password is securely hashed with Argon2." />
          </ListItem>
          <ListItem disableGutters>
            <ListItemIcon sx={{ minWidth: 36 }}>
              <TimerIcon color="info" fontSize="small" />
            </ListItemIcon>
            <ListItemText primary="Your session expires after 24 hours of inactivity." />
          </ListItem>
        </List>
      </CardContent>
    </Card>
  );
}
