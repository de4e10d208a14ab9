import fs from 'node:fs';
import path from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  closeNotifications,
  launchBrowser,
  SCREEN_SIZES,
  SCREENSHOT_DIR,
  screenshotWithoutNotifications,
  settle,
  signInOnNextLoad,
  startServer,
  type RunningServer,
} from './support';
import { scaled } from '../../testkit/time-scale';

/*
 * Issue 3 in the browser, against the real server with its built-in test broadcast: launch a capture from
 * the Instances page, follow it pending -> running through the live feed (no reload), read its live logs,
 * terminate it, find its recording in the details viewer and download it; then make an image of it on the
 * AMI Manager and delete that image.
 */

const statCard = (page: Page, title: string): Locator =>
  page.locator('.MuiCard-root').filter({ has: page.locator('p', { hasText: new RegExp(`^${title}$`) }) });
const cardValue = (page: Page, title: string) => statCard(page, title).locator('.MuiTypography-h4').textContent();

/**
 * Records in the page, as each render lands, every state the row of an ad-hoc capture shows. A loaded
 * machine can show a state for a moment only (the recorder found media while the test was still reading
 * the row's name), which a polling locator misses.
 */
function recordCaptureStates(page: Page): Promise<void> {
  return page.evaluate(() => {
    const states = new Set(['pending', 'running', 'stopping', 'stopped', 'terminated']);
    const seen: string[] = [];
    const look = () => {
      const row = [...document.querySelectorAll('tr')].find((r) => r.textContent?.includes('capture-adhoc-'));
      const shown = [...(row?.querySelectorAll('*') ?? [])].find(
        (el) => el.children.length === 0 && states.has(el.textContent ?? ''),
      )?.textContent;
      if (shown && seen.at(-1) !== shown) seen.push(shown);
    };
    new MutationObserver(look).observe(document.body, { subtree: true, childList: true, characterData: true });
    Object.assign(window, { __captureStates: seen });
  });
}
const captureStates = (page: Page) =>
  page.evaluate(() => (window as unknown as { __captureStates: string[] }).__captureStates);

