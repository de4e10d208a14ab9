import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Divider from '@mui/material/Divider';
import List from '@mui/material/List';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import Toolbar from '@mui/material/Toolbar';
import Typography from '@mui/material/Typography';
import RadioButtonCheckedIcon from '@mui/icons-material/RadioButtonChecked';
import { Link as RouterLink, useLocation } from 'react-router-dom';
import { useAuth } from '../auth/context';
import { useLive } from '../live/context';
import { navItemsFor, PRODUCT_TITLE, PRODUCT_VERSION } from './nav-items';

function isCurrent(itemPath: string, pathname: string): boolean {
  return itemPath === '/' ? pathname === '/' : pathname === itemPath || pathname.startsWith(`${itemPath}/`);
}

function statusText(status: string | null): string {
  if (!status) return 'Unknown';
  return status.charAt(0).toUpperCase() + status.slice(1);
}

/** Product title, connection chip, system status, navigation and version footer. */
export function SidebarContent({ onNavigate }: { onNavigate?: () => void }) {
  const { pathname } = useLocation();
  const { connected, systemStatus } = useLive();
  const { user } = useAuth();
  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', height: '100%' }}>
      <Toolbar sx={{ gap: 1.5 }}>
        <RadioButtonCheckedIcon color="secondary" />
        <Typography variant="h6" component="div" sx={{ fontWeight: 600, lineHeight: 1.2 }}>
          {PRODUCT_TITLE}
        </Typography>
      </Toolbar>
      <Divider />
      <Box sx={{ px: 2, py: 1.5, display: 'flex', flexDirection: 'column', gap: 1 }}>
        <Chip
          size="small"
          color={connected ? 'success' : 'error'}
          variant="outlined"
          label={connected ? 'Connected' : 'Disconnected'}
          sx={{ alignSelf: 'flex-start' }}
        />
        <Typography variant="body2" color="textSecondary">
          System status: {statusText(systemStatus)}
        </Typography>
      </Box>
      <Divider />
      <List component="nav" aria-label="Main navigation" sx={{ flexGrow: 1, px: 1 }}>
        {navItemsFor(user?.is_superuser === true).map(({ label, path, icon: Icon }) => {
          const current = isCurrent(path, pathname);
          return (
            <ListItemButton
              key={path}
              component={RouterLink}
              to={path}
              selected={current}
              aria-current={current ? 'page' : undefined}
              onClick={onNavigate}
              // A keyboard user sees where focus is: the theme's hover tint alone is too faint on the dark sidebar.
              sx={{
                borderRadius: 1,
                mb: 0.5,
                '&.Mui-focusVisible': {
                  outline: (theme) => `2px solid ${theme.palette.primary.light}`,
                  outlineOffset: '-2px',
                },
              }}
            >
              <ListItemIcon sx={{ minWidth: 40 }}>
                <Icon />
              </ListItemIcon>
              <ListItemText primary={label} />
            </ListItemButton>
          );
        })}
      </List>
      <Divider />
      <Typography variant="caption" color="textSecondary" sx={{ p: 2, textAlign: 'center' }}>
        Version {PRODUCT_VERSION}
      </Typography>
    </Box>
  );
}
