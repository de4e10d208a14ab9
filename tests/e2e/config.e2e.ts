import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  closeNotifications,
  launchBrowser,
  screenshotOnceDialogsShown,
  signInOnNextLoad,
  startServer,
  type RunningServer,
} from './support';
import { scaled } from '../../testkit/time-scale';

/*
 * Issue 4 in the browser, against the real server: add a mosque from a map link (coordinates, time zone
 * and city are filled in), edit it with a short app-share link (resolved through a local stand-in for
 * maps.app.goo.gl, the server's MAPS_LINK_RESOLVE_ORIGIN), generate its recording configuration and
 * download the file, then delete it.
 */

const MECCA_LINK = 'https://www.google.com/maps/place/Masjid+al-Haram/@21.4225,39.8262,17z/data=!3m1!4b1';
const CAIRO_SHARE_LINK = 'https://maps.app.goo.gl/AlAzharShare1';
const STREAM_URL = 'https://streams.example.com/live/haram.m3u8';

/** Answers as maps.app.goo.gl does: a redirect to the long link of the place. */
function startShortLinkServer(): Promise<{ origin: string; hits: string[]; close: () => Promise<void> }> {
  const hits: string[] = [];
  const server = http.createServer((request, response) => {
    hits.push(request.url ?? '');
    if (request.url === '/AlAzharShare1') {
      response.writeHead(302, { location: 'https://www.google.com/maps/place/Al-Azhar+Mosque/@30.0458,31.2625,17z' });
    } else {
      response.writeHead(404);
    }
    response.end();
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      resolve({
        origin: `http://127.0.0.1:${port}`,
        hits,
        close: () => new Promise((done) => server.close(() => done())),
      });
    });
  });
}

const statCard = (page: Page, title: string): Locator =>
  page.locator('.MuiCard-root').filter({ has: page.locator('p', { hasText: new RegExp(`^${title}$`) }) });
const cardValue = (page: Page, title: string) => statCard(page, title).locator('.MuiTypography-h4').textContent();

