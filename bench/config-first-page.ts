/**
 * The Config Generator at fleet size, in Chromium: with 10,000 mosques, how long after navigation the
 * first page of the mosque table is on screen (ten rows in the Mosques table), against a bare React +
 * MUI page (bench/baseline-table) that asks the same built server for the same page with the same
 * token and renders the same columns. Each run is a fresh browser context (cold cache) signed in by
 * its stored token; the two alternate, and the median of RUNS each is reported. The baseline's files
 * are served from disk under the server's origin by the browser's request routing (uncompressed); the
 * console's by the server, precompressed, as production serves them.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import type { Browser, BrowserContext } from 'playwright-core';
import { build } from 'vite';
import { launchBrowser } from '../tests/e2e/support/browser';
import { seedMosques } from '../testkit/seed-mosques';
import { median, round, withRatio, type BenchResult } from './lib';
import { scratchDataDir, signIn, startRealServer } from './servers';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const baselineOut = path.join(root, 'bench/.work/table');
const MOSQUES = 10_000;
const RUNS = 8;
const BASELINE_PATH = '/bench-baseline-table/';
/** What the Config page reads beside its first page: the cards' counts and the page's prayer times (the baseline reads neither). */
const FLEET_READS = ['/api/config/mosques/summary', '/api/config/prayer-times'];
const TYPES: Record<string, string> = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css' };

async function buildBaseline(): Promise<void> {
  await build({
    root: path.join(root, 'bench/baseline-table'),
    base: BASELINE_PATH,
    configFile: false,
    logLevel: 'error',
    plugins: [react()],
    build: { outDir: baselineOut, emptyOutDir: true },
  });
}

async function signedInContext(browser: Browser, baseUrl: string, token: string): Promise<BrowserContext> {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  await context.addInitScript((value) => localStorage.setItem('token', value), token);
  await context.route(`${baseUrl}${BASELINE_PATH}**`, async (route) => {
    const relative = new URL(route.request().url()).pathname.slice(BASELINE_PATH.length) || 'index.html';
    const file = path.join(baselineOut, relative);
    await route.fulfill({
      body: fs.readFileSync(file),
      contentType: TYPES[path.extname(file)] ?? 'application/octet-stream',
    });
  });
  return context;
}

/** Milliseconds from navigation to ten rows in the Mosques table, in a fresh context, kept until the reads `readsAfter` have answered. */
async function timeToFirstPage(
  browser: Browser,
  baseUrl: string,
  token: string,
  url: string,
  readsAfter: string[] = [],
): Promise<number> {
  const context = await signedInContext(browser, baseUrl, token);
  try {
    const page = await context.newPage();
    await page.goto(url);
    await page.waitForFunction(
      () => document.querySelectorAll('table[aria-label="Mosques"] tbody tr td:nth-child(4)').length === 10,
      undefined,
      {
        polling: 'raf',
        timeout: 60_000,
      },
    );
    const shown = await page.evaluate(() => performance.now());
    // Beside its first page the console reads the cards' counts (worked out over the whole fleet on the
    // server) and the page's prayer times. Closed at once, the next run's navigation waited behind those
    // reads, and the runs alternate: the baseline paid for the console's work.
    await page.waitForFunction(
      (paths) =>
        paths.every((wanted) =>
          performance.getEntriesByType('resource').some((entry) => new URL(entry.name).pathname === wanted),
        ),
      readsAfter,
      {
        timeout: 30_000,
      },
    );
    return shown;
  } finally {
    await context.close();
  }
}

export async function run(): Promise<BenchResult[]> {
  await buildBaseline();
  const dataDir = scratchDataDir();
  await seedMosques(dataDir, MOSQUES, { withPlaces: true });
  const server = await startRealServer(dataDir);
  const browser = await launchBrowser();
  try {
    const token = await signIn(server.baseUrl);
    const product: number[] = [];
    const baseline: number[] = [];
    // One of each first, not counted: the server's own first reads and Chromium's start.
    await timeToFirstPage(browser, server.baseUrl, token, `${server.baseUrl}/config`, FLEET_READS);
    await timeToFirstPage(browser, server.baseUrl, token, `${server.baseUrl}${BASELINE_PATH}`);
    for (let i = 0; i < RUNS; i += 1) {
      product.push(await timeToFirstPage(browser, server.baseUrl, token, `${server.baseUrl}/config`, FLEET_READS));
      baseline.push(await timeToFirstPage(browser, server.baseUrl, token, `${server.baseUrl}${BASELINE_PATH}`));
    }
    const figure = round(median(product), 0);
    return [
      withRatio({
        name: `Config Generator: first page of ${MOSQUES.toLocaleString('en')} mosques visible after navigation (median of ${RUNS}, cold context)`,
        figure,
        unit: 'ms',
        baseline: round(median(baseline), 0),
        baselineLabel: 'bare React + MUI table of the same page from the same server',
        budget: 'under 1000 ms',
        withinBudget: figure < 1000,
        budgetRow: 'config-first-page',
      }),
    ];
  } finally {
    await browser.close();
    await server.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  console.table(await run());
}
