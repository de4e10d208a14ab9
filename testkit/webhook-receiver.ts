import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Alarm } from '../contract/alarms';
import { pause } from './wait';

/** What the alarm webhook posts (server/modules/alarms/webhook.ts). */
export interface WebhookPost {
  text: string;
  event: 'raised' | 'repeated' | 'resolved';
  alarms: Alarm[];
  alarm?: Alarm;
}

/** One request as the receiver got it. */
export interface WebhookRequest {
  at: number;
  body: string;
  headers: http.IncomingHttpHeaders;
}

export interface WebhookReceiver {
  /** Where it listens, to build a URL with a path of one's own. */
  origin: string;
  /** `origin` + `/hook`: what ALARM_WEBHOOK_URL is set to. */
  url: string;
  requests: WebhookRequest[];
  /** The statuses to answer the next requests with, in order (200 once it is empty). */
  statuses: number[];
  /** The requests received so far, parsed. */
  posts(): WebhookPost[];
  /** Resolves once no request has arrived for `quietMs`, counted from this call at the earliest (or `timeoutMs` passed). */
  quiet(quietMs: number, timeoutMs: number): Promise<void>;
  close(): Promise<void>;
}

/** A real alarm webhook on loopback that keeps what it is sent, to count and read the notifications. */
export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const requests: WebhookRequest[] = [];
  const statuses: number[] = [];
  let lastAt = Date.now();
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      lastAt = Date.now();
      requests.push({ at: lastAt, body: Buffer.concat(chunks).toString('utf8'), headers: request.headers });
      response.writeHead(statuses.shift() ?? 200).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    url: `${origin}/hook`,
    requests,
    statuses,
    posts: () => requests.map((request) => JSON.parse(request.body) as WebhookPost),
    quiet: async (quietMs, timeoutMs) => {
      const since = Date.now();
      const deadline = since + timeoutMs;
      while (Date.now() - Math.max(lastAt, since) < quietMs && Date.now() < deadline) await pause(100);
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
