import Chip from '@mui/material/Chip';
import Grid from '@mui/material/Grid';
import GitHubIcon from '@mui/icons-material/GitHub';
import HealthAndSafetyIcon from '@mui/icons-material/HealthAndSafety';
import SettingsIcon from '@mui/icons-material/Settings';
import type { GithubStatus } from '../../../contract/github';
import { StatCard } from '../../components/StatCard';
import { accessLabel, configurationLabel, overallLabel } from './github-labels';

/** Configuration Status, Repository Access, Overall Status. */
export function GithubStatusCards({ status }: { status: GithubStatus | undefined }) {
  const cards = [
    {
      title: 'Configuration Status',
      icon: <SettingsIcon />,
      ...configurationLabel(status),
      // Nothing is said of the token before the status has answered.
      subtitle: status && (status.configuration.pat_configured ? 'Token saved, encrypted' : 'No token saved'),
    },
    {
      title: 'Repository Access',
      icon: <GitHubIcon />,
      ...accessLabel(status),
      subtitle: status?.github_access.message ?? 'Not checked yet',
    },
    {
      title: 'Overall Status',
      icon: <HealthAndSafetyIcon />,
      ...overallLabel(status),
      subtitle: status ? `API: ${status.api_url}` : undefined,
    },
  ];
  return (
    <>
      {cards.map((card) => (
        <Grid key={card.title} size={{ xs: 12, sm: 4 }}>
          <StatCard
            title={card.title}
            value={<Chip label={card.label} color={card.color} sx={{ fontSize: '1rem', fontWeight: 500 }} />}
            subtitle={card.subtitle}
            icon={card.icon}
            color={card.color === 'default' ? 'primary' : card.color}
          />
        </Grid>
      ))}
    </>
  );
}
