import type { GithubCheckStatus, GithubStatus } from '../../../contract/github';

/** Where to create a token with the repo scope, named after the product. */
export const GENERATE_PAT_URL =
  'https://github.com/settings/tokens/new?scopes=repo&description=Capture%20Command%20Center';

type Color = 'success' | 'error' | 'warning' | 'default' | 'info';

export function configurationLabel(status: GithubStatus | undefined): { label: string; color: Color } {
  if (!status) return { label: 'Unknown', color: 'default' };
  return status.configuration.status === 'configured'
    ? { label: 'Configured', color: 'success' }
    : { label: 'Not Configured', color: 'warning' };
}

export function accessLabel(status: GithubStatus | undefined): { label: string; color: Color } {
  switch (status?.github_access.status) {
    case 'connected':
      return { label: 'Connected', color: 'success' };
    case 'error':
      return { label: 'Error', color: 'error' };
    case 'not_checked':
      return { label: 'Not Checked', color: 'default' };
    default:
      return { label: 'Unknown', color: 'default' };
  }
}

export function overallLabel(status: GithubStatus | undefined): { label: string; color: Color } {
  switch (status?.overall_status) {
    case 'healthy':
      return { label: 'Healthy', color: 'success' };
    case 'unhealthy':
      return { label: 'Unhealthy', color: 'error' };
    case 'not_configured':
      return { label: 'Not Configured', color: 'warning' };
    default:
      return { label: 'Unknown', color: 'default' };
  }
}

export function checkLabel(status: GithubCheckStatus): { label: string; color: Color } {
  switch (status) {
    case 'success':
      return { label: 'Passed', color: 'success' };
    case 'error':
      return { label: 'Failed', color: 'error' };
    default:
      return { label: 'Skipped', color: 'default' };
  }
}
