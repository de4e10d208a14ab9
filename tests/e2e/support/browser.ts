import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import type { LoginRequest, LoginResponse } from '../../../contract/auth';
import { TOKEN_KEY } from '../../../src/api/token';
import { apiRequest } from '../../../testkit/server-cluster';
import { scaled } from '../../../testkit/time-scale';
import { waitFor } from '../../../testkit/wait';
import { E2E_ADMIN } from './server';

/** Chromium from the system (Debian's `chromium` package): nothing is downloaded. */
export function findChromium(): string {
  const names = ['chromium', 'chromium-browser', 'google-chrome'];
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    for (const name of names) {
      const candidate = path.join(dir, name);
      if (fs.existsSync(candidate)) return candidate;
    }
  }
  throw new Error('No chromium on PATH: apt-get install chromium');
}

/**
 * The features playwright-core 1.65 disables itself (its `chromiumSwitches`). Chromium keeps only the last
 * `--disable-features` it is given, so ours must name them again (tests/e2e/smoke.e2e.ts checks none is lost).
 */
const PLAYWRIGHT_DISABLED_FEATURES = [
  'AvoidUnnecessaryBeforeUnloadCheckSync',
  'DestroyProfileOnBrowserClose',
  'HttpsUpgrades',
  'HttpsFirstBalancedModeAutoEnable',
  'LensOverlay',
  'MediaRouter',
  'PaintHolding',
  'ThirdPartyStoragePartitioning',
  'AvoidCorsURLLoaderRestartOnRedirect',
  'TcpPortRandomizationWin',
  'OptimizationHints',
  'NetworkTimeServiceQuerying',
  'AimEnabled',
  'PreconnectToSearch',
  'msForceBrowserSignIn',
  'msEdgeUpdateLaunchServicesPreferredVersion',
];

/**
 * What the journeys never use and Chromium would spend CPU on (measured in docs/testing.md):
 * - WebUIOmniboxPopup, WebUIOmniboxAimPopup: every context's window preloads the address bar's two popups
 *   (chrome://omnibox-popup.top-chrome/ and its omnibox_popup_aim.html), WebUI renderers of about 0.75 s
 *   of CPU each, though a headless page has no address bar to open them.
 * - SpareRendererForSitePerProcess: a renderer started ahead of the next navigation, most of them never used.
 */
const JOURNEY_DISABLED_FEATURES = ['WebUIOmniboxPopup', 'WebUIOmniboxAimPopup', 'SpareRendererForSitePerProcess'];

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: findChromium(),
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      `--disable-features=${[...PLAYWRIGHT_DISABLED_FEATURES, ...JOURNEY_DISABLED_FEATURES].join(',')}`,
      // Site isolation is a defence against hostile sites, and the journeys open only the console: without
      // it (and without the spare renderer), mosque-fleet's pages ran in 13 renderer processes instead of 22.
      '--disable-site-isolation-trials',
    ],
  });
}

export const SCREENSHOT_DIR = path.resolve(import.meta.dirname, '../screenshots');
export const SCREEN_SIZES = [
  { width: 1440, height: 900 },
  { width: 820, height: 1180 },
] as const;

/** Waits for lazy chunks, data and fonts to arrive, and for layout to follow a resize. */
export async function settle(page: Page): Promise<void> {
  await page.waitForLoadState('networkidle', { timeout: scaled(5000) }).catch(() => undefined);
  await page.evaluate(() =>
    document.fonts.ready.then(() => new Promise((resolve) => requestAnimationFrame(() => resolve(null)))),
  );
}

/**
 * Writes tests/e2e/screenshots/<name>-<width>.png at each screen size, then restores the page's size. A
 * test run once per screen size passes its own (`[size]`): each run then writes its width only, instead
 * of both widths twice over, the second pair overwriting the first.
 */
export async function screenshot(
  page: Page,
  name: string,
  sizes: readonly { width: number; height: number }[] = SCREEN_SIZES,
): Promise<string[]> {
  fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const original = page.viewportSize();
  await settle(page);
  const files: string[] = [];
  for (const size of sizes) {
    await page.setViewportSize(size);
    await settle(page);
    const file = path.join(SCREENSHOT_DIR, `${name}-${size.width}.png`);
    await page.screenshot({ path: file, fullPage: true });
    files.push(file);
  }
  if (original) await page.setViewportSize(original);
  return files;
}

/** A screenshot of the page without its notifications, which cover the page header. */
export async function screenshotWithoutNotifications(page: Page, name: string): Promise<string[]> {
  await closeNotifications(page);
  return screenshot(page, name);
}

/** A screenshot once every open dialog has faded in. */
export async function screenshotOnceDialogsShown(page: Page, name: string): Promise<string[]> {
  await page.waitForFunction(() =>
    [...document.querySelectorAll('.MuiDialog-container')].every((el) => getComputedStyle(el).opacity === '1'),
  );
  return screenshot(page, name);
}

/** Closes the top-right notifications, so that screenshots show the page header they cover. */
export async function closeNotifications(page: Page): Promise<void> {
  const close = page.locator('.MuiAlert-filled').getByRole('button', { name: 'Close' });
  for (let open = await close.count(); open > 0; open = await close.count()) {
    // One may close by itself (its time is up) between the count and the click: the click then waits
    // for a notification that never comes. Fewer open by then is the same outcome.
    await close
      .first()
      .click({ timeout: scaled(5000) })
      .catch(async (error: unknown) => {
        if ((await close.count()) >= open) throw error;
      });
    // It slides away before it is gone: the next one is closed once it has.
    await waitFor(async () => (await close.count()) < open, 'the notification to close', 5000, 50);
  }
}

/** A session token from the server's own sign-in (`POST /api/auth/login`), the call the Login page makes. */
export async function apiToken(baseUrl: string, user: LoginRequest = E2E_ADMIN): Promise<string> {
  const response = await apiRequest<LoginResponse>(baseUrl, 'POST', '/api/auth/login', { body: user });
  if (response.status !== 200)
    throw new Error(`Sign-in as ${user.username} refused: ${response.status} ${response.text}`);
  return response.body.access_token;
}

/**
 * Signs the tab in for its next load of the console, without the Login page: for a journey whose subject is
 * not signing in, which then opens its own page at once (one page load, where signIn costs the Login page
 * and the Dashboard before it). The token goes where the console keeps it (src/api/token.ts) before the
 * console's code runs, on that one load only: a test that signs out and reloads stays signed out.
 */
export async function signInOnNextLoad(page: Page, baseUrl: string, user: LoginRequest = E2E_ADMIN): Promise<void> {
  const token = await apiToken(baseUrl, user);
  await page.addInitScript(
    ({ origin, key, token, done }) => {
      if (location.origin !== origin || sessionStorage.getItem(done) !== null) return;
      sessionStorage.setItem(done, 'yes');
      localStorage.setItem(key, token);
    },
    { origin: new URL(baseUrl).origin, key: TOKEN_KEY, token, done: `e2e-signed-in-${crypto.randomUUID()}` },
  );
}

/** Signs in through the Login page and waits until the console has left /login. */
export async function signIn(page: Page, baseUrl: string, username: string, password: string): Promise<void> {
  await page.goto(`${baseUrl}/login`);
  // Required fields may carry an asterisk in their label ("Username *").
  await page.getByLabel(/^Username\s*\*?$/).fill(username);
  await page.getByLabel(/^Password\s*\*?$/).fill(password);
  await page.getByRole('button', { name: 'Login', exact: true }).click();
  await page.waitForURL((url) => !url.pathname.startsWith('/login'));
  await settle(page);
}
