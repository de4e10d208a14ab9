import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../../../server/app';
import { loadConfig } from '../../../server/config';
import { ADMIN } from '../helpers/test-app';
import { expectRefused } from './hostile-support';

// PostgreSQL pass: skipped: answers made before any route or table is reached

/** A compressed body, and a missing console script asked by a stale tab: each gets its own honest status. */
describe('hostile input: HTTP edges of the body and the console', () => {
  let app: App;
  let dataDir: string;
  let token: string;

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'capture-edges-'));
    const consoleDir = path.join(dataDir, 'console');
    fs.mkdirSync(path.join(consoleDir, 'assets'), { recursive: true });
    fs.writeFileSync(path.join(consoleDir, 'index.html'), '<!doctype html><title>console</title>');
    fs.writeFileSync(path.join(consoleDir, 'assets', 'index-abc123.js'), 'console.log(1)');
    const config = loadConfig({ NODE_ENV: 'test', DATA_DIR: dataDir, LOG_LEVEL: 'silent', DEMO_STREAM: '0' });
    app = await buildApp({ ...config, consoleDir }, { logger: false, healthCheckIntervalMs: 0 });
    await app.ctx.users.bootstrapSuperuser({ username: ADMIN.username, password: ADMIN.password, dataDir });
    token = (await app.inject({ method: 'POST', url: '/api/auth/login', payload: ADMIN })).json<{
      access_token: string;
    }>().access_token;
  });
  afterAll(async () => {
    await app?.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it.each(['gzip', 'deflate', 'br', 'GZIP '])('answers a body with Content-Encoding: %s with 415', async (encoding) => {
    const response = await app.inject({
      method: 'POST',
      url: '/api/config/mosques',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'content-encoding': encoding },
      payload: zlib.gzipSync(JSON.stringify({ name: 'Zipped', languages: ['ar'] })),
    });
    expectRefused(
      response,
      415,
      /^Request bodies may not be compressed \(Content-Encoding: \w+\): send it uncompressed$/,
    );
  });

  it('still takes a body with Content-Encoding: identity', async () => {
    const response = await app.inject({
      method: 'POST',
      url: '/api/config/mosques',
      headers: { authorization: `Bearer ${token}`, 'content-encoding': 'identity' },
      payload: { name: 'Plain', languages: ['ar'] },
    });
    expect(response.statusCode, response.body).toBe(201);
  });

  // With a console, its catch-all route took these: 404 "No such endpoint", or 403 "Forbidden" from the file system.
  it.each([
    ['a 150-character path parameter', `/api/instances/${'a'.repeat(150)}`],
    ['a 500-character mosque id', `/api/config/mosques/${'m'.repeat(500)}`],
    ['a 4,080-character path', `/api/instances/${'a'.repeat(4_080)}`],
    ['a 16,000-character path', `/${'a'.repeat(16_000)}`],
    ['16,000 characters of short segments', `/api/${'a/'.repeat(8_000)}`],
    ['a long console page', `/mosques/${'a'.repeat(3_000)}`],
    ['a long asset name', `/assets/${'a'.repeat(300)}.js`],
  ])('answers %s with 414 in the API shape', async (_case, url) => {
    const response = await app.inject({ url, headers: { authorization: `Bearer ${token}` } });
    expectRefused(response, 414, 'The URL is too long');
  });

  it('measures a parameter decoded: 60 Arabic letters (360 characters encoded) are not too long', async () => {
    const response = await app.inject({ url: `/mosques/${encodeURIComponent('م'.repeat(60))}` });
    expect(response.statusCode).toBe(200);
  });

  it('answers a missing console asset with 404, and the page for any other path', async () => {
    expect((await app.inject({ url: '/assets/index-abc123.js' })).statusCode).toBe(200);
    for (const url of ['/assets/missing.js', '/assets/old-release-0a1b2c.css', '/assets/deep/x.js?v=1']) {
      const response = await app.inject({ url });
      expectRefused(response, 404, /^No such file: \/assets\//);
    }
    const page = await app.inject({ url: '/mosques/some-page' });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('<title>console</title>');
  });
});
