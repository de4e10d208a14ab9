import fs from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, screenshot, SCREEN_SIZES, signIn, startServer, type RunningServer } from './support';
import { scaled } from '../../testkit/time-scale';

const BANNER = /signed in with the password generated at the first start/;

/*
 * A fresh install without ADMIN_PASSWORD, in Chromium: the superuser signs in with the generated password
 * from the data folder, is asked on every page to replace it, and once it is replaced the server no longer
 * counts it as generated (the banner stays away after a reload, which reads the account from the server).
 */
describe('the generated first password', () => {
  let server: RunningServer;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    server = await startServer({ env: { ADMIN_PASSWORD: '' } });
    browser = await launchBrowser();
    page = await (await browser.newContext({ viewport: SCREEN_SIZES[0] })).newPage();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('is flagged on every page until the superuser replaces it', async () => {
    const file = path.join(server.dataDir, 'initial-admin-password');
    const generated = fs.readFileSync(file, 'utf8').trim();
    await signIn(page, server.baseUrl, 'admin', generated);
    await page.getByText(BANNER).waitFor();
    await page.goto(`${server.baseUrl}/recordings`);
    await page.getByText(BANNER).waitFor();
    await screenshot(page, 'generated-password-banner');

    await page.getByRole('link', { name: 'Change password' }).click();
    await page.waitForURL((url) => url.pathname === '/change-password');
    // Not on the page that replaces it.
    await page.getByText(BANNER).waitFor({ state: 'detached' });
    await page.getByLabel('Current Password', { exact: true }).fill(generated);
    await page.getByLabel('New Password', { exact: true }).fill('Chosen-by-me-2026');
    await page.getByLabel('Confirm New Password', { exact: true }).fill('Chosen-by-me-2026');
    await page.getByRole('button', { name: 'Change Password', exact: true }).click();
    await page.waitForURL((url) => url.pathname === '/profile', { timeout: scaled(10_000) });
    await page.getByRole('heading', { name: 'My Profile', level: 1 }).waitFor();
    expect(await page.getByText(BANNER).count()).toBe(0);
    await page.reload();
    await page.getByRole('heading', { name: 'My Profile', level: 1 }).waitFor();
    expect(await page.getByText(BANNER).count()).toBe(0);
    expect(fs.existsSync(file)).toBe(false);
  });
});