describe('Instances and AMI Manager in the browser', () => {
  let server: RunningServer;
  let browser: Browser;
  let page: Page;
  let instanceName = '';
  let instanceId = '';
  let amiId = '';

  beforeAll(async () => {
    server = await startServer({ demoStream: true });
    browser = await launchBrowser();
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, acceptDownloads: true });
    page = await context.newPage();
  });

  afterAll(async () => {
    // Recorders run detached from the server: make sure ours is gone before the server goes.
    if (instanceId && page) {
      await page
        .evaluate(async (id) => {
          await fetch('/api/instances/terminate', {
            method: 'POST',
            headers: {
              'Content-Type': 'application/json',
              Authorization: `Bearer ${localStorage.getItem('token') ?? ''}`,
            },
            body: JSON.stringify({ instance_ids: [id] }),
          });
        }, instanceId)
        .catch(() => undefined);
    }
    await browser?.close();
    await server?.stop();
  });

  const row = () => page.getByRole('row').filter({ hasText: instanceName });
  const openRowMenu = async () => {
    await row()
      .getByRole('button', { name: `Actions for ${instanceName}` })
      .click();
    return page.getByRole('menu');
  };

  it('launches a capture of the test broadcast and follows it pending -> running without a reload', async () => {
    await signInOnNextLoad(page, server.baseUrl);
    await page.goto(`${server.baseUrl}/profile`);
    await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Instances' }).click();
    await page.getByRole('heading', { name: 'Instances', level: 1 }).waitFor();
    await page.getByText('Connected: Yes').waitFor();
    await page.getByText('No instances found').waitFor();
    await page.getByText('Launch your first instance to get started').waitFor();
    expect(await page.getByRole('button', { name: 'Emergency Stop' }).isDisabled()).toBe(true);
    // A reload would lose this marker.
    await page.evaluate(() => Object.assign(window, { __sameDocument: true }));

    await page.getByRole('button', { name: 'Launch Instance' }).click();
    const dialog = page.getByRole('dialog', { name: 'Launch Instance' });
    const launch = dialog.getByRole('button', { name: 'Launch', exact: true });
    expect(await launch.isDisabled()).toBe(true);
    expect(await dialog.getByLabel('Duration (seconds)').inputValue()).toBe('7200');
    expect(await dialog.getByLabel('Width').inputValue()).toBe('1280');
    expect(await dialog.getByLabel('Height').inputValue()).toBe('720');
    const demoLink = dialog.getByRole('button', { name: /^Use the test broadcast http/ });
    await demoLink.waitFor();
    await screenshotWithoutNotifications(page, 'instances-launch-dialog');
    await demoLink.click();
    expect(await dialog.getByLabel(/Stream URL/).inputValue()).toMatch(
      /^http:\/\/127\.0\.0\.1:\d+\/demo\/stream\.m3u8$/,
    );
    await dialog.getByLabel('Duration (seconds)').fill('300');
    await dialog.getByLabel('Width').fill('640');
    await dialog.getByLabel('Height').fill('360');
    await recordCaptureStates(page);
    await launch.click();
    await dialog.waitFor({ state: 'hidden' });

    const first = page
      .getByRole('row')
      .filter({ hasText: /capture-adhoc-/ })
      .first();
    await first.waitFor();
    instanceName = (await first.locator('p').first().textContent()) ?? '';
    expect(instanceName).toMatch(/^capture-adhoc-/);
    await row()
      .getByText('running', { exact: true })
      .waitFor({ timeout: scaled(60_000) });
    expect((await captureStates(page)).slice(0, 2)).toEqual(['pending', 'running']);
    // The cards count from the same list, in a render of their own.
    await expect.poll(() => cardValue(page, 'Running')).toBe('1');
    expect(await cardValue(page, 'Pending')).toBe('0');
    expect(await cardValue(page, 'Total')).toBe('1');
    expect(await page.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument)).toBe(true);
    instanceId = await page.evaluate(async () => {
      const response = await fetch('/api/instances/', {
        headers: { Authorization: `Bearer ${localStorage.getItem('token') ?? ''}` },
      });
      const body = (await response.json()) as { data: { id: string }[] };
      return body.data[0].id;
    });
    expect(await page.getByRole('button', { name: 'Emergency Stop' }).isEnabled()).toBe(true);
    await row()
      .getByRole('checkbox', { name: `Select ${instanceName}` })
      .check();
    await page.getByRole('button', { name: 'Terminate Selected (1)' }).waitFor();
    await screenshotWithoutNotifications(page, 'instances-running');
    await row()
      .getByRole('checkbox', { name: `Select ${instanceName}` })
      .uncheck();
    await page.getByRole('button', { name: /Terminate Selected/ }).waitFor({ state: 'detached' });
  });

  it('opens the live logs of the running capture', async () => {
    const menu = await openRowMenu();
    expect(await menu.getByRole('menuitem').allTextContents()).toEqual(['View Details', 'View Logs', 'Terminate']);
    await menu.getByRole('menuitem', { name: 'View Logs' }).click();
    const logs = page.getByRole('dialog', { name: /^Logs:/ });
    await logs.getByText('Live', { exact: true }).waitFor();
    await logs.getByText('Last 100 lines, refreshed every 5 seconds').waitFor();
    const log = logs.getByRole('log');
    await expect.poll(async () => (await log.locator('div').count()) > 0, { timeout: scaled(15_000) }).toBe(true);
    // The recorder's piece bookkeeping is folded away by default; with every line shown, a new piece opens every few seconds.
    await logs.getByLabel('Show every line').check();
    const before = await log.textContent();
    // Live: new lines arrive by themselves while the capture runs.
    await expect
      .poll(async () => (await log.textContent()) !== before, { timeout: scaled(20_000), interval: 1000 })
      .toBe(true);
    await screenshotWithoutNotifications(page, 'instances-logs');
    await logs.getByRole('button', { name: 'Close' }).click();
    await logs.waitFor({ state: 'hidden' });
  });

  it("shows the running capture's live loudness in the details, at 1440 and 820 px", async () => {
    const menu = await openRowMenu();
    await menu.getByRole('menuitem', { name: 'View Details' }).click();
    const details = page.getByRole('dialog', { name: /^Instance Details:/ });
    // The recorder's readings settle about 25 s behind the live edge; the details are read again every 5 s.
    const live = details.getByRole('region', { name: 'Live loudness' });
    const bars = live.getByRole('img', { name: /^Loudness over the recording/ }).locator('rect:not([data-testid])');
    await expect.poll(() => bars.count(), { timeout: scaled(60_000), interval: 1000 }).toBeGreaterThan(0);
    // The test broadcast's tone is steady: no condition going on, an integrated loudness measured.
    await live.getByText('Sound and picture as expected').waitFor();
    expect(await live.getByTestId('content-summary').textContent()).toMatch(/^Integrated loudness -\d+\.\d LUFS · /);
    await closeNotifications(page);
    fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
    for (const size of SCREEN_SIZES) {
      await page.setViewportSize(size);
      // The section is the dialog's last: scrolled to, so the screenshot shows the strip.
      await live.getByTestId('loudness-strip').scrollIntoViewIfNeeded();
      await settle(page);
      const strip = await live.getByTestId('loudness-strip').boundingBox();
      expect(strip?.width ?? 0).toBeGreaterThan(0);
      expect((strip?.x ?? 0) + (strip?.width ?? Infinity)).toBeLessThanOrEqual(size.width);
      expect((strip?.y ?? 0) + (strip?.height ?? Infinity)).toBeLessThanOrEqual(size.height);
      await page.screenshot({ path: path.join(SCREENSHOT_DIR, `instances-live-loudness-${size.width}.png`) });
    }
    await page.setViewportSize(SCREEN_SIZES[0]);
    await details.getByRole('button', { name: 'Close' }).click();
    await details.waitFor({ state: 'hidden' });
  });

  it('terminates it with a confirmation and the state follows live', async () => {
    const menu = await openRowMenu();
    await menu.getByRole('menuitem', { name: 'Terminate' }).click();
    const confirm = page.getByRole('dialog', { name: 'Terminate Instance' });
    await confirm
      .getByText(`Are you sure you want to terminate instance ${instanceName}? This action cannot be undone.`)
      .waitFor();
    await confirm.getByRole('button', { name: 'Terminate' }).click();
    await confirm.waitFor({ state: 'hidden' });
    await row()
      .getByText(/^(stopping|terminated|stopped)$/)
      .waitFor();
    await row()
      .getByText(/^(terminated|stopped)$/)
      .waitFor({ timeout: scaled(30_000) });
    expect(await cardValue(page, 'Total')).toBe('0');
    expect(await page.getByRole('button', { name: 'Emergency Stop' }).isDisabled()).toBe(true);
    expect(await page.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument)).toBe(true);
  });

  it('lists the recording in the details viewer and downloads its file', async () => {
    const menu = await openRowMenu();
    expect(await menu.getByRole('menuitem').allTextContents()).toEqual(['View Details', 'View Logs']);
    await menu.getByRole('menuitem', { name: 'View Details' }).click();
    const details = page.getByRole('dialog', { name: /^Instance Details:/ });
    const recording = details.getByRole('region', { name: 'Recording Information' });
    await recording.getByText('640 x 360').waitFor();
    // The operator terminated it: the outcome says who, not partial.
    await recording
      .getByText('Stopped by admin', { exact: true })
      .first()
      .waitFor({ timeout: scaled(30_000) });
    await recording.getByText(/\.mp4$/).waitFor();
    await details.getByRole('region', { name: 'Basic Information' }).getByText(instanceName).waitFor();
    await details
      .getByRole('region', { name: 'Metrics' })
      .getByText(/ (KB|MB)$/)
      .waitFor();
    const download = details.getByRole('button', { name: 'Download Recording' });
    await expect.poll(() => download.isEnabled(), { timeout: scaled(15_000) }).toBe(true);
    await screenshotWithoutNotifications(page, 'instances-details');

    const [file] = await Promise.all([page.waitForEvent('download'), download.click()]);
    expect(file.suggestedFilename()).toMatch(/\.mp4$/);
    const saved = await file.path();
    const head = fs.readFileSync(saved).subarray(4, 8).toString('latin1');
    expect(head).toBe('ftyp');
    await details.getByRole('button', { name: 'Close' }).click();
    await details.waitFor({ state: 'hidden' });
  });

  it('creates an image of the instance on the AMI Manager and deletes it', async () => {
    await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'AMI Manager' }).click();
    await page.getByRole('heading', { name: 'AMI Manager', level: 1 }).waitFor();
    await page.getByText('No AMIs found. Create your first AMI to get started.').waitFor();
    // The journey's server runs the local provider: an image is not needed to record.
    await page.getByText(/^Images are optional here: this server runs its recorders on its own machine/).waitFor();
    await screenshotWithoutNotifications(page, 'ami-local-empty');

    await page.getByRole('button', { name: 'Create AMI' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create New AMI' });
    const create = dialog.getByRole('button', { name: 'Create AMI' });
    expect(await create.isDisabled()).toBe(true);
    await dialog.getByRole('combobox', { name: /Instance/ }).click();
    await page.getByRole('option', { name: new RegExp(instanceName) }).click();
    await dialog.getByLabel(/Version/).fill('1.0.0');
    await dialog.getByText('A timestamp is added to the name automatically').waitFor();
    await dialog.getByText(/The instance is rebooted/).waitFor();
    await screenshotWithoutNotifications(page, 'ami-create-dialog');
    await create.click();
    const created = page.getByText(/^AMI creation initiated: /);
    await created.waitFor();
    amiId = ((await created.textContent()) ?? '').replace('AMI creation initiated: ', '');
    expect(amiId).not.toBe('');
    await dialog.waitFor({ state: 'hidden' });

    // Re-read 2 s after the create (and every 5 s while pending): the image turns up, then turns available.
    const amiRow = page.getByRole('row').filter({ hasText: amiId });
    await amiRow.waitFor({ timeout: scaled(10_000) });
    await amiRow.getByText('available', { exact: true }).waitFor({ timeout: scaled(30_000) });
    await amiRow.getByText('Latest').waitFor();
    await amiRow.getByText(/^mosque-recorder-\d{8}-\d{6}$/).waitFor();
    await expect.poll(() => cardValue(page, 'Total AMIs')).toBe('1');
    expect(await cardValue(page, 'Available')).toBe('1');
    expect(await statCard(page, 'Latest Version').locator('.MuiTypography-h4').textContent()).toBe('1.0.0');
    await screenshotWithoutNotifications(page, 'ami-list');

    await amiRow.getByRole('button', { name: `Delete ${amiId}` }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete AMI' });
    await confirm.getByText('This action cannot be undone. The AMI and its snapshots will be deleted.').waitFor();
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await page.getByText(`AMI ${amiId} deleted successfully`).waitFor();
    await page.getByText('No AMIs found. Create your first AMI to get started.').waitFor();
    expect(await cardValue(page, 'Total AMIs')).toBe('0');
  });
});
