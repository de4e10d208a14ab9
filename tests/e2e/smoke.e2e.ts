import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { launchBrowser, startServer, type RunningServer } from './support';

describe('the built console is served by the real server', () => {
  let server: RunningServer;
  let browser: Browser | undefined;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('serves index.html at / and at a deep link (history fallback)', async () => {
    const home = await fetch(`${server.baseUrl}/`);
    expect(home.status).toBe(200);
    expect(home.headers.get('content-type')).toMatch(/text\/html/);
    const html = await home.text();
    expect(html).toMatch(/<div id="root">/);

    const deep = await fetch(`${server.baseUrl}/users`);
    expect(deep.status).toBe(200);
    expect(deep.headers.get('content-type')).toMatch(/text\/html/);
    expect(await deep.text()).toBe(html);
  });

  it('answers an unknown /api path with 404 JSON', async () => {
    const response = await fetch(`${server.baseUrl}/api/nope`);
    expect(response.status).toBe(404);
    expect(response.headers.get('content-type')).toMatch(/application\/json/);
    expect(await response.json()).toEqual({
      success: false,
      detail: 'No such endpoint: GET /api/nope',
      error: 'No such endpoint: GET /api/nope',
    });
  });

  it('opens in Chromium', async () => {
    browser = await launchBrowser();
    const page = await browser.newPage();
    const response = await page.goto(`${server.baseUrl}/login`);
    expect(response?.status()).toBe(200);
    expect(await page.locator('#root').count()).toBe(1);
  });

  it("runs Chromium with Playwright's disabled features and the journeys' own, without the address bar's popups", async () => {
    browser ??= await launchBrowser();
    const page = await browser.newPage();
    await page.goto('chrome://version');
    // Chromium keeps only the last --disable-features of its command line: every one named there must be in effect.
    const commandLine = (await page.locator('#command_line').textContent()) ?? '';
    const named = [...commandLine.matchAll(/--disable-features=(\S+)/g)].flatMap((match) => match[1].split(','));
    expect(named).toContain('WebUIOmniboxPopup');
    const variations = (await page.locator('#variations-cmd').getAttribute('data-value')) ?? '';
    const inEffect = (JSON.parse(Buffer.from(variations, 'base64').toString()) as Record<string, string>)[
      'disable-features'
    ].split(',');
    expect(named.filter((feature) => !inEffect.includes(feature))).toEqual([]);
    // Each window would otherwise preload the address bar's WebUI popups (chrome://omnibox-popup.top-chrome/).
    const { targetInfos } = await (await browser.newBrowserCDPSession()).send('Target.getTargets');
    expect(targetInfos.filter((target) => target.url.startsWith('chrome://omnibox-popup'))).toEqual([]);
  });
});
