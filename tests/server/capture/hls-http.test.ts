import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEgressPin } from '../../../recorder/egress-guard';
import { getBytes as guardedGetBytes, PLAYLIST_MAX_BYTES, SEGMENT_MAX_BYTES } from '../../../recorder/hls-http';
import { freePort } from '../../../testkit/ports';

// The test server is on loopback: nothing is refused here (tests/server/security/hostile-egress.test.ts covers the guard).
const anywhere = createEgressPin({ allowPrivate: true, trustedHosts: [] });
const getBytes = (url: string, timeoutMs: number, maxBytes = PLAYLIST_MAX_BYTES) =>
  guardedGetBytes(url, timeoutMs, anywhere, maxBytes);
const MIB = 1024 * 1024;

describe("the HLS reader's HTTP client", () => {
  let server: http.Server;
  let base: string;
  /** Bytes the endless answers managed to send before the client hung up. */
  let endlessSent = 0;
  beforeAll(async () => {
    server = http.createServer((request, response) => {
      if (request.url === '/huge-declared.m3u8')
        return void response.writeHead(200, { 'content-length': String(3 * MIB) }).end('#EXTM3U\n');
      if (request.url === '/endless.ts') return void sendEndlessly(response);
      if (request.url === '/moved') return void response.writeHead(302, { location: '/elsewhere/index.m3u8' }).end();
      if (request.url === '/elsewhere/index.m3u8')
        return void response
          .writeHead(200, { 'content-type': 'Application/vnd.apple.mpegurl; charset=utf-8' })
          .end('#EXTM3U\n');
      if (request.url === '/loop') return void response.writeHead(302, { location: '/loop' }).end();
      if (request.url === '/held') return; // never answers
      response.writeHead(404).end('not found');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  /** A "segment" that never ends: zeros as fast as the client takes them, counted. */
  function sendEndlessly(response: http.ServerResponse) {
    endlessSent = 0;
    response.writeHead(200, { 'content-type': 'video/mp2t' });
    const chunk = Buffer.alloc(256 * 1024);
    const more = () => {
      while (!response.destroyed) {
        endlessSent += chunk.length;
        if (!response.write(chunk)) break;
      }
      if (!response.destroyed) response.once('drain', more);
    };
    response.on('close', () => response.removeAllListeners('drain'));
    more();
  }

  it('refuses an answer over its cap, by its Content-Length at once or as soon as it passes it', async () => {
    expect(await getBytes(`${base}/huge-declared.m3u8`, 5000)).toEqual({
      error: 'answer over its 2 MiB cap: refused',
      cause: 'stream_refused',
      status: 200,
    });
    expect(await getBytes(`${base}/endless.ts`, 20_000)).toMatchObject({
      error: 'answer over its 2 MiB cap: refused',
      cause: 'stream_refused',
    });
    expect(await getBytes(`${base}/endless.ts`, 60_000, SEGMENT_MAX_BYTES)).toMatchObject({
      error: 'answer over its 64 MiB cap: refused',
      cause: 'stream_refused',
    });
    // The client stopped reading at the cap: what the origin got out is the cap and its socket buffers.
    expect(endlessSent).toBeLessThan(SEGMENT_MAX_BYTES + 16 * MIB);
  });

  it('names a URL of another protocol as such, and a redirect to one as a redirect', async () => {
    expect(await getBytes('tcp://127.0.0.1:9/s1.ts', 5000)).toMatchObject({
      error: 'a URL of tcp: (only http and https)',
    });
  });

  it('follows redirects and says where it ended', async () => {
    const answer = await getBytes(`${base}/moved`, 5000);
    expect(answer).toEqual({
      bytes: new TextEncoder().encode('#EXTM3U\n'),
      url: `${base}/elsewhere/index.m3u8`,
      contentType: 'application/vnd.apple.mpegurl',
    });
    expect(await getBytes(`${base}/loop`, 5000)).toMatchObject({
      error: 'more than 5 redirects',
      cause: 'stream_dropped',
    });
  });

  it('names an HTTP status and a refused connection as a drop, a server that never answers as a stall', async () => {
    expect(await getBytes(`${base}/gone.m3u8`, 5000)).toEqual({
      error: 'HTTP 404',
      cause: 'stream_dropped',
      status: 404,
    });
    expect(await getBytes(`http://127.0.0.1:${await freePort()}/x.m3u8`, 5000)).toEqual({
      error: 'connection refused',
      cause: 'stream_dropped',
      status: null,
    });
    expect(await getBytes(`${base}/held`, 300)).toEqual({
      error: 'no answer within 0 s',
      cause: 'stream_stalled',
      status: null,
    });
  });
});
