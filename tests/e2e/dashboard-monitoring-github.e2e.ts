import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeGithub } from '../server/github/fake-github';
import { E2E_ADMIN, launchBrowser, screenshot, signIn, startServer, type RunningServer } from './support';
import { scaled } from '../../testkit/time-scale';

/*
 * Issue 6 in the browser, against the real server: the Dashboard's live counts follow a capture launched
 * from another tab, Monitoring shows the server's measured response times and the recorder's health, and
 * the GitHub page configures a token against a local server that speaks GitHub's REST shapes.
 */

const GOOD_TOKEN = 'ghp_e2eGoodToken0123456789';
const BAD_TOKEN = 'ghp_e2eRevokedToken';
const REPO_URL = 'https://github.com/capture-org/recordings';

type FakeGithub = Awaited<ReturnType<typeof startFakeGithub>>;

/** The StatCard whose title is `title`. */
const statCard = (page: Page, title: string): Locator =>
  page.locator('.MuiCard-root').filter({ has: page.locator('p', { hasText: new RegExp(`^${title}$`) }) });

const cardValue = (page: Page, title: string): Locator => statCard(page, title).locator('.MuiTypography-h4');

describe('Dashboard, Monitoring and GitHub in the browser', () => {
  let github: FakeGithub;
  let server: RunningServer;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  const launched: string[] = [];

  beforeAll(async () => {
    github = await startFakeGithub({
      tokens: { [GOOD_TOKEN]: { login: 'capture-bot-e2e', scopes: 'repo, workflow' } },
      repos: [
        {
          owner: 'capture-org',
          name: 'recordings',
          private: true,
          default_branch: 'main',
          pushers: ['capture-bot-e2e'],
        },
      ],
    });
    server = await startServer({ demoStream: true, env: { GITHUB_API_URL: github.url } });
    browser = await launchBrowser();
    context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    page = await context.newPage();
  });

  afterAll(async () => {
    // Recorders run detached from the server: end them before the server goes.
    if (launched.length > 0 && page) {
      await page
        .evaluate(async (ids) => {
          await fetch('/api/instances/terminate', {
            method: 'POST',
            headers: {
              'Content-Type': 'application/json',
              Authorization: `Bearer ${localStorage.getItem('token') ?? ''}`,
            },
            body: JSON.stringify({ instance_ids: ids }),
          });
        }, launched)
        .catch(() => undefined);
    }
    await browser?.close();
    await server?.stop();
    await github?.close();
  });

  it('shows live counts on the Dashboard that change when a capture is launched from another tab', async () => {
    await signIn(page, server.baseUrl, E2E_ADMIN.username, E2E_ADMIN.password);
    await page.getByRole('heading', { name: 'Dashboard', level: 1 }).waitFor();
    await page.getByText('WebSocket Connected').waitFor();
    await expect.poll(() => cardValue(page, 'Running Instances').textContent()).toBe('0');
    expect(await cardValue(page, 'Total Instances').textContent()).toBe('0');
    // the sign-in itself is the latest entry of the activity log
    await page.getByRole('list', { name: 'Recent activity' }).getByText('admin signed in').first().waitFor();

    // Another tab of the same console launches a capture of the server's demo broadcast.
    const other = await context.newPage();
    await other.goto(`${server.baseUrl}/instances`);
    const result = await other.evaluate(async () => {
      const headers = {
        'Content-Type': 'application/json',
        Authorization: `Bearer ${localStorage.getItem('token') ?? ''}`,
      };
      const demo = (await (await fetch('/api/instances/demo-stream', { headers })).json()) as {
        data: { url: string | null };
      };
      if (!demo.data.url) throw new Error('The server runs no demo stream');
      const response = await fetch('/api/instances/launch', {
        method: 'POST',
        headers,
        body: JSON.stringify({
          configs: [{ url: demo.data.url, duration: 90, width: 320, height: 240 }],
          max_workers: 1,
        }),
      });
      return {
        status: response.status,
        body: (await response.json()) as { data: { instances: Array<{ id: string }> } },
      };
    });
    expect(result.status).toBe(200);
    launched.push(...result.body.data.instances.map((instance) => instance.id));
    expect(launched).toHaveLength(1);
    await other.close();

    // The first tab follows without a reload.
    await expect.poll(() => cardValue(page, 'Total Instances').textContent(), { timeout: scaled(15_000) }).toBe('1');
    await expect
      .poll(() => cardValue(page, 'Running Instances').textContent(), { timeout: scaled(60_000), interval: 500 })
      .toBe('1');
    await expect
      .poll(() => statCard(page, 'Recordings').getByText('1 recording now').count(), { timeout: scaled(15_000) })
      .toBe(1);
    expect(await page.getByText('WebSocket connection lost').count()).toBe(0);
    const bar = statCard(page, 'Running Instances').getByRole('progressbar');
    expect(await bar.getAttribute('aria-valuenow')).toBe('5');
    await screenshot(page, 'dashboard');
  });

  it("shows real response times and the recorder's health on Monitoring", async () => {
    await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Monitoring' }).click();
    await page.getByRole('heading', { name: 'Monitoring', level: 1 }).waitFor();
    const api = page.getByRole('region', { name: 'API Response Times' });
    const average = api.getByText('Average', { exact: true }).locator('xpath=following-sibling::*[1]');
    await expect.poll(() => average.textContent(), { timeout: scaled(15_000) }).toMatch(/^\d+(\.\d)? ms$/);
    expect(await api.getByText('95th percentile').locator('xpath=following-sibling::*[1]').textContent()).toMatch(
      /^\d+(\.\d)? ms$/,
    );
    const measured = Number(
      await api.getByText('Requests measured').locator('xpath=following-sibling::*[1]').textContent(),
    );
    expect(measured).toBeGreaterThan(3);
    expect(
      await api
        .getByRole('img', { name: /p95 response time/ })
        .locator('path')
        .count(),
    ).toBeGreaterThanOrEqual(1);
    const websocket = page.getByRole('region', { name: 'WebSocket' });
    expect(
      Number(await websocket.getByText('Active connections').locator('xpath=following-sibling::*[1]').textContent()),
    ).toBeGreaterThanOrEqual(1);

    const row = page.getByRole('table', { name: 'Live instance monitoring' }).getByRole('row').nth(1);
    await row.getByText('running').waitFor();
    await row.getByText('Healthy').waitFor({ timeout: scaled(15_000) });
    expect(await page.getByLabel('Database: Healthy').count()).toBe(1);
    expect(await page.getByLabel('WebSocket: Connected').count()).toBe(1);
    expect(await cardValue(page, 'Active Instances').textContent()).toBe('1');
    await screenshot(page, 'monitoring');
  });

  it('configures a token against the GitHub-shaped server and shows the validation results', async () => {
    await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'GitHub' }).click();
    await page.getByRole('heading', { name: 'GitHub Repository Access', level: 1 }).waitFor();
    await statCard(page, 'Configuration Status').getByText('Not Configured').waitFor();
    await screenshot(page, 'github-not-configured');

    // A revoked token is refused and nothing is saved.
    await page.getByRole('button', { name: 'Configure PAT' }).click();
    const form = page.getByRole('dialog', { name: 'Configure GitHub Access' });
    const token = form.getByLabel(/Personal Access Token/);
    expect(await token.getAttribute('type')).toBe('password');
    await token.fill(BAD_TOKEN);
    await form.getByLabel(/Repository URL/).fill(REPO_URL);
    await form.getByRole('button', { name: 'Save Configuration' }).click();
    await form.getByText(/GitHub access was not saved/).waitFor();
    await screenshot(page, 'github-configure-refused');

    // The right one is saved and checked.
    await token.fill(GOOD_TOKEN);
    await form.getByRole('button', { name: 'Save Configuration' }).click();
    await page.getByText('GitHub configuration saved successfully').waitFor();
    const results = page.getByRole('dialog', { name: 'Validation Results' });
    await results.waitFor();
    const checks = results.getByRole('list', { name: 'Validation checks' }).getByRole('listitem');
    expect(await checks.count()).toBe(3);
    expect(await checks.getByText('Passed').count()).toBe(3);
    expect(await results.getByText('capture-bot-e2e', { exact: true }).count()).toBe(1);
    await screenshot(page, 'github-validation-results');
    await results.getByRole('button', { name: 'Close' }).click();

    await statCard(page, 'Configuration Status').getByText('Configured', { exact: true }).waitFor();
    await statCard(page, 'Repository Access').getByText('Connected').waitFor();
    await statCard(page, 'Overall Status').getByText('Healthy').waitFor();
    const repo = page.getByRole('region', { name: 'Repository Information' });
    await repo.getByText('Private').waitFor();
    expect(await repo.getByText('capture-org').count()).toBe(1);

    // Validate Access asks GitHub again with the saved (encrypted) token.
    await page.getByRole('button', { name: 'Validate Access' }).click();
    await page.getByText('GitHub access validated successfully').waitFor();
    await page.getByRole('dialog', { name: 'Validation Results' }).getByRole('button', { name: 'Close' }).click();
    await page.getByRole('dialog', { name: 'Validation Results' }).waitFor({ state: 'hidden' });
    await page.getByText('GitHub access validated successfully').waitFor({ state: 'hidden', timeout: scaled(10_000) });
    await screenshot(page, 'github-configured');

    // The token went to GitHub in the Authorization header and is nowhere on the page.
    expect(github.seenAuthorization.some((header) => header.includes(GOOD_TOKEN))).toBe(true);
    expect(await page.content()).not.toContain(GOOD_TOKEN);

    // The configuration is the newest entry of the activity log on the Dashboard.
    await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Dashboard' }).click();
    const activity = page.getByRole('list', { name: 'Recent activity' });
    await activity.getByText('admin configured repository access to capture-org/recordings').waitFor();
    expect(await activity.getByRole('listitem').first().textContent()).toContain('admin configured repository access');
  });
});
