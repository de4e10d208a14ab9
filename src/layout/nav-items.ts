import type SvgIcon from '@mui/material/SvgIcon';
import DashboardIcon from '@mui/icons-material/Dashboard';
import ComputerIcon from '@mui/icons-material/Computer';
import AlbumIcon from '@mui/icons-material/Album';
import SettingsIcon from '@mui/icons-material/Settings';
import ScheduleIcon from '@mui/icons-material/Schedule';
import MonitorHeartIcon from '@mui/icons-material/MonitorHeart';
import GitHubIcon from '@mui/icons-material/GitHub';
import VideoLibraryIcon from '@mui/icons-material/VideoLibrary';

export interface NavItem {
  label: string;
  path: string;
  icon: typeof SvgIcon;
}

/** The sidebar's entries, in SPEC.md's order; Recordings follows Scheduling. */
export const NAV_ITEMS: NavItem[] = [
  { label: 'Dashboard', path: '/', icon: DashboardIcon },
  { label: 'Instances', path: '/instances', icon: ComputerIcon },
  { label: 'AMI Manager', path: '/ami', icon: AlbumIcon },
  { label: 'Config Generator', path: '/config', icon: SettingsIcon },
  { label: 'Scheduling', path: '/scheduling', icon: ScheduleIcon },
  { label: 'Recordings', path: '/recordings', icon: VideoLibraryIcon },
  { label: 'Monitoring', path: '/monitoring', icon: MonitorHeartIcon },
  { label: 'GitHub', path: '/github', icon: GitHubIcon },
];

export const SIDEBAR_WIDTH = 280;
export const PRODUCT_TITLE = 'Capture Command Center';
export const PRODUCT_VERSION = '1.0.0';
