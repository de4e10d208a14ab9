import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedMosques } from '../../testkit/seed-mosques';
import { scaled } from '../../testkit/time-scale';
import {
  launchBrowser,
  SCREEN_SIZES,
  screenshot,
  seedRecordingsLibrary,
  signInOnNextLoad,
  startServer,
  type RunningServer,
} from './support';

/*
 * The recordings library at fleet size, in Chromium against the built server: 48 recordings of 24
 * mosques searched by mosque, sorted by a column, their download links saved as a list and some deleted
 * in bulk at 1440x900 and 820x1180, the view reproduced by its address.
 */

const MOSQUES = 24;

const rows = (page: Page) => page.getByRole('table', { name: 'Recordings' }).locator('tbody tr');
/** The Mosque column of the rows on screen (the third cell, after the checkbox and the day). */
const shownMosques = (page: Page) => rows(page).locator('td:nth-child(3) p:first-child').allTextContents();
const poll = <T>(read: () => Promise<T>) => expect.poll(read, { timeout: scaled(20_000), interval: 100 });

describe('The recordings library with many recordings', () => {
  let server: RunningServer;
  let browser: Browser;
  let dataDir = '';

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'capture-e2e-library-'));
    await seedMosques(dataDir, MOSQUES, { withPlaces: true });
    seedRecordingsLibrary(dataDir, MOSQUES);
    server = await startServer({ dataDir });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  });

  // "Mosque 2" matches Mosque 2 and 20-23: ten recordings, two of each; every width deletes the first two.
  let remaining = [23, 22, 21, 20, 2].flatMap((i) => [`Mosque ${i}`, `Mosque ${i}`]);

  for (const [index, size] of SCREEN_SIZES.entries()) {
    it(`searches, sorts, saves links and deletes in bulk at ${size.width}x${size.height}, and a link reproduces the view`, async () => {
      const context = await browser.newContext({ viewport: size, acceptDownloads: true });
      const page = await context.newPage();
      await signInOnNextLoad(page, server.baseUrl);
      await page.goto(`${server.baseUrl}/recordings`);
      await page.getByText(`1–10 of ${MOSQUES * 2 - index * 2}`, { exact: true }).waitFor();

      await page.getByLabel('Search recordings').fill('Mosque 2');
      await page.getByText(`1–${remaining.length} of ${remaining.length}`, { exact: true }).waitFor();
      expect(new URL(page.url()).searchParams.get('q')).toBe('Mosque 2');
      const mosqueHeader = page
        .getByRole('table', { name: 'Recordings' })
        .getByRole('button', { name: 'Mosque', exact: true });
      await mosqueHeader.click();
      await page.waitForURL(/sort=mosque&order=asc/, { timeout: scaled(30_000) });
      await mosqueHeader.click();
      await page.waitForURL(/sort=mosque&order=desc/, { timeout: scaled(30_000) });
      await poll(() => shownMosques(page)).toEqual(remaining);
      const view = page.url();
      expect(new URL(view).search).toBe('?q=Mosque+2&sort=mosque&order=desc');

      // The row's actions are inside the window at this width.
      for (const action of [/^Play recording/, /^Download recording/, /^Delete recording/]) {
        const box = await rows(page).first().getByRole('button', { name: action }).boundingBox();
        expect(
          (box?.x ?? Infinity) + (box?.width ?? 0),
          `${action} ends inside the ${size.width} px window`,
        ).toBeLessThanOrEqual(size.width);
      }

      // The address alone brings the same view back (a new tab of the same signed-in browser).
      const again = await context.newPage();
      await again.goto(view);
      await poll(() => shownMosques(again)).toEqual(remaining);
      await again.close();

      // The page's download links, saved as a list after a confirmation naming the count; each opens its file without signing in.
      await page.getByLabel('Select every recording on this page').check();
      const bar = page.getByRole('toolbar', { name: 'Selected recordings' });
      await bar.getByRole('button', { name: 'Download links' }).click();
      const dialog = page.getByRole('dialog');
      await dialog.getByText(`Download links of ${remaining.length} recordings`, { exact: true }).waitFor();
      if (index === 0) await screenshot(page, 'recordings-bulk-links'); // both widths
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        dialog.getByRole('button', { name: 'Save links' }).click(),
      ]);
      expect(download.suggestedFilename()).toMatch(/^recording-links-\d{8}-\d{4}\.txt$/);
      const links = fs
        .readFileSync(await download.path(), 'utf8')
        .trim()
        .split('\n');
      expect(links).toHaveLength(remaining.length);
      const media = await fetch(links[0]);
      expect(media.status).toBe(200);
      expect(media.headers.get('content-disposition')).toMatch(/^attachment/);
      expect((await media.arrayBuffer()).byteLength).toBe(fs.statSync(path.join(dataDir, 'sample.mp4')).size);

      // Delete the first two after a confirmation naming the count.
      await page
        .getByLabel(/^Select recording /)
        .nth(0)
        .check();
      await page
        .getByLabel(/^Select recording /)
        .nth(1)
        .check();
      await bar.getByRole('button', { name: 'Delete', exact: true }).click();
      await dialog.getByText('Delete 2 recordings', { exact: true }).waitFor();
      await dialog.getByRole('button', { name: 'Delete', exact: true }).click();
      await page.getByText('2 recordings deleted').first().waitFor();
      remaining = remaining.slice(2);
      await poll(() => shownMosques(page)).toEqual(remaining);
      expect(new URL(page.url()).search).toBe('?q=Mosque+2&sort=mosque&order=desc');
      await context.close();
    });
  }
});
