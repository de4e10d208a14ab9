import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface WebhookPost {
  at: number;
  body: string;
}

export interface WebhookReceiver {
  url: string;
  posts: WebhookPost[];
  /** Resolves once no post has arrived for `quietMs`, counted from this call at the earliest (or `timeoutMs` passed). */
  quiet(quietMs: number, timeoutMs: number): Promise<void>;
  close(): Promise<void>;
}

/** An alarm webhook on 127.0.0.1 that answers 200 and keeps what it is sent, to count notifications. */
export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const posts: WebhookPost[] = [];
  let lastAt = Date.now();
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      lastAt = Date.now();
      posts.push({ at: lastAt, body: Buffer.concat(chunks).toString('utf8') });
      response.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    posts,
    quiet: async (quietMs, timeoutMs) => {
      const since = Date.now();
      const deadline = since + timeoutMs;
      while (Date.now() - Math.max(lastAt, since) < quietMs && Date.now() < deadline)
        await new Promise((resolve) => setTimeout(resolve, 100));
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
