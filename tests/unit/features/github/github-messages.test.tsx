import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { configureMockGithub, githubMock, MOCK_GITHUB_TOKENS } from '../../../../src/mocks/handlers/github';
import GithubPage from '../../../../src/features/github/GithubPage';
import { renderWithProviders } from '../../support/render';
import { server } from '../../support/server';
import { card, dialog, findNotification, openGithub } from './helpers';
import { fill } from '../../support/fill';
import { scaled } from '../../../../testkit/time-scale';

const REPO = 'https://github.com/capture-org/recordings';

async function openConfigure() {
  const rendered = await openGithub();
  await rendered.user.click(screen.getByRole('button', { name: 'Configure PAT' }));
  const form = dialog('Configure GitHub Access');
  return { ...rendered, form };
}

describe(
  'GitHub page: configure, validate and their messages (docs/reference.md section 8)',
  { timeout: scaled(20_000) },
  () => {
    it('reads "Failed to load GitHub status" when the status cannot be loaded', async () => {
      server.use(http.get('/api/github/status', () => HttpResponse.json({}, { status: 500 })));
      renderWithProviders(<GithubPage />, { path: '/github', as: 'admin' });
      const banner = await screen.findByRole('alert');
      expect(banner).toHaveTextContent('Failed to load GitHub status');
    });

    it("prefers the server's detail for a failed status load", async () => {
      server.use(
        http.get('/api/github/status', () =>
          HttpResponse.json(
            { success: false, detail: 'GitHub is unreachable', error: 'GitHub is unreachable' },
            { status: 503 },
          ),
        ),
      );
      renderWithProviders(<GithubPage />, { path: '/github', as: 'admin' });
      expect(await screen.findByRole('alert')).toHaveTextContent('GitHub is unreachable');
    });

    it('reads "Network error occurred" when the status call gets no answer', async () => {
      server.use(http.get('/api/github/status', () => HttpResponse.error()));
      renderWithProviders(<GithubPage />, { path: '/github', as: 'admin' });
      expect(await screen.findByRole('alert')).toHaveTextContent('Network error occurred');
    });

    it('has a Configure GitHub Access dialog: masked token with a show toggle, URL, user and email defaults, repo scope hint', async () => {
      const { form, user } = await openConfigure();
      const token = form.getByLabelText(/Personal Access Token/, { selector: 'input' });
      expect(token).toHaveAttribute('type', 'password');
      expect(token).toBeRequired();
      await user.click(form.getByRole('button', { name: 'Show token' }));
      expect(token).toHaveAttribute('type', 'text');
      await user.click(form.getByRole('button', { name: 'Hide token' }));
      expect(token).toHaveAttribute('type', 'password');
      expect(form.getByLabelText(/Repository URL/, { selector: 'input' })).toBeRequired();
      expect(form.getByLabelText('Git User Name', { selector: 'input' })).toHaveValue('capture-bot');
      expect(form.getByLabelText('Git Email', { selector: 'input' })).toHaveValue(
        'capture-bot@users.noreply.github.com',
      );
      expect(form.getByText(/Private repositories need a token with the repo scope/)).toBeInTheDocument();
    });

    it('requires the token and the repository URL', async () => {
      const { form, user } = await openConfigure();
      const save = form.getByRole('button', { name: 'Save Configuration' });
      expect(save).toBeDisabled();
      await fill(user, form.getByLabelText(/Personal Access Token/, { selector: 'input' }), MOCK_GITHUB_TOKENS.valid);
      expect(save).toBeDisabled();
      await fill(user, form.getByLabelText(/Repository URL/, { selector: 'input' }), REPO);
      expect(save).toBeEnabled();
    });

    it('saves a working token: "GitHub configuration saved successfully" and the validation results', async () => {
      let sent: Record<string, unknown> | null = null;
      server.events.on('request:start', ({ request }) => {
        if (request.url.endsWith('/api/github/configure'))
          void request
            .clone()
            .json()
            .then((body: Record<string, unknown>) => (sent = body));
      });
      try {
        const { form, user } = await openConfigure();
        await fill(user, form.getByLabelText(/Personal Access Token/, { selector: 'input' }), MOCK_GITHUB_TOKENS.valid);
        await fill(user, form.getByLabelText(/Repository URL/, { selector: 'input' }), REPO);
        await user.click(form.getByRole('button', { name: 'Save Configuration' }));
        expect(await findNotification('GitHub configuration saved successfully')).toHaveAttribute(
          'data-severity',
          'success',
        );
        const results = within(await screen.findByRole('dialog', { name: 'Validation Results' }));
        expect(results.getByText('All checks passed')).toBeInTheDocument();
        const checks = within(results.getByRole('list', { name: 'Validation checks' })).getAllByRole('listitem');
        expect(checks.map((item) => item.querySelector('.MuiListItemText-primary')?.textContent)).toEqual([
          'GitHub API',
          'Repository Access',
          'Permissions',
        ]);
        expect(checks[0]).toHaveTextContent('Authenticated as capture-operator');
        expect(checks[2]).toHaveTextContent('The token can push to the repository');
        expect(checks.every((item) => within(item).queryByText('Passed'))).toBe(true);
        expect(screen.queryByRole('dialog', { name: 'Configure GitHub Access' })).not.toBeInTheDocument();
        await waitFor(() => expect(card('Configuration Status').getByText('Configured')).toBeInTheDocument());
        expect(sent).toEqual({
          github_pat: MOCK_GITHUB_TOKENS.valid,
          github_repo_url: REPO,
          github_user: 'capture-bot',
          github_email: 'capture-bot@users.noreply.github.com',
        });
        expect(githubMock().config?.repo_url).toBe(REPO);
      } finally {
        server.events.removeAllListeners();
      }
    });

    it("keeps the dialog open with the server's reason when the token is refused", async () => {
      const { form, user } = await openConfigure();
      await fill(
        user,
        form.getByLabelText(/Personal Access Token/, { selector: 'input' }),
        MOCK_GITHUB_TOKENS.badCredentials,
      );
      await fill(user, form.getByLabelText(/Repository URL/, { selector: 'input' }), REPO);
      await user.click(form.getByRole('button', { name: 'Save Configuration' }));
      expect(await form.findByText(/GitHub access was not saved: GitHub refused the token/)).toBeInTheDocument();
      expect(screen.getByRole('dialog', { name: 'Configure GitHub Access' })).toBeInTheDocument();
      expect(githubMock().config).toBeNull();
    });

    it('reads "Configuration failed" when the server gives no reason', async () => {
      server.use(http.post('/api/github/configure', () => HttpResponse.json({}, { status: 500 })));
      const { form, user } = await openConfigure();
      await fill(user, form.getByLabelText(/Personal Access Token/, { selector: 'input' }), MOCK_GITHUB_TOKENS.valid);
      await fill(user, form.getByLabelText(/Repository URL/, { selector: 'input' }), REPO);
      await user.click(form.getByRole('button', { name: 'Save Configuration' }));
      expect(await form.findByText('Configuration failed')).toBeInTheDocument();
    });

    it('reads "Network error occurred" when configure gets no answer', async () => {
      server.use(http.post('/api/github/configure', () => HttpResponse.error()));
      const { form, user } = await openConfigure();
      await fill(user, form.getByLabelText(/Personal Access Token/, { selector: 'input' }), MOCK_GITHUB_TOKENS.valid);
      await fill(user, form.getByLabelText(/Repository URL/, { selector: 'input' }), REPO);
      await user.click(form.getByRole('button', { name: 'Save Configuration' }));
      expect(await form.findByText('Network error occurred')).toBeInTheDocument();
    });

    it('validates the saved access: "GitHub access validated successfully" and the results', async () => {
      configureMockGithub(REPO);
      const { user } = await openGithub();
      await user.click(await screen.findByRole('button', { name: 'Validate Access' }));
      expect(await findNotification('GitHub access validated successfully')).toHaveAttribute(
        'data-severity',
        'success',
      );
      const results = within(await screen.findByRole('dialog', { name: 'Validation Results' }));
      expect(results.getByText('capture-org/recordings')).toBeInTheDocument();
      expect(results.getByText('Push Permission').nextElementSibling).toHaveTextContent('Yes');
    });

    it('reads "Validation failed" when a check fails, and lists each check with its status and message', async () => {
      configureMockGithub(REPO, MOCK_GITHUB_TOKENS.readOnly);
      const { user } = await openGithub();
      await user.click(await screen.findByRole('button', { name: 'Validate Access' }));
      expect(await findNotification('Validation failed')).toHaveAttribute('data-severity', 'error');
      const results = within(await screen.findByRole('dialog', { name: 'Validation Results' }));
      expect(results.getByText('Some checks failed')).toBeInTheDocument();
      const checks = within(results.getByRole('list', { name: 'Validation checks' })).getAllByRole('listitem');
      expect(within(checks[0]).getByText('Passed')).toBeInTheDocument();
      expect(within(checks[2]).getByText('Failed')).toBeInTheDocument();
      expect(checks[2]).toHaveTextContent('The token can read the repository but not push to it');
      expect(results.getByText('Push Permission').nextElementSibling).toHaveTextContent('No');
    });

    it('shows the server\'s reason, else "Validation failed", else "Network error occurred" for a failed validate call', async () => {
      configureMockGithub(REPO);
      server.use(
        http.post('/api/github/validate', () =>
          HttpResponse.json({ success: false, detail: 'GitHub access is not configured', error: 'x' }, { status: 400 }),
        ),
      );
      const { user } = await openGithub();
      const validate = await screen.findByRole('button', { name: 'Validate Access' });
      await user.click(validate);
      expect(await findNotification('GitHub access is not configured')).toHaveAttribute('data-severity', 'error');

      server.use(http.post('/api/github/validate', () => HttpResponse.json({}, { status: 502 })));
      await waitFor(() => expect(validate).toBeEnabled());
      await user.click(validate);
      expect(await findNotification('Validation failed')).toBeInTheDocument();

      server.use(http.post('/api/github/validate', () => HttpResponse.error()));
      await waitFor(() => expect(validate).toBeEnabled());
      await user.click(validate);
      expect(await findNotification('Network error occurred')).toBeInTheDocument();
    });
  },
);
