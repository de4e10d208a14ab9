import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  launchBrowser,
  screenshot,
  SCREEN_SIZES,
  seedFailedCaptures,
  settle,
  signInOnNextLoad,
  startServer,
  type RunningServer,
} from './support';

/*
 * Nothing an operator needs is out of view, measured in Chromium at the two screen sizes the console is
 * checked at (a 1440 x 900 laptop, an 820 x 1180 tablet): Recordings' actions sit inside the window
 * without scrolling the table, Monitoring's storage card overlaps no other card, and keyboard users get
 * a skip link and a visible focus ring.
 */

type Box = { x: number; y: number; width: number; height: number };

const overlaps = (a: Box, b: Box) =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

async function boxOf(locator: Locator): Promise<Box> {
  const box = await locator.boundingBox();
  if (!box) throw new Error('not rendered');
  return box;
}

describe('nothing hidden, at 1440 x 900 and 820 x 1180', () => {
  let server: RunningServer;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    server = await startServer();
    seedFailedCaptures(server.dataDir);
    browser = await launchBrowser();
    page = await (await browser.newContext({ viewport: SCREEN_SIZES[0] })).newPage();
    await signInOnNextLoad(page, server.baseUrl);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it.each(SCREEN_SIZES)(
    'keeps Play, Download and Delete of every recording inside the window at $width x $height',
    async (size) => {
      await page.setViewportSize(size);
      await page.goto(`${server.baseUrl}/recordings`);
      const table = page.getByRole('table', { name: 'Recordings' });
      await table
        .getByRole('button', { name: /^Delete recording/ })
        .first()
        .waitFor();
      await settle(page);
      for (const action of [/^Play recording/, /^Download recording/, /^Delete recording/]) {
        const buttons = await table.getByRole('button', { name: action }).all();
        expect(buttons.length, `${action}`).toBe(10);
        for (const button of buttons) {
          const box = await boxOf(button);
          expect(box.x, `${action} starts inside the window`).toBeGreaterThanOrEqual(0);
          expect(box.x + box.width, `${action} ends inside the ${size.width} px window`).toBeLessThanOrEqual(
            size.width,
          );
        }
      }
      // In view without scrolling the table sideways: the table fits its box.
      const fits = await table.evaluate((element) => {
        const container = element.parentElement;
        return container !== null && container.scrollWidth <= container.clientWidth;
      });
      expect(fits).toBe(true);
      // The first row's actions are on screen as the page opens (the storage card above the table leaves room).
      const first = await boxOf(table.getByRole('button', { name: /^Delete recording/ }).first());
      expect(first.y + first.height).toBeLessThanOrEqual(size.height);
    },
  );

  it.each(SCREEN_SIZES)(
    "gives Monitoring's storage card its own cell at $width x $height, overlapping no other card",
    async (size) => {
      await page.setViewportSize(size);
      await page.goto(`${server.baseUrl}/monitoring`);
      const storage = page.getByLabel('Recording storage', { exact: true });
      await storage.getByText(/^Measured /).waitFor();
      await settle(page);
      const storageBox = await boxOf(storage);
      const others = await page.locator('.MuiCard-root, .MuiAccordion-root').all();
      let compared = 0;
      for (const other of others) {
        if ((await other.getAttribute('aria-label')) === 'Recording storage') continue;
        expect(
          overlaps(storageBox, await boxOf(other)),
          `storage card against "${(await other.innerText()).split('\n')[0]}"`,
        ).toBe(false);
        compared++;
      }
      expect(compared).toBeGreaterThanOrEqual(5);
      // Nothing is painted over it: its centre, brought into view, hits the card itself.
      await storage.scrollIntoViewIfNeeded();
      const onTop = await storage.evaluate((card) => {
        const rect = card.getBoundingClientRect();
        const hit = document.elementFromPoint(rect.x + rect.width / 2, rect.y + rect.height / 2);
        return hit !== null && card.contains(hit);
      });
      expect(onTop).toBe(true);
    },
  );

  it('measures the storage again on request and says when', async () => {
    await page.setViewportSize(SCREEN_SIZES[0]);
    await page.goto(`${server.baseUrl}/monitoring`);
    const storage = page.getByLabel('Recording storage', { exact: true });
    await storage.getByText(/^Measured /).waitFor();
    const measured = page.waitForResponse(
      (response) => response.url().endsWith('/api/recordings/storage/measure') && response.status() === 200,
    );
    await storage.getByRole('button', { name: 'Measure recording storage now' }).click();
    await measured;
    await storage.getByText(/^Measured /).waitFor();
    await screenshot(page, 'monitoring-storage-card');
  });

  it('offers a skip link as the first Tab stop and a visible focus ring on the sidebar links', async () => {
    await page.setViewportSize(SCREEN_SIZES[0]);
    await page.goto(`${server.baseUrl}/recordings`);
    await page.getByRole('table', { name: 'Recordings' }).waitFor();
    await page.keyboard.press('Tab');
    const skip = page.getByRole('link', { name: 'Skip to content' });
    const box = await boxOf(skip);
    expect(box.y).toBeGreaterThanOrEqual(0);
    await page.keyboard.press('Enter');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('main-content');

    const dashboard = page
      .getByRole('navigation', { name: 'Main navigation' })
      .getByRole('link', { name: 'Dashboard' });
    await page.goto(`${server.baseUrl}/recordings`);
    await page.getByRole('table', { name: 'Recordings' }).waitFor();
    for (let tabs = 0; tabs < 20 && !(await dashboard.evaluate((link) => link === document.activeElement)); tabs++)
      await page.keyboard.press('Tab');
    const ring = await dashboard.evaluate((link) => {
      const style = getComputedStyle(link);
      return { style: style.outlineStyle, width: style.outlineWidth };
    });
    expect(ring).toEqual({ style: 'solid', width: '2px' });
  });
});
