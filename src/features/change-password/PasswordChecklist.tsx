import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import Typography from '@mui/material/Typography';
import CheckCircleIcon from '@mui/icons-material/CheckCircle';
import RadioButtonUncheckedIcon from '@mui/icons-material/RadioButtonUnchecked';
import { passwordRequirements } from '../../lib/password-strength';

/** The "Password Requirements" checklist with live ticks. */
export function PasswordChecklist({ password }: { password: string }) {
  return (
    <Card>
      <CardContent>
        <Typography variant="h6" component="h2" gutterBottom>
          Password Requirements
        </Typography>
        <List dense disablePadding aria-label="Password requirements">
          {passwordRequirements(password).map((requirement) => (
            <ListItem key={requirement.label} disableGutters data-met={requirement.met}>
              <ListItemIcon sx={{ minWidth: 34 }}>
                {requirement.met ? (
                  <CheckCircleIcon color="success" fontSize="small" titleAccess="Met" />
                ) : (
                  <RadioButtonUncheckedIcon color="disabled" fontSize="small" titleAccess="Not met" />
                )}
              </ListItemIcon>
              <ListItemText primary={requirement.label} />
            </ListItem>
          ))}
        </List>
      </CardContent>
    </Card>
  );
}
