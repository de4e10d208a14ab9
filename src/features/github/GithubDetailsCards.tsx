import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Chip from '@mui/material/Chip';
import Divider from '@mui/material/Divider';
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import type { GithubStatus } from '../../../contract/github';
import { formatDateTime } from '../../lib/dates';
import { DetailRow } from './DetailRow';

const safeWebUrl = (url: string) => /^https?:\/\//i.test(url);

/** Token configured, repository URL, commit identity, who configured it, last checked. */
export function ConfigurationDetails({ status }: { status: GithubStatus | undefined }) {
  const config = status?.configuration;
  return (
    <Card sx={{ height: '100%' }} component="section" aria-labelledby="github-config-title">
      <CardContent>
        <Typography id="github-config-title" variant="h6" component="h2" gutterBottom>
          Configuration Details
        </Typography>
        <DetailRow label="Token Configured">
          <Chip
            size="small"
            label={config?.pat_configured ? 'Yes' : 'No'}
            color={config?.pat_configured ? 'success' : 'default'}
          />
        </DetailRow>
        <Divider />
        <DetailRow label="Repository URL">
          {config?.repo_url ? (
            safeWebUrl(config.repo_url) ? (
              <Link href={config.repo_url} target="_blank" rel="noopener noreferrer">
                {config.repo_url}
              </Link>
            ) : (
              <Typography>{config.repo_url}</Typography>
            )
          ) : (
            <Typography color="textSecondary">Not set</Typography>
          )}
        </DetailRow>
        <Divider />
        <DetailRow label="Commit Identity">
          <Typography>
            {config?.github_user ? `${config.github_user} <${config.github_email ?? ''}>` : 'Not set'}
          </Typography>
        </DetailRow>
        <Divider />
        <DetailRow label="Configured">
          <Typography>
            {config?.configured_at
              ? `${formatDateTime(config.configured_at)}${config.configured_by ? ` by ${config.configured_by}` : ''}`
              : 'Never'}
          </Typography>
        </DetailRow>
        <Divider />
        <DetailRow label="Last Checked">
          <Typography>{formatDateTime(status?.last_checked)}</Typography>
        </DetailRow>
        {status?.github_access.status === 'error' && status.github_access.message && (
          <Typography color="error" variant="body2" sx={{ mt: 1 }}>
            {status.github_access.message}
          </Typography>
        )}
      </CardContent>
    </Card>
  );
}

/** Name, owner, visibility, default branch of the configured repository. */
export function RepositoryInformation({ status }: { status: GithubStatus | undefined }) {
  const repo = status?.repository_info;
  return (
    <Card sx={{ height: '100%' }} component="section" aria-labelledby="github-repo-title">
      <CardContent>
        <Typography id="github-repo-title" variant="h6" component="h2" gutterBottom>
          Repository Information
        </Typography>
        {repo ? (
          <>
            <DetailRow label="Name">
              <Typography>{repo.name}</Typography>
            </DetailRow>
            <Divider />
            <DetailRow label="Owner">
              <Typography>{repo.owner}</Typography>
            </DetailRow>
            <Divider />
            <DetailRow label="Visibility">
              <Chip
                size="small"
                label={repo.private ? 'Private' : 'Public'}
                color={repo.private ? 'warning' : 'info'}
                variant="outlined"
              />
            </DetailRow>
            <Divider />
            <DetailRow label="Default Branch">
              <Typography sx={{ fontFamily: 'monospace' }}>{repo.default_branch}</Typography>
            </DetailRow>
          </>
        ) : (
          <Typography color="textSecondary">
            No repository information yet. Configure a token and repository to see it here.
          </Typography>
        )}
      </CardContent>
    </Card>
  );
}
