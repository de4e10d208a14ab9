import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEgressPin } from '../../../recorder/egress-guard';
import { getBytes as guardedGetBytes } from '../../../recorder/hls-http';
import { freePort } from '../../../testkit/ports';

// The test server is on loopback: nothing is refused here (tests/server/security/hostile-egress.test.ts covers the guard).
const anywhere = createEgressPin({ allowPrivate: true, trustedHosts: [] });
const getBytes = (url: string, timeoutMs: number) => guardedGetBytes(url, timeoutMs, anywhere);

describe("the HLS reader's HTTP client", () => {
  let server: http.Server;
  let base: string;
  beforeAll(async () => {
    server = http.createServer((request, response) => {
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
