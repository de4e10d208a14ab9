import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { extractResponseSchema, MAP_LINK_SCHEME_MESSAGE } from '../../../contract/mosques';
import { MapsLinkResolver } from '../../../server/geo/maps-link';
import { createTestApp, type TestApp } from '../helpers/test-app';
import { expectRefused } from './hostile-support';

/** Where each short link redirects: `/maps/<name>` on goo.gl answers a 302 to HOPS[name]. */
const HOPS: Record<string, string> = {
  evil: 'https://google.evil.example/maps/place/x',
  localhost: 'https://google.localhost/maps/place/x',
  internal: 'http://google.internal/maps/place/x',
  sub: 'https://maps.google.com.evil.example/x',
  deep: 'https://metadata.google.internal/computeMetadata/v1/',
  ip: 'http://169.254.169.254/latest/meta-data/',
  userinfo: 'https://www.google.com@evil.example/x',
  scheme: 'file:///etc/passwd',
  good: 'https://www.google.com/maps/place/Kaaba/@21.4225,39.8262,17z',
};

/**
 * Short map links are followed over the network, so where their redirects may lead is an attack
 * surface: only the exact hosts of the maps and short-link services, never a private address.
 */
describe('hostile input: map-link redirect hosts', () => {
  let server: http.Server;
  const fetched: string[] = [];
  let t: TestApp;
  let token: string;

  beforeAll(async () => {
    server = http.createServer((request, response) => {
      fetched.push(request.url ?? '');
      const name = /^\/maps\/(\w+)$/.exec(request.url ?? '')?.[1];
      const chain = /^chain(\d+)x(\d)$/.exec(name ?? '');
      if (chain && Number(chain[2]) < 4)
        response.writeHead(302, { location: `https://goo.gl/maps/chain${chain[1]}x${Number(chain[2]) + 1}` }).end();
      else if (name && HOPS[name]) response.writeHead(302, { location: HOPS[name] }).end();
      else response.writeHead(200, { 'content-type': 'text/html' }).end('<html>no coordinates here</html>');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    t = await createTestApp({
      env: { MAPS_LINK_RESOLVE_ORIGIN: origin, MAPS_LINK_TIMEOUT_MS: '2000' },
      build: { healthCheckIntervalMs: 0 },
    });
    token = await t.login();
  });
  afterAll(async () => {
    await t.close();
    server.close();
  });

  const extract = async (name: string) => {
    const response = await t.request({
      method: 'POST',
      url: '/api/config/coordinates/extract',
      token,
      payload: { urls: [{ google_maps_url: `https://goo.gl/maps/${name}` }] },
    });
    expect(response.statusCode).toBe(200);
    return extractResponseSchema.parse(response.json()).data.extraction_results[0];
  };

  it.each(Object.keys(HOPS).filter((name) => name !== 'good'))(
    'refuses a redirect to %s without fetching it',
    async (name) => {
      fetched.length = 0;
      const result = await extract(name);
      expect(result.success).toBe(false);
      expect(result.error).toMatch(/led outside the maps service/);
      expect(fetched).toEqual([`/maps/${name}`]);
    },
  );

  it('bounds the requests one extraction call makes, whatever its links', async () => {
    fetched.length = 0;
    const urls = Array.from({ length: 40 }, (_, i) => ({ google_maps_url: `https://goo.gl/maps/chain${i}x0` }));
    const response = await t.request({
      method: 'POST',
      url: '/api/config/coordinates/extract',
      token,
      payload: { urls },
    });
    expect(response.statusCode).toBe(200);
    // 40 links of 5 requests each would be 200 requests.
    expect(fetched.length).toBe(50);
    const results = extractResponseSchema.parse(response.json()).data.extraction_results;
    expect(results.filter((r) => /made 50 requests, its limit/.test(r.error ?? '')).length).toBeGreaterThan(20);
  });

  it.each([
    'javascript:alert(document.cookie)',
    'JavaScript:alert(1)//https://maps.google.com',
    'data:text/html,<script>alert(1)</script>',
    'file:///etc/passwd',
  ])('refuses the map link %s with 400, on a mosque and in an extraction', async (link) => {
    const mosque = await t.request({
      method: 'POST',
      url: '/api/config/mosques',
      token,
      payload: { mosque_id: 'maplinkmsq', name: 'Map Link Mosque', languages: ['ar'], google_maps_url: link },
    });
    expect(expectRefused(mosque, 400)).toContain(`google_maps_url: ${MAP_LINK_SCHEME_MESSAGE}`);
    const extraction = await t.request({
      method: 'POST',
      url: '/api/config/coordinates/extract',
      token,
      payload: { urls: [{ google_maps_url: link }] },
    });
    expect(expectRefused(extraction, 400)).toContain(MAP_LINK_SCHEME_MESSAGE);
  });

  it('still follows a redirect to Google Maps', async () => {
    const result = await extract('good');
    expect(result).toMatchObject({ success: true, latitude: 21.4225, longitude: 39.8262 });
  });
});

describe('map links: hosts are resolved before they are fetched', () => {
  it('refuses a maps host that resolves to a private address, and fetches nothing', async () => {
    const fetches: string[] = [];
    const resolver = new MapsLinkResolver({
      lookup: async (host) => (host === 'maps.app.goo.gl' ? ['10.0.0.5'] : ['142.250.74.46']),
      fetch: async (url) => {
        fetches.push(String(url));
        return new Response(null, { status: 500 });
      },
    });
    await expect(resolver.extract('https://maps.app.goo.gl/abc123')).rejects.toThrow(
      'The map link led to a private address (maps.app.goo.gl)',
    );
    expect(fetches).toEqual([]);
  });
});

describe('map links: one extraction call has a deadline', () => {
  it('stops resolving once the call has used its time', async () => {
    // A shortener slower than the call's remaining time: its answer comes late on purpose.
    const slow = http.createServer((_request, response) => {
      setTimeout(
        () => response.writeHead(302, { location: `https://goo.gl/maps/${Math.random().toString(36).slice(2)}` }).end(),
        300,
      );
    });
    await new Promise<void>((resolve) => slow.listen(0, '127.0.0.1', resolve));
    try {
      const resolver = new MapsLinkResolver({
        resolveOrigin: `http://127.0.0.1:${(slow.address() as AddressInfo).port}`,
        timeoutMs: 5000,
        maxHops: 50,
        callBudget: { timeoutMs: 1000, maxFetches: 50 },
      });
      const budget = resolver.newBudget();
      const started = Date.now();
      await expect(resolver.extract('https://goo.gl/maps/first', budget)).rejects.toThrow(
        /ran out of time \(1 s in all\)/,
      );
      await expect(resolver.extract('https://goo.gl/maps/second', budget)).rejects.toThrow(/ran out of time/);
      expect(Date.now() - started).toBeLessThan(2000);
    } finally {
      slow.closeAllConnections();
      slow.close();
    }
  });
});
