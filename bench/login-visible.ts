/**
 * Sign-in form visible, in Chromium: the time from navigation to /login of the built server (as
 * production serves it) until its form (the password field and the submit button) is laid out on
 * screen, against a bare React + MUI page of the same form (bench/baseline-login) built and
 * precompressed the same way and served over HTTP by the same console plugin from a bare Fastify,
 * with the same security headers. Without them the bare page was shown about 20 ms sooner: its
 * Cross-Origin-Opener-Policy makes Chromium commit the navigation in a new browsing context group
 * (the fetch of the page's script started 49 ms after navigation with the header, 31 ms without).
 * Each run is a fresh browser context (cold cache, no session); the two alternate, and the median of
 * RUNS each is reported.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import Fastify from 'fastify';
import type { Browser } from 'playwright-core';
import { build } from 'vite';
import { precompress } from '../scripts/precompress';
import { registerConsole } from '../server/plugins/console';
import { registerSecurityHeaders } from '../server/plugins/security-headers';
import { launchBrowser } from '../tests/e2e/support/browser';
import { freePort } from '../testkit/ports';
import { median, round, withRatio, type BenchResult } from './lib';
import { scratchDataDir, startRealServer } from './servers';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const baselineOut = path.join(root, 'bench/.work/login');
const RUNS = 8;

/** The bare page, built and precompressed as `npm run build` does the console, served on its own port. */
async function serveBaseline(): Promise<{ url: string; close(): Promise<void> }> {
  await build({
    root: path.join(root, 'bench/baseline-login'),
    configFile: false,
    logLevel: 'error',
    plugins: [react(), precompress()],
    build: { outDir: baselineOut, emptyOutDir: true },
  });
  const app = Fastify({ logger: false });
  registerSecurityHeaders(app);
  await registerConsole(app, baselineOut);
  const port = await freePort();
  await app.listen({ host: '127.0.0.1', port });
  return { url: `http://127.0.0.1:${port}/`, close: () => app.close() };
}

/** Milliseconds from navigation until the sign-in form is laid out, in a fresh context. */
async function formVisible(browser: Browser, url: string): Promise<number> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  try {
    const page = await context.newPage();
    await page.goto(url, { waitUntil: 'commit' });
    const shown = await page.waitForFunction(
      // No named helper inside: the page runs this function's text, without the loader's helpers.
      () =>
        [document.querySelector('input[type="password"]'), document.querySelector('form button[type="submit"]')].every(
          (element) => element !== null && element.getBoundingClientRect().height > 0,
        ) && performance.now(),
      undefined,
      { polling: 'raf', timeout: 60_000 },
    );
    return Number(await shown.jsonValue());
  } finally {
    await context.close();
  }
}

export async function run(): Promise<BenchResult[]> {
  const baseline = await serveBaseline();
  const dataDir = scratchDataDir();
  const server = await startRealServer(dataDir);
  const browser = await launchBrowser();
  try {
    const product: number[] = [];
    const bare: number[] = [];
    // One of each first, not counted: the servers' first reads and Chromium's start.
    await formVisible(browser, `${server.baseUrl}/login`);
    await formVisible(browser, baseline.url);
    for (let i = 0; i < RUNS; i += 1) {
      product.push(await formVisible(browser, `${server.baseUrl}/login`));
      bare.push(await formVisible(browser, baseline.url));
    }
    const figure = round(median(product), 0);
    const floor = round(median(bare), 0);
    return [
      withRatio({
        name: `Console: sign-in form visible after navigation to /login (median of ${RUNS}, cold context)`,
        figure,
        unit: 'ms',
        baseline: floor,
        baselineLabel: 'bare React + MUI page of the same form, built and served the same way',
        budget: 'at most 1.2x the baseline',
        withinBudget: figure <= floor * 1.2,
        budgetRow: 'login-visible',
      }),
    ];
  } finally {
    await browser.close();
    await server.stop();
    await baseline.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  console.table(await run());
}
