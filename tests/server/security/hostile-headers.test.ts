import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../../../server/app';
import { loadConfig } from '../../../server/config';
import { expectRefused } from './hostile-support';

/**
 * Response headers of every kind of answer (API, console page, static asset, error): a strict
 * Content-Security-Policy and its companions, and a console page that is always revalidated so a
 * release is picked up at once.
 */
describe('hostile input: headers', () => {
  let app: App;
  let dataDir: string;

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'capture-headers-'));
    const consoleDir = path.join(dataDir, 'console');
    fs.mkdirSync(path.join(consoleDir, 'assets'), { recursive: true });
    fs.writeFileSync(path.join(consoleDir, 'index.html'), '<!doctype html><title>console</title>');
    fs.writeFileSync(path.join(consoleDir, 'assets', 'index-abc123.js'), 'console.log(1)');
    app = await buildApp(
      { ...loadConfig({ NODE_ENV: 'test', DATA_DIR: dataDir, LOG_LEVEL: 'silent', DEMO_STREAM: '0' }), consoleDir },
      { logger: false, healthCheckIntervalMs: 0 },
    );
  });
  afterAll(async () => {
    await app.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  const expectSecurityHeaders = (headers: Record<string, unknown>) => {
    const csp = String(headers['content-security-policy']);
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("connect-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    // Media only from here or from blobs this origin's scripts made (a stream test's clip).
    expect(csp).toContain("media-src 'self' blob:");
    expect(csp).toMatch(/default-src 'self'/);
    expect(csp).not.toMatch(/script-src[^;]*unsafe/);
    expect(headers['x-content-type-options']).toBe('nosniff');
    expect(headers['referrer-policy']).toBe('no-referrer');
    expect(headers['x-frame-options']).toBe('DENY');
  };

  it.each(['/', '/login', '/users', '/index.html'])('serves %s with security headers and no-cache', async (url) => {
    const response = await app.inject({ method: 'GET', url });
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('no-cache');
    expectSecurityHeaders(response.headers);
  });

  it('keeps hashed assets cacheable, with the same headers', async () => {
    const response = await app.inject({ method: 'GET', url: '/assets/index-abc123.js' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toMatch(/max-age=3600/);
    expectSecurityHeaders(response.headers);
  });

  it('puts them on API answers and errors too', async () => {
    expectSecurityHeaders((await app.inject({ method: 'GET', url: '/api/health' })).headers);
    const refused = await app.inject({
      method: 'GET',
      url: '/api/instances/',
      headers: { authorization: 'Basic YWRtaW46YWRtaW4=' },
    });
    expectRefused(refused, 401);
    expectSecurityHeaders(refused.headers);
    expectSecurityHeaders((await app.inject({ method: 'GET', url: '/api/nothing-here' })).headers);
  });

  it.each([
    ['a 64 KiB bearer token', { authorization: `Bearer ${'a'.repeat(65_536)}` }],
    ['a token with NUL bytes', { authorization: 'Bearer abc\u0000def' }],
    ['an empty bearer', { authorization: 'Bearer ' }],
    ['two schemes', { authorization: 'Bearer x, Bearer y' }],
  ])('refuses %s with 401 in the API shape', async (_name, headers) => {
    expectRefused(await app.inject({ method: 'GET', url: '/api/instances/', headers }), 401);
  });

  it('refuses a JSON route sent as another content type', async () => {
    const response = await app.inject({
      method: 'POST',
      url: '/api/auth/login',
      headers: { 'content-type': 'text/plain' },
      payload: 'username=admin',
    });
    expectRefused(response, [400, 415]);
  });
});
