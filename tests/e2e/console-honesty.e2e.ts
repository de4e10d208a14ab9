import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedMosques } from '../../testkit/seed-mosques';
import {
  E2E_ADMIN,
  launchBrowser,
  SCREEN_SIZES,
  screenshot,
  signInOnNextLoad,
  startServer,
  type RunningServer,
} from './support';
import { scaled } from '../../testkit/time-scale';

/*
 * Issue 42 in Chromium against the built server, with 2,000 seeded mosques, at 1440x900 and 820x1180:
 * Config's cards say "—" until their counts come (the summary answer held back) and the page never asks
 * for the whole fleet; a row's actions stay on screen at 820 px; Add Mosque with a map link the server
 * cannot resolve shows the server's reason beside the field, and warns before saving it unschedulable.
 */

const FLEET = 2_000;
/** A short link the server must resolve over the network: its resolver points at a closed port. */
const UNRESOLVABLE_LINK = 'https://maps.app.goo.gl/NoSuchPlace42';
const CARDS = ['Total Mosques', 'Coordinates', 'Prayer Times', 'Ready to Record'];

const card = (page: Page, title: string) =>
  page
    .locator('.MuiCard-root')
    .filter({ has: page.locator('p', { hasText: new RegExp(`^${title}$`) }) })
    .locator('.MuiTypography-h4');

describe('Config at fleet size, honestly', () => {
  let server: RunningServer;
  let browser: Browser;
  let dataDir = '';
  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'capture-e2e-honesty-'));
    await seedMosques(dataDir, FLEET, { withPlaces: true });
    server = await startServer({ dataDir, env: { MAPS_LINK_RESOLVE_ORIGIN: 'http://127.0.0.1:9' } });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  });

  for (const size of SCREEN_SIZES) {
    it(`shows "—" until the counts come, reads no fleet list, and keeps row actions on screen at ${size.width}x${size.height}`, async () => {
      const context = await browser.newContext({ viewport: size });
      const page = await context.newPage();
      await signInOnNextLoad(page, server.baseUrl);
      let release: () => void = () => undefined;
      const held = new Promise<void>((resolve) => (release = resolve));
      await page.route('**/api/config/mosques/summary', async (route) => {
        await held;
        await route.continue();
      });
      const mosqueData: { url: string; bytes: number }[] = [];
      page.on('response', async (response) => {
        const url = new URL(response.url());
        if (!url.pathname.startsWith('/api/config/') && !url.pathname.startsWith('/api/scheduler/')) return;
        const body = await response.body().catch(() => Buffer.alloc(0));
        mosqueData.push({ url: url.pathname + url.search, bytes: body.length });
      });

      await page.goto(`${server.baseUrl}/config`);
      const rows = page.getByRole('table', { name: 'Mosques' }).locator('tbody tr');
      await expect.poll(() => rows.count(), { timeout: scaled(20_000) }).toBe(10);
      for (const title of CARDS) expect(await card(page, title).textContent()).toBe('—');
      if (size === SCREEN_SIZES[0]) await screenshot(page, 'honesty-config-cards-loading');
      release();
      await expect.poll(() => card(page, 'Total Mosques').textContent(), { timeout: scaled(20_000) }).toBe('2000');
      expect(await card(page, 'Coordinates').textContent()).toMatch(/^\d+$/);

      // The first screen: one page, its prayer times and four counts; never the fleet.
      const fleetList = mosqueData.filter(
        ({ url }) => url === '/api/config/mosques' || url.startsWith('/api/config/coordinates'),
      );
      expect(fleetList).toEqual([]);
      const total = mosqueData.reduce((sum, { bytes }) => sum + bytes, 0);
      expect(total).toBeLessThan(200_000);

      // Every row's actions on screen, at either width.
      const first = rows.first();
      for (const name of [/^Test stream/, /^Edit/, /^Delete/]) {
        const box = await first.getByRole('button', { name }).boundingBox();
        expect(box, String(name)).not.toBeNull();
        expect(box!.x + box!.width).toBeLessThanOrEqual(size.width);
        expect(box!.x).toBeGreaterThanOrEqual(0);
      }
      if (size === SCREEN_SIZES[0]) await screenshot(page, 'honesty-config-fleet');

      await page.goto(`${server.baseUrl}/users`);
      const edit = page
        .getByRole('table', { name: 'Users' })
        .getByRole('button', { name: `Edit User ${E2E_ADMIN.username}` });
      await edit.waitFor();
      const userAction = await edit.boundingBox();
      expect(userAction).not.toBeNull();
      expect(userAction!.x + userAction!.width).toBeLessThanOrEqual(size.width);
      await context.close();
    });
  }

  it("shows the server's reason for an unresolvable map link beside the field, and warns before saving it unschedulable", async () => {
    const context = await browser.newContext({ viewport: SCREEN_SIZES[0] });
    const page = await context.newPage();
    await signInOnNextLoad(page, server.baseUrl);
    await page.goto(`${server.baseUrl}/config`);
    await page.getByRole('button', { name: 'Add Mosque' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add New Mosque' });
    await expect
      .poll(() => dialog.getByLabel(/Mosque ID/).inputValue(), { timeout: scaled(10_000) })
      .toMatch(/^[a-z0-9]{10}$/);
    await dialog.getByLabel(/Name \(English\)/).fill('Unreachable Link Mosque');
    await dialog.getByLabel(/Languages/).fill('en');
    await dialog.getByLabel(/Languages/).press('Enter');
    await dialog.getByLabel(/Google Maps URL/).fill(UNRESOLVABLE_LINK);
    const reason = dialog.getByText(/Type the latitude and longitude below, or the mosque cannot be scheduled\.$/);
    await reason.waitFor({ timeout: scaled(30_000) });
    const said = (await reason.textContent()) ?? '';
    // The server's own words, not a stand-in: they name what it could not reach.
    expect(said).toMatch(/maps\.app\.goo\.gl|127\.0\.0\.1|reach|resolve/i);
    await screenshot(page, 'honesty-add-mosque-unresolvable-link');
    await dialog.getByRole('button', { name: 'Add Mosque' }).click();
    await dialog.getByRole('alert').filter({ hasText: 'cannot be scheduled' }).waitFor();
    await screenshot(page, 'honesty-add-mosque-unschedulable-warning');
    await dialog.getByRole('button', { name: 'Save without coordinates' }).click();
    await page.getByText('Mosque added successfully').waitFor();
    await context.close();
  });
});