describe('Config Generator in the browser', () => {
  let shortLinks: Awaited<ReturnType<typeof startShortLinkServer>>;
  let server: RunningServer;
  let browser: Browser;
  let page: Page;
  let mosqueId = '';

  beforeAll(async () => {
    shortLinks = await startShortLinkServer();
    server = await startServer({ env: { MAPS_LINK_RESOLVE_ORIGIN: shortLinks.origin } });
    browser = await launchBrowser();
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, acceptDownloads: true });
    page = await context.newPage();
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await shortLinks?.close();
  });

  const dialog = () => page.getByRole('dialog');
  const input = (label: string | RegExp) => dialog().getByLabel(label);
  const row = () => page.getByRole('row').filter({ hasText: mosqueId });
  const poll = (read: () => Promise<string>) => expect.poll(read, { timeout: scaled(20_000), interval: 200 });

  it('starts empty, with Generate Configs disabled', async () => {
    await signInOnNextLoad(page, server.baseUrl);
    await page.goto(`${server.baseUrl}/profile`);
    await page
      .getByRole('navigation', { name: 'Main navigation' })
      .getByRole('link', { name: 'Config Generator' })
      .click();
    await page.getByRole('heading', { name: 'Config Generator', level: 1 }).waitFor();
    await page.getByText('No mosques configured yet. Add a mosque to get started.').waitFor();
    // The button goes by the mosque counts, a read of its own that can land after the table's.
    await poll(() => page.getByRole('button', { name: 'Generate Configs' }).isDisabled().then(String)).toBe('true');
    expect(await cardValue(page, 'Total Mosques')).toBe('0');
  });

  it('adds a mosque from a map link: coordinates, time zone and city are filled in', async () => {
    await page.getByRole('button', { name: 'Add Mosque' }).click();
    await dialog().getByRole('heading', { name: 'Add New Mosque' }).waitFor();
    await poll(() => input('Mosque ID').inputValue()).toMatch(/^[a-z0-9]{10}$/);
    mosqueId = await input('Mosque ID').inputValue();
    expect(await input('Mosque ID').getAttribute('readonly')).not.toBeNull();

    await input('Name (English)').fill('Masjid al-Haram');
    await input('Name (Arabic)').fill('المسجد الحرام');
    expect(await input('Name (Arabic)').getAttribute('dir')).toBe('rtl');
    await input('Languages').click();
    await page.getByRole('option', { name: 'Arabic (ar)' }).click();
    await input('Languages').fill('en');
    await input('Languages').press('Enter');
    await input('ID Token').fill(STREAM_URL);

    await input('Google Maps URL').fill(MECCA_LINK);
    await poll(() => input('Latitude').inputValue()).toBe('21.4225');
    expect(await input('Longitude').inputValue()).toBe('39.8262');
    await poll(() => input('Timezone').inputValue()).toBe('Asia/Riyadh');
    await poll(() => input('City').inputValue()).toMatch(/Mecca|Makkah/);
    expect(await input('Country').inputValue()).toBe('Saudi Arabia');
    await screenshotOnceDialogsShown(page, 'config-add-mosque');

    await dialog().getByRole('button', { name: 'Add Mosque' }).click();
    await page.getByText('Mosque added successfully').waitFor();
    await dialog().waitFor({ state: 'detached' });
    await row().getByText('Masjid al-Haram').waitFor();
    await row().getByText('Available').waitFor();
    await row().getByText('Enabled').waitFor();
    // The next Friday prayer, as a local time chip.
    await row()
      .getByText(/^\d{2}:\d{2}$/)
      .waitFor();
    expect(await cardValue(page, 'Total Mosques')).toBe('1');
    expect(await cardValue(page, 'Ready to Record')).toBe('1');
    await closeNotifications(page);
    await screenshotOnceDialogsShown(page, 'config');
  });

  it('edits it: a short app-share link moves it to Cairo', async () => {
    await row()
      .getByRole('button', { name: `Edit mosque ${mosqueId}` })
      .click();
    await dialog().getByRole('heading', { name: 'Edit Mosque' }).waitFor();
    expect(await input('Mosque ID').inputValue()).toBe(mosqueId);
    expect(await input('Mosque ID').getAttribute('readonly')).not.toBeNull();
    await screenshotOnceDialogsShown(page, 'config-edit-mosque');
    await input('Name (English)').fill('Al-Azhar Mosque');
    await input('Name (Arabic)').fill('الجامع الأزهر');
    await input('Google Maps URL').fill(CAIRO_SHARE_LINK);
    await poll(() => input('Latitude').inputValue()).toBe('30.0458');
    expect(await input('Longitude').inputValue()).toBe('31.2625');
    await poll(() => input('Timezone').inputValue()).toBe('Africa/Cairo');
    await poll(() => input('City').inputValue()).toBe('Cairo');
    expect(await input('Country').inputValue()).toBe('Egypt');
    expect(shortLinks.hits).toContain('/AlAzharShare1');

    await dialog().getByRole('button', { name: 'Update Mosque' }).click();
    await page.getByText('Mosque updated successfully').waitFor();
    await dialog().waitFor({ state: 'detached' });
    await row().getByText('Al-Azhar Mosque').waitFor();
    await row().getByText('Cairo').waitFor();
    await closeNotifications(page);
  });

  it('generates the recording configuration and downloads it as a JSON file', async () => {
    await page.getByRole('button', { name: 'Generate Configs' }).click();
    await dialog().getByRole('heading', { name: 'Generate Recording Configurations' }).waitFor();
    expect(await input('Duration (seconds)').inputValue()).toBe('7200');
    expect(await input('Width').inputValue()).toBe('1080');
    expect(await input('Height').inputValue()).toBe('576');
    expect(await input('API Base URL').inputValue()).toBe(server.baseUrl);
    await screenshotOnceDialogsShown(page, 'config-generate');

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      dialog().getByRole('button', { name: 'Generate', exact: true }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^recording-configs-\d{8}-\d{4}\.json$/);
    const file = await download.path();
    const recordings = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>[];
    expect(recordings).toHaveLength(1);
    const [config] = recordings;
    expect(config).toMatchObject({
      url: STREAM_URL,
      duration: 7200,
      width: 1080,
      height: 576,
      method: 'api',
      api_base_url: server.baseUrl,
      mosque_id: mosqueId,
      mosque_name: 'Al-Azhar Mosque',
      timezone: 'Africa/Cairo',
    });
    const prayer = Date.parse(String(config.friday_prayer));
    const start = Date.parse(String(config.recording_start));
    expect(prayer - start).toBe(20 * 60_000);
    expect(new Date(prayer).getUTCDay()).toBe(5);
    await page.getByText('Generated 1 recording configurations').waitFor();
    await dialog().waitFor({ state: 'detached' });
    await closeNotifications(page);
  });

  it('deletes it after confirmation', async () => {
    await row()
      .getByRole('button', { name: `Delete mosque ${mosqueId}` })
      .click();
    await dialog()
      .getByText(`Are you sure you want to delete mosque ${mosqueId}? This action cannot be undone.`)
      .waitFor();
    await dialog().getByRole('button', { name: 'Delete' }).click();
    await page.getByText(`Mosque ${mosqueId} deleted successfully`).waitFor();
    await page.getByText('No mosques configured yet. Add a mosque to get started.').waitFor();
    expect(await cardValue(page, 'Total Mosques')).toBe('0');
    expect(await page.getByRole('button', { name: 'Generate Configs' }).isDisabled()).toBe(true);
  });
});
