import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../../server/app';
import { loadConfig } from '../../server/config';
import { precompressFolder } from '../../scripts/precompress';
import { ADMIN } from './helpers/test-app';

/** A console page and script big enough to be worth compressing, precompressed as `npm run build` does. */
const SCRIPT = `export const rows = [${Array.from({ length: 400 }, (_, i) => `"row ${i}"`).join(',')}];\n`;
const PAGE = `<!doctype html><title>console</title>${'<!-- padding -->'.repeat(100)}<script type="module" src="/assets/index-abc123.js"></script>`;

describe('compression', () => {
  let app: App;
  let dataDir: string;
  let token: string;

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'capture-compression-'));
    const consoleDir = path.join(dataDir, 'console');
    fs.mkdirSync(path.join(consoleDir, 'assets'), { recursive: true });
    fs.writeFileSync(path.join(consoleDir, 'index.html'), PAGE);
    fs.writeFileSync(path.join(consoleDir, 'assets', 'index-abc123.js'), SCRIPT);
    fs.writeFileSync(path.join(consoleDir, 'assets', 'tiny-abc123.js'), 'console.log(1)');
    await precompressFolder(consoleDir);
    const config = loadConfig({ NODE_ENV: 'test', DATA_DIR: dataDir, LOG_LEVEL: 'silent', DEMO_STREAM: '0' });
    app = await buildApp({ ...config, consoleDir }, { logger: false, healthCheckIntervalMs: 0 });
    await app.ctx.users.bootstrapSuperuser({ username: ADMIN.username, password: ADMIN.password, dataDir });
    const login = await app.inject({ method: 'POST', url: '/api/auth/login', payload: ADMIN });
    token = login.json<{ access_token: string }>().access_token;
  });
  afterAll(async () => {
    await app?.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('writes brotli and gzip copies at build, and none for files too small to gain', () => {
    const assets = fs.readdirSync(path.join(dataDir, 'console', 'assets')).sort();
    expect(assets).toEqual(['index-abc123.js', 'index-abc123.js.br', 'index-abc123.js.gz', 'tiny-abc123.js']);
  });

  it.each([
    ['br', (body: Buffer) => zlib.brotliDecompressSync(body)],
    ['gzip', (body: Buffer) => zlib.gunzipSync(body)],
  ] as const)('sends a console script compressed with %s when the browser accepts it', async (encoding, decode) => {
    const response = await app.inject({
      method: 'GET',
      url: '/assets/index-abc123.js',
      headers: { 'accept-encoding': encoding },
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-encoding']).toBe(encoding);
    expect(response.headers['content-type']).toMatch(/^text\/javascript|^application\/javascript/);
    expect(response.headers.vary).toMatch(/accept-encoding/i);
    expect(response.rawPayload.length).toBeLessThan(SCRIPT.length / 3);
    expect(decode(response.rawPayload).toString()).toBe(SCRIPT);
  });

  it('prefers brotli, and sends the file as it is to a client that accepts neither', async () => {
    const both = await app.inject({
      method: 'GET',
      url: '/assets/index-abc123.js',
      headers: { 'accept-encoding': 'gzip, deflate, br' },
    });
    expect(both.headers['content-encoding']).toBe('br');
    const plain = await app.inject({
      method: 'GET',
      url: '/assets/index-abc123.js',
      headers: { 'accept-encoding': 'identity' },
    });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers.vary).toMatch(/accept-encoding/i);
    expect(plain.body).toBe(SCRIPT);
  });

  it.each(['/', '/users', '/index.html'])(
    'sends the page at %s compressed and still never cached without revalidation',
    async (url) => {
      const response = await app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'br' } });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-encoding']).toBe('br');
      expect(response.headers['content-type']).toMatch(/^text\/html/);
      expect(response.headers['cache-control']).toBe('no-cache');
      expect(zlib.brotliDecompressSync(response.rawPayload).toString()).toBe(PAGE);
    },
  );

  it('compresses JSON answers of 1 KiB or more, as the client accepts', async () => {
    for (let i = 0; i < 12; i += 1) {
      const created = await app.inject({
        method: 'POST',
        url: '/api/config/mosques',
        headers: { authorization: `Bearer ${token}` },
        payload: { mosque_id: `compress${String(i).padStart(2, '0')}`, name: `Mosque number ${i}`, languages: ['en'] },
      });
      expect(created.statusCode, created.body).toBe(201);
    }
    const plain = await app.inject({
      method: 'GET',
      url: '/api/config/mosques',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.rawPayload.length).toBeGreaterThan(1024);

    const br = await app.inject({
      method: 'GET',
      url: '/api/config/mosques',
      headers: { authorization: `Bearer ${token}`, 'accept-encoding': 'br' },
    });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    expect(br.rawPayload.length).toBeLessThan(plain.rawPayload.length / 2);
    expect(JSON.parse(zlib.brotliDecompressSync(br.rawPayload).toString())).toEqual(plain.json());

    const gzip = await app.inject({
      method: 'GET',
      url: '/api/config/mosques',
      headers: { authorization: `Bearer ${token}`, 'accept-encoding': 'gzip' },
    });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(zlib.gunzipSync(gzip.rawPayload).toString())).toEqual(plain.json());
  });

  it('sends small answers as they are', async () => {
    const response = await app.inject({
      method: 'GET',
      url: '/api/auth/verify-token',
      headers: { 'accept-encoding': 'br, gzip' },
    });
    expect(response.statusCode).toBe(401);
    expect(response.headers['content-encoding']).toBeUndefined();
    expect(response.json()).toMatchObject({ success: false });
  });

  it('reads request bodies only as sent: a compressed body is refused with 415, not inflated', async () => {
    const response = await app.inject({
      method: 'POST',
      url: '/api/auth/login',
      headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
      payload: zlib.gzipSync(JSON.stringify(ADMIN)),
    });
    expect(response.statusCode).toBe(415);
    expect(response.json()).toMatchObject({ success: false, detail: expect.stringMatching(/may not be compressed/) });
  });
});
