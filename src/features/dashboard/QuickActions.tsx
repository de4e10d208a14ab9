import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import CloudUploadIcon from '@mui/icons-material/CloudUpload';
import EventIcon from '@mui/icons-material/Event';
import GitHubIcon from '@mui/icons-material/GitHub';
import MonitorHeartIcon from '@mui/icons-material/MonitorHeart';
import PhotoLibraryIcon from '@mui/icons-material/PhotoLibrary';
import SettingsIcon from '@mui/icons-material/Settings';
import type { ReactElement } from 'react';
import { Link as RouterLink } from 'react-router-dom';

export const QUICK_ACTIONS: ReadonlyArray<{ label: string; to: string; icon: ReactElement }> = [
  { label: 'Launch Instance', to: '/instances', icon: <CloudUploadIcon /> },
  { label: 'Manage AMIs', to: '/ami', icon: <PhotoLibraryIcon /> },
  { label: 'Generate Configs', to: '/config', icon: <SettingsIcon /> },
  { label: 'Schedule Recordings', to: '/scheduling', icon: <EventIcon /> },
  { label: 'View Monitoring', to: '/monitoring', icon: <MonitorHeartIcon /> },
  { label: 'Repository Access', to: '/github', icon: <GitHubIcon /> },
];

/** Chips that lead to the pages where the work is done. */
export function QuickActions() {
  return (
    <Card component="section" aria-labelledby="quick-actions-title">
      <CardContent>
        <Typography id="quick-actions-title" variant="h6" component="h2" gutterBottom>
          Quick Actions
        </Typography>
        <Stack direction="row" useFlexGap sx={{ flexWrap: 'wrap', gap: 1 }}>
          {QUICK_ACTIONS.map((action) => (
            <Chip
              key={action.to}
              component={RouterLink}
              to={action.to}
              clickable
              icon={action.icon}
              label={action.label}
              color="primary"
              variant="outlined"
            />
          ))}
        </Stack>
      </CardContent>
    </Card>
  );
}
