import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import {
  closeNotifications,
  launchBrowser,
  screenshot,
  signInOnNextLoad,
  startServer,
  type RunningServer,
} from './support';

/* The screens this round changed, in the real browser against the real server, with screenshots at 1440 and 820 px. */
describe('console changes in the browser', () => {
  let server: RunningServer;
  let browser: Browser;
  let page: Page;
  const dialog = () => page.getByRole('dialog');

  beforeAll(async () => {
    server = await startServer();
    browser = await launchBrowser();
    page = await (await browser.newContext({ viewport: { width: 1440, height: 900 } })).newPage();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('shows the sign-in form without a call to the server, and points to the first-run password file when asked', async () => {
    const file = path.join(server.dataDir, 'initial-admin-password');
    fs.writeFileSync(file, 'not-the-real-one\n', { mode: 0o600 });
    const apiCalls: string[] = [];
    page.on('request', (request) => {
      if (new URL(request.url()).pathname.startsWith('/api/')) apiCalls.push(request.url());
    });
    await page.goto(`${server.baseUrl}/login`);
    await page.getByRole('button', { name: 'Login', exact: true }).waitFor();
    await page.waitForLoadState('networkidle');
    expect(apiCalls).toEqual([]);
    await page.getByRole('button', { name: 'First sign-in?' }).click();
    await page.getByText(/First sign-in\? Sign in as admin .* with the password in the file/).waitFor();
    expect(await page.content()).not.toContain('not-the-real-one');
    await screenshot(page, 'login-first-run');
    fs.rmSync(file);
    await page.reload();
    await page.getByRole('button', { name: 'First sign-in?' }).click();
    await page.getByText('No generated password is waiting', { exact: false }).waitFor();
    expect(await page.getByText(/with the password in the file/).count()).toBe(0);
    page.removeAllListeners('request');
  });

  it('asks before Escape discards a typed mosque, and shows the notification below the header', async () => {
    await signInOnNextLoad(page, server.baseUrl);
    await page.goto(`${server.baseUrl}/config`);
    await page.getByRole('button', { name: 'Add Mosque' }).click();
    await dialog().getByLabel('Name (English)').fill('Fatih Mosque');
    await page.keyboard.press('Escape');
    await page.getByRole('dialog', { name: 'Discard changes?' }).waitFor();
    await screenshot(page, 'discard-prompt');
    await page.getByRole('button', { name: 'Keep editing' }).click();
    await dialog().getByLabel('Languages').click();
    await page.getByRole('option', { name: 'English (en)' }).click();
    await dialog().getByLabel('ID Token').fill('http://127.0.0.1:9/fatih.m3u8');
    await dialog().getByRole('button', { name: 'Add Mosque' }).click();
    const notice = page.locator('.MuiAlert-filled').filter({ hasText: 'Mosque added successfully' });
    await notice.waitFor();
    const button = await page.getByRole('button', { name: 'Add Mosque' }).boundingBox();
    const box = await notice.boundingBox();
    expect(box && button && box.y > button.y + button.height).toBe(true);
    await screenshot(page, 'notification-below-header');
    await closeNotifications(page);
  });

  it('picks the launch mosque by name and checks the frame size in place', async () => {
    await page.goto(`${server.baseUrl}/instances`);
    await page.getByRole('button', { name: 'Launch Instance' }).click();
    await dialog().getByLabel('Mosque').fill('Fatih');
    await page.getByRole('option', { name: /Fatih Mosque/ }).click();
    await dialog().getByLabel('Width').fill('1281');
    await dialog().getByText('Width must be an even number').waitFor();
    expect(await dialog().getByRole('button', { name: 'Launch' }).isDisabled()).toBe(true);
    await screenshot(page, 'launch-mosque-and-field-error');
  });
});
