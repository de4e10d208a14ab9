import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Chip from '@mui/material/Chip';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import Typography from '@mui/material/Typography';
import AlbumIcon from '@mui/icons-material/Album';
import CloudIcon from '@mui/icons-material/Cloud';
import CloudUploadIcon from '@mui/icons-material/CloudUpload';
import ScheduleIcon from '@mui/icons-material/Schedule';
import StorageIcon from '@mui/icons-material/Storage';
import VpnKeyIcon from '@mui/icons-material/VpnKey';
import WifiIcon from '@mui/icons-material/Wifi';
import type { ReactNode } from 'react';
import type { ComponentHealth, SystemHealth } from '../../../contract/monitoring';
import { useLive } from '../../live/context';
import { formatMs } from '../../lib/fleet-summary';

interface HealthRowProps {
  icon: ReactNode;
  name: string;
  ok: boolean | null;
  okLabel?: string;
  badLabel?: string;
  detail: ReactNode;
}

function HealthRow({ icon, name, ok, okLabel = 'Healthy', badLabel = 'Unhealthy', detail }: HealthRowProps) {
  const label = ok === null ? 'Unknown' : ok ? okLabel : badLabel;
  return (
    <ListItem
      disableGutters
      secondaryAction={
        <Chip
          size="small"
          color={ok === null ? 'default' : ok ? 'success' : 'error'}
          label={label}
          aria-label={`${name}: ${label}`}
        />
      }
    >
      <ListItemIcon sx={{ minWidth: 40 }}>{icon}</ListItemIcon>
      <ListItemText
        primary={name}
        secondary={detail}
        sx={{ pr: 11 }}
        slotProps={{
          secondary: {
            title: typeof detail === 'string' ? detail : undefined,
            sx: {
              display: '-webkit-box',
              WebkitLineClamp: 2,
              WebkitBoxOrient: 'vertical',
              overflow: 'hidden',
              overflowWrap: 'anywhere',
            },
          },
        }}
      />
    </ListItem>
  );
}

function componentDetail(component: ComponentHealth | undefined): string {
  if (!component) return 'Not checked yet';
  const latency = `checked in ${formatMs(component.latency_ms)}`;
  return component.detail ? `${component.detail} (${latency})` : latency;
}

const isHealthy = (component: ComponentHealth | undefined) => (component ? component.status === 'healthy' : null);

/** The EC2 configuration's checks (a server on the local driver has none): shown under Cloud Connectivity when present. */
const CLOUD_CONFIGURATION: { component: string; name: string; icon: ReactNode }[] = [
  { component: 'aws_credentials', name: 'Cloud Credentials', icon: <VpnKeyIcon /> },
  { component: 'aws_upload_signing', name: 'Upload Signing', icon: <CloudUploadIcon /> },
  { component: 'aws_image', name: 'Recorder Image', icon: <AlbumIcon /> },
];

/** WebSocket (this console's live feed), cloud connectivity (the capture provider) and its configuration, prayer times, database. */
export function SystemHealthList({ health }: { health: SystemHealth | undefined }) {
  const { connected } = useLive();
  const components = health?.components;
  return (
    <Card sx={{ height: '100%' }} component="section" aria-labelledby="system-health-title">
      <CardContent>
        <Typography id="system-health-title" variant="h6" component="h2" gutterBottom>
          System Health
        </Typography>
        <List dense aria-label="System health" disablePadding>
          <HealthRow
            icon={<WifiIcon />}
            name="WebSocket"
            ok={connected}
            okLabel="Connected"
            badLabel="Disconnected"
            detail={
              connected ? 'Live feed to this console' : 'Live updates are paused; figures still refresh every 30 s'
            }
          />
          <HealthRow
            icon={<CloudIcon />}
            name="Cloud Connectivity"
            ok={isHealthy(components?.aws)}
            detail={componentDetail(components?.aws)}
          />
          {CLOUD_CONFIGURATION.filter(({ component }) => components?.[component]).map(({ component, name, icon }) => (
            <HealthRow
              key={component}
              icon={icon}
              name={name}
              ok={isHealthy(components?.[component])}
              detail={componentDetail(components?.[component])}
            />
          ))}
          <HealthRow
            icon={<ScheduleIcon />}
            name="Prayer Time Service"
            ok={isHealthy(components?.prayer_times)}
            detail={componentDetail(components?.prayer_times)}
          />
          <HealthRow
            icon={<StorageIcon />}
            name="Database"
            ok={isHealthy(components?.database)}
            detail={componentDetail(components?.database)}
          />
        </List>
      </CardContent>
    </Card>
  );
}
