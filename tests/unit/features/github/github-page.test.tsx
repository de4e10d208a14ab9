import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { configureMockGithub, MOCK_GITHUB_TOKENS } from '../../../../src/mocks/handlers/github';
import { card, openGithub, region } from './helpers';
import { scaled } from '../../../../testkit/time-scale';

describe('GitHub page: status', { timeout: scaled(15_000) }, () => {
  it('shows an unconfigured repository access', async () => {
    await openGithub();
    await waitFor(() => expect(card('Configuration Status').getByText('Not Configured')).toBeInTheDocument());
    expect(card('Repository Access').getByText('Not Checked')).toBeInTheDocument();
    expect(card('Overall Status').getByText('Not Configured')).toBeInTheDocument();
    const details = region('Configuration Details');
    expect(details.getByText('Token Configured').nextElementSibling).toHaveTextContent('No');
    expect(details.getByText('Repository URL').nextElementSibling).toHaveTextContent('Not set');
    expect(details.getByText('Last Checked').nextElementSibling).toHaveTextContent('Never');
    expect(region('Repository Information').getByText(/No repository information yet/)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Validate Access' })).toBeDisabled();
  });

  it('shows a configured repository: details and repository information', async () => {
    configureMockGithub('https://github.com/capture-org/recordings');
    await openGithub();
    await waitFor(() => expect(card('Configuration Status').getByText('Configured')).toBeInTheDocument());
    expect(card('Repository Access').getByText('Connected')).toBeInTheDocument();
    expect(card('Overall Status').getByText('Healthy')).toBeInTheDocument();
    const details = region('Configuration Details');
    expect(details.getByText('Token Configured').nextElementSibling).toHaveTextContent('Yes');
    expect(details.getByRole('link', { name: 'https://github.com/capture-org/recordings' })).toHaveAttribute(
      'rel',
      'noopener noreferrer',
    );
    expect(details.getByText('Last Checked').nextElementSibling).not.toHaveTextContent('Never');
    expect(details.getByText('Commit Identity').nextElementSibling).toHaveTextContent(
      'capture-bot <capture-bot@users.noreply.github.com>',
    );
    const repo = region('Repository Information');
    expect(repo.getByText('Name').nextElementSibling).toHaveTextContent('recordings');
    expect(repo.getByText('Owner').nextElementSibling).toHaveTextContent('capture-org');
    expect(repo.getByText('Visibility').nextElementSibling).toHaveTextContent('Private');
    expect(repo.getByText('Default Branch').nextElementSibling).toHaveTextContent('main');
    // the token itself is nowhere on the page
    expect(document.body.textContent).not.toContain(MOCK_GITHUB_TOKENS.valid);
  });

  it('shows why access fails for a saved token that cannot push', async () => {
    configureMockGithub('https://github.com/capture-org/recordings', MOCK_GITHUB_TOKENS.readOnly);
    await openGithub();
    await waitFor(() => expect(card('Repository Access').getByText('Error')).toBeInTheDocument());
    expect(card('Overall Status').getByText('Unhealthy')).toBeInTheDocument();
    expect(
      region('Configuration Details').getByText('The token can read the repository but not push to it'),
    ).toBeInTheDocument();
  });

  it('offers Generate New PAT as an external link with the repo scope', async () => {
    await openGithub();
    const link = screen.getByRole('link', { name: 'Generate New PAT' });
    expect(link).toHaveAttribute(
      'href',
      'https://github.com/settings/tokens/new?scopes=repo&description=Capture%20Command%20Center',
    );
    expect(link).toHaveAttribute('target', '_blank');
    expect(link.getAttribute('rel')).toContain('noopener');
  });

  it('shows the raw status body, fetched with the session', async () => {
    configureMockGithub();
    const { user } = await openGithub();
    await user.click(screen.getByRole('button', { name: 'View Raw Status' }));
    const json = await screen.findByLabelText('Raw status JSON');
    const body = JSON.parse(json.textContent ?? '') as {
      success: boolean;
      data: { configuration: { pat_configured: boolean } };
    };
    expect(body.success).toBe(true);
    expect(body.data.configuration.pat_configured).toBe(true);
    expect(json.textContent).not.toContain(MOCK_GITHUB_TOKENS.valid);
    await user.click(screen.getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByLabelText('Raw status JSON')).not.toBeInTheDocument());
  });

  it('lets only superusers configure', async () => {
    await openGithub('operator');
    expect(screen.getByRole('button', { name: 'Configure PAT' })).toBeDisabled();
    expect(screen.getByText('Only superusers can change repository access.')).toBeInTheDocument();
  });
});
