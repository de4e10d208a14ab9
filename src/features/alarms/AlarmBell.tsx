import Badge from '@mui/material/Badge';
import IconButton from '@mui/material/IconButton';
import Tooltip from '@mui/material/Tooltip';
import NotificationsIcon from '@mui/icons-material/Notifications';
import NotificationsActiveIcon from '@mui/icons-material/NotificationsActive';
import { Link } from 'react-router-dom';
import { useAlarms } from '../../api/alarms';
import { TOOLTIP_DELAYS } from '../../lib/tooltip-delays';
import { useAlarmFeed } from './useAlarmFeed';

/** The top bar's bell: how many alarms are open (red while one is critical); opens the alarms list. */
export function AlarmBell() {
  useAlarmFeed();
  const { data: open = [] } = useAlarms('open');
  const critical = open.some((alarm) => alarm.severity === 'critical');
  const label = open.length === 0 ? 'Alarms: none open' : `Alarms: ${open.length} open${critical ? ', critical' : ''}`;
  return (
    <Tooltip title={label} {...TOOLTIP_DELAYS}>
      <IconButton component={Link} to="/alarms" aria-label={label} color={critical ? 'error' : 'default'}>
        <Badge badgeContent={open.length} color={critical ? 'error' : 'warning'} max={99}>
          {open.length > 0 ? <NotificationsActiveIcon /> : <NotificationsIcon />}
        </Badge>
      </IconButton>
    </Tooltip>
  );
}
