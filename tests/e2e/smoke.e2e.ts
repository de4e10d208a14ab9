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
});
