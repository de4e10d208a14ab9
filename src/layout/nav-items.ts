import type SvgIcon from '@mui/material/SvgIcon';
import DashboardIcon from '@mui/icons-material/Dashboard';
import ComputerIcon from '@mui/icons-material/Computer';
import AlbumIcon from '@mui/icons-material/Album';
import SettingsIcon from '@mui/icons-material/Settings';
import ScheduleIcon from '@mui/icons-material/Schedule';
import MonitorHeartIcon from '@mui/icons-material/MonitorHeart';
import GitHubIcon from '@mui/icons-material/GitHub';
import VideoLibraryIcon from '@mui/icons-material/VideoLibrary';
import NotificationsIcon from '@mui/icons-material/Notifications';
import PeopleIcon from '@mui/icons-material/People';

export interface NavItem {
  label: string;
  path: string;
  icon: typeof SvgIcon;
  /** Shown to superusers only (the page itself refuses others). */
  superuserOnly?: boolean;
}

/**
 * The sidebar's entries, in docs/reference.md's order; Recordings follows Scheduling, and Alarms and (for superusers)
 * Users close the list, so neither is reachable only through the bell or the avatar menu.
 */
export const NAV_ITEMS: NavItem[] = [
  { label: 'Dashboard', path: '/', icon: DashboardIcon },
  { label: 'Instances', path: '/instances', icon: ComputerIcon },
  { label: 'AMI Manager', path: '/ami', icon: AlbumIcon },
  { label: 'Config Generator', path: '/config', icon: SettingsIcon },
  { label: 'Scheduling', path: '/scheduling', icon: ScheduleIcon },
  { label: 'Recordings', path: '/recordings', icon: VideoLibraryIcon },
  { label: 'Monitoring', path: '/monitoring', icon: MonitorHeartIcon },
  { label: 'GitHub', path: '/github', icon: GitHubIcon },
  { label: 'Alarms', path: '/alarms', icon: NotificationsIcon },
  { label: 'Users', path: '/users', icon: PeopleIcon, superuserOnly: true },
];

/** The entries `isSuperuser` may open. */
export const navItemsFor = (isSuperuser: boolean): NavItem[] =>
  NAV_ITEMS.filter((item) => isSuperuser || !item.superuserOnly);

export const SIDEBAR_WIDTH = 280;
export const PRODUCT_TITLE = 'Capture Command Center';
export const PRODUCT_VERSION = '1.0.0';
