import AppBar from '@mui/material/AppBar';
import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import Toolbar from '@mui/material/Toolbar';
import Typography from '@mui/material/Typography';
import MenuIcon from '@mui/icons-material/Menu';
import { useLocation } from 'react-router-dom';
import { AlarmBell } from '../features/alarms/AlarmBell';
import { pageTitle } from '../lib/page-title';
import { LiveIndicator } from './LiveIndicator';
import { SIDEBAR_WIDTH } from './nav-items';
import { UserMenu } from './UserMenu';

/** Fixed top bar: menu button (narrow screens), page title, Live/Offline indicator, user menu. */
export function TopBar({ onMenuClick }: { onMenuClick: () => void }) {
  const { pathname } = useLocation();
  return (
    <AppBar
      position="fixed"
      color="default"
      elevation={0}
      sx={{
        width: { md: `calc(100% - ${SIDEBAR_WIDTH}px)` },
        ml: { md: `${SIDEBAR_WIDTH}px` },
        bgcolor: 'background.paper',
        borderBottom: 1,
        borderColor: 'divider',
      }}
    >
      <Toolbar sx={{ gap: 1 }}>
        <IconButton edge="start" onClick={onMenuClick} aria-label="Open navigation" sx={{ display: { md: 'none' } }}>
          <MenuIcon />
        </IconButton>
        <Typography variant="h6" component="div" noWrap sx={{ flexGrow: 1 }}>
          {pageTitle(pathname)}
        </Typography>
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 1.5 }}>
          <LiveIndicator />
          <AlarmBell />
          <UserMenu />
        </Box>
      </Toolbar>
    </AppBar>
  );
}
