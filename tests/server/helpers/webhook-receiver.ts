import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Alarm } from '../../../contract/alarms';

/** What the alarm webhook posts (server/modules/alarms/webhook.ts). */
export interface WebhookPost {
  text: string;
  event: 'raised' | 'repeated' | 'resolved';
  alarms: Alarm[];
  alarm?: Alarm;
}

/** A real webhook receiver on loopback: answers each request with the next status of `statuses` (then 200). */
export function webhookReceiver() {
  const requests: { body: string; headers: http.IncomingHttpHeaders }[] = [];
  const statuses: number[] = [];
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      requests.push({ body: Buffer.concat(chunks).toString('utf8'), headers: request.headers });
      response.writeHead(statuses.shift() ?? 200).end('ok');
    });
  });
  return {
    server,
    requests,
    statuses,
    /** The posts received so far, parsed. */
    posts: () => requests.map((request) => JSON.parse(request.body) as WebhookPost),
    async listen(): Promise<string> {
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    },
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}
