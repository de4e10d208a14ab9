import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import CircularProgress from '@mui/material/CircularProgress';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import AccountCircleIcon from '@mui/icons-material/AccountCircle';
import CloudQueueIcon from '@mui/icons-material/CloudQueue';
import EventIcon from '@mui/icons-material/Event';
import GitHubIcon from '@mui/icons-material/GitHub';
import HistoryIcon from '@mui/icons-material/History';
import LoginIcon from '@mui/icons-material/Login';
import MosqueIcon from '@mui/icons-material/Mosque';
import PhotoLibraryIcon from '@mui/icons-material/PhotoLibrary';
import { formatDistanceToNow, parseISO } from 'date-fns';
import type { ReactNode } from 'react';
import { describeActivity, type ActivityEntry } from '../../../contract/activity';
import { apiErrorMessage } from '../../api/client';
import { useActivity } from '../../api/activity';
import { formatDateTime } from '../../lib/dates';

/** Entries the Dashboard shows. */
export const RECENT_ACTIVITY_LIMIT = 8;
export const ACTIVITY_LOAD_FAILED = 'Failed to load recent activity';

function iconFor(action: string): ReactNode {
  const area = action.split('.')[0];
  switch (area) {
    case 'auth':
      return <LoginIcon />;
    case 'user':
      return <AccountCircleIcon />;
    case 'instance':
      return <CloudQueueIcon />;
    case 'image':
      return <PhotoLibraryIcon />;
    case 'mosque':
    case 'config':
      return <MosqueIcon />;
    case 'schedule':
    case 'scheduler':
      return <EventIcon />;
    case 'github':
      return <GitHubIcon />;
    default:
      return <HistoryIcon />;
  }
}

function ago(at: string): string {
  const date = parseISO(at);
  return Number.isNaN(date.getTime()) ? at : formatDistanceToNow(date, { addSuffix: true });
}

function ActivityItem({ entry }: { entry: ActivityEntry }) {
  return (
    <ListItem disableGutters>
      <ListItemIcon sx={{ minWidth: 40, color: 'primary.light' }}>{iconFor(entry.action)}</ListItemIcon>
      <ListItemText
        primary={entry.summary || describeActivity(entry)}
        secondary={
          <Tooltip title={formatDateTime(entry.at)} enterDelay={100} leaveDelay={0}>
            <span>{ago(entry.at)}</span>
          </Tooltip>
        }
      />
    </ListItem>
  );
}

/** The latest entries of the server's activity log (not sample entries: issue 6). */
export function RecentActivity() {
  const activity = useActivity(RECENT_ACTIVITY_LIMIT);
  let body: ReactNode;
  if (activity.isPending) body = <CircularProgress size={24} aria-label="Loading activity" />;
  else if (activity.isError)
    body = <Typography color="error">{apiErrorMessage(activity.error, ACTIVITY_LOAD_FAILED)}</Typography>;
  else if (activity.data.length === 0) body = <Typography color="textSecondary">No activity yet</Typography>;
  else
    body = (
      <List dense aria-label="Recent activity" disablePadding>
        {activity.data.map((entry) => (
          <ActivityItem key={entry.id} entry={entry} />
        ))}
      </List>
    );
  return (
    <Card sx={{ height: '100%' }} component="section" aria-labelledby="recent-activity-title">
      <CardContent>
        <Typography id="recent-activity-title" variant="h6" component="h2" gutterBottom>
          Recent Activity
        </Typography>
        {body}
      </CardContent>
    </Card>
  );
}
