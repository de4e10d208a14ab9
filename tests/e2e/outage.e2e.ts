import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { apiToken, launchBrowser, screenshot, signInOnNextLoad, startServer, type RunningServer } from './support';
import { scaled } from '../../testkit/time-scale';

/*
 * The console while its server goes away and comes back: the same port and data directory, so the open
 * tab talks to the restarted server as it would after a crash or an upgrade.
 */
describe('a server outage does not strand the console', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'capture-e2e-outage-'));
  let server: RunningServer | undefined;
  let port = 0;
  let browser: Browser;
  let page: Page;

  const nav = () => page.getByRole('navigation', { name: 'Main navigation' });
  const liveChip = () => page.getByRole('banner').getByText('Live', { exact: true });
  const offlineChip = () => page.getByRole('banner').getByText('Offline', { exact: true });

  async function start() {
    server = await startServer({ dataDir, port: port || undefined });
    port = Number(new URL(server.baseUrl).port);
    return server;
  }

  async function addMosque(name: string) {
    const base = server?.baseUrl ?? '';
    const token = await apiToken(base);
    const created = await fetch(`${base}/api/config/mosques`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ name, languages: ['en'], ID_token: 'http://127.0.0.1:9/live.m3u8' }),
    });
    expect(created.status).toBe(201);
  }

  beforeAll(async () => {
    await start();
    browser = await launchBrowser();
  });
  afterEach(async () => {
    await page?.context().close();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('keeps the shell through three pages while the server is down, then recovers by itself without a reload', async () => {
    page = await (await browser.newContext({ viewport: { width: 1440, height: 900 } })).newPage();
    await signInOnNextLoad(page, server?.baseUrl ?? '');
    await page.goto(`${server?.baseUrl ?? ''}/profile`);
    await liveChip().waitFor();
    // Anything kept in the page survives only if it is never reloaded.
    await page.evaluate(() => Object.assign(window, { sameDocument: true }));

    await server?.stop();
    await offlineChip().waitFor();
    expect(await page.getByText('System status: Operational').count()).toBe(0);
    for (const label of ['Instances', 'AMI Manager', 'Config Generator']) {
      await nav().getByRole('link', { name: label }).click();
      await page.getByText('Cannot reach the server').waitFor({ timeout: scaled(15_000) });
      expect(await nav().isVisible()).toBe(true);
    }
    await screenshot(page, 'outage-unreachable');

    await start();
    await addMosque('Mosque Added During Recovery');
    await page.getByRole('heading', { name: 'Config Generator', level: 1 }).waitFor({ timeout: scaled(20_000) });
    await page
      .getByRole('row')
      .filter({ hasText: 'Mosque Added During Recovery' })
      .waitFor({ timeout: scaled(20_000) });
    // The socket keeps its own back-off (waits up to 30 s, docs/reference.md section 7): HTTP answering does not hurry it.
    await liveChip().waitFor({ timeout: scaled(45_000) });
    await nav().getByRole('link', { name: 'Instances' }).click();
    await page.getByRole('heading', { name: 'Instances', level: 1 }).waitFor();
    expect(await page.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument)).toBe(true);
  });

  it('offers Reconnect once the attempts run out, and Reconnect brings the live feed back', async () => {
    page = await (await browser.newContext({ viewport: { width: 1440, height: 900 } })).newPage();
    // A controllable clock: the back-off's three minutes pass in seconds, the sockets stay real.
    await page.clock.install();
    await signInOnNextLoad(page, server?.baseUrl ?? '');
    await page.goto(`${server?.baseUrl ?? ''}/profile`);
    await liveChip().waitFor();

    await server?.stop();
    await offlineChip().waitFor();
    const reconnect = page.getByRole('banner').getByRole('button', { name: 'Reconnect' });
    for (let attempt = 0; attempt < 12 && (await reconnect.count()) === 0; attempt += 1) {
      await page.clock.fastForward(31_000);
      // The page answers the moved clock at its own pace: on to the next step once the button is there, or after a while.
      await reconnect.waitFor({ timeout: 500 }).catch(() => undefined);
    }
    await reconnect.waitFor({ timeout: scaled(5000) });
    await screenshot(page, 'outage-reconnect');

    // Hold the page's timers: nothing but the operator's click may reconnect now.
    await page.clock.pauseAt((await page.evaluate(() => Date.now())) + 1000);
    await start();
    expect(await offlineChip().isVisible()).toBe(true);
    await reconnect.click();
    await liveChip().waitFor({ timeout: scaled(15_000) });
    expect(await reconnect.count()).toBe(0);
    expect(await page.getByText('System status: Operational').count()).toBe(1);
  });
});
