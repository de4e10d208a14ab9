import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import Typography from '@mui/material/Typography';
import TipsAndUpdatesIcon from '@mui/icons-material/TipsAndUpdates';

const TIPS = [
  'Use a unique password that you do not use anywhere else',
  'Avoid common words or personal information',
  'Consider using a password manager',
];

export function SecurityTipsCard() {
  return (
    <Card>
      <CardContent>
        <Typography variant="h6" component="h2" gutterBottom>
          Security Tips
        </Typography>
        <List dense disablePadding>
          {TIPS.map((tip) => (
            <ListItem key={tip} disableGutters>
              <ListItemIcon sx={{ minWidth: 34 }}>
                <TipsAndUpdatesIcon color="warning" fontSize="small" />
              </ListItemIcon>
              <ListItemText primary={tip} />
            </ListItem>
          ))}
        </List>
      </CardContent>
    </Card>
  );
}
