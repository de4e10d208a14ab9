/*
 * The recorder's egress proxy: ffmpeg and yt-dlp reach the stream only through it (ffmpeg's http_proxy,
 * yt-dlp's --proxy), on loopback, so every request they make (a playlist, each segment and key, each
 * redirect they follow, each reconnect) is checked by the egress guard and connected to the address
 * checked. Plain http comes as absolute-form requests, https as CONNECT tunnels (the proxy sees the host
 * and port, not the content). A refused request is answered 403 and reported. Part of the recorder
 * runtime: Node and its siblings only.
 */
import http from 'node:http';
import net from 'node:net';
import type { Duplex } from 'node:stream';
import { EgressRefused, pinnedLookup, type EgressPin } from './egress-guard';

export interface EgressProxy {
  /** `http://127.0.0.1:<port>`, for http_proxy and --proxy. */
  url: string;
  close(): Promise<void>;
}

/** Headers that concern the hop to the proxy, not the request it forwards. */
const HOP_HEADERS = ['proxy-connection', 'proxy-authorization', 'connection', 'keep-alive'];

export async function startEgressProxy(pin: EgressPin, refused: (reason: string) => void): Promise<EgressProxy> {
  const server = http.createServer((request, response) => void forward(request, response));
  server.on(
    'connect',
    (request: http.IncomingMessage, client: Duplex, head: Buffer) => void tunnel(request, client, head),
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };

  /** Checks host:port; answers the refusal itself and returns undefined when refused or unresolvable. */
  async function check(host: string, port: number, fail: (status: number, reason: string) => void) {
    try {
      return { pinned: await pin(host, port) };
    } catch (error) {
      if (error instanceof EgressRefused) {
        refused(error.message);
        fail(403, error.message);
      } else fail(502, `${host}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
      return undefined;
    }
  }

  async function forward(request: http.IncomingMessage, response: http.ServerResponse): Promise<void> {
    const fail = (status: number, reason: string) => {
      response.writeHead(status, { 'content-type': 'text/plain' }).end(`${reason}\n`);
    };
    let target: URL;
    try {
      target = new URL(request.url ?? '');
    } catch {
      return fail(400, 'the egress proxy forwards absolute http URLs only');
    }
    if (target.protocol !== 'http:') return fail(400, 'the egress proxy forwards absolute http URLs only');
    const port = Number(target.port) || 80;
    const checked = await check(target.hostname, port, fail);
    if (!checked) return;
    const headers = { ...request.headers };
    for (const name of HOP_HEADERS) delete headers[name];
    const upstream = http.request(
      {
        host: target.hostname,
        port,
        path: `${target.pathname}${target.search}`,
        method: request.method,
        headers,
        ...(checked.pinned ? { lookup: pinnedLookup(checked.pinned) } : {}),
      },
      (answer) => {
        response.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(response);
      },
    );
    upstream.on('error', (error: NodeJS.ErrnoException) => {
      if (response.headersSent) response.destroy();
      else fail(502, error.code ?? error.message);
    });
    request.pipe(upstream);
  }

  async function tunnel(request: http.IncomingMessage, client: Duplex, head: Buffer): Promise<void> {
    client.on('error', () => undefined); // the client hung up: nothing to answer
    const fail = (status: number, reason: string) => {
      client.end(`HTTP/1.1 ${status} ${http.STATUS_CODES[status]}\r\ncontent-type: text/plain\r\n\r\n${reason}\n`);
    };
    const match = /^(\[[^\]]+\]|[^:]+):(\d{1,5})$/.exec(request.url ?? '');
    if (!match) return fail(400, 'CONNECT needs host:port');
    const host = match[1];
    const port = Number(match[2]);
    const checked = await check(host, port, fail);
    if (!checked) return;
    const upstream = net.connect({ host: checked.pinned?.address ?? host.replace(/^\[|\]$/g, ''), port });
    upstream.once('connect', () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length) upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    upstream.on('error', (error: NodeJS.ErrnoException) => {
      if (upstream.readyState === 'opening') fail(502, error.code ?? error.message);
      else client.destroy();
    });
    client.on('close', () => upstream.destroy());
  }
}
