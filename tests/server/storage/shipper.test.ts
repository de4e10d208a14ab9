import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RecorderDelivery } from '../../../recorder/protocol';
import { StoreShipper } from '../../../recorder/recorder-delivery';
import { waitFor } from '../../../testkit/wait';
import { scaled } from '../../../testkit/time-scale';

/** A POST endpoint that refuses the first `failures` uploads the way S3 does, then keeps what it is sent. */
function postEndpoint(failures: number) {
  const received: string[] = [];
  let refused = 0;
  const server = http.createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString('latin1')));
    request.on('end', () => {
      if (refused < failures) {
        refused++;
        response
          .writeHead(503, { 'content-type': 'application/xml' })
          .end('<Error><Code>SlowDown</Code><Message>Please reduce your request rate.</Message></Error>');
        return;
      }
      received.push(/name="key"\r\n\r\n([^\r]+)/.exec(body)?.[1] ?? '');
      response.writeHead(204).end();
    });
  });
  return { server, received };
}

describe('shipping pieces to the store', () => {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'shipper-'));
  const endpoint = postEndpoint(2);
  let url = '';
  const delivery = (expiresInMs: number, to = url): RecorderDelivery => ({
    kind: 'presigned-post',
    post: { url: to, fields: { policy: 'p', 'x-amz-signature': 's' } },
    keyPrefix: 'captures/noor/2026-11-27/rec-1/',
    mediaKey: 'noor/2026-11-27/rec-1/x.mp4',
    expiresAt: new Date(Date.now() + expiresInMs).toISOString(),
  });

  beforeAll(async () => {
    await new Promise<void>((resolve) => endpoint.server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(endpoint.server.address() as AddressInfo).port}/sermons`;
    for (const name of ['run-0001-00000.ts', 'run-0001-00001.ts']) fs.writeFileSync(path.join(work, name), 'media');
  });
  afterAll(async () => {
    await new Promise((resolve) => endpoint.server.close(resolve));
    fs.rmSync(work, { recursive: true, force: true });
  });

  it(
    'retries a refused upload, says why in the log, and records what landed',
    { timeout: scaled(20_000) },
    async () => {
      const lines: string[] = [];
      const record = path.join(work, 'delivered.txt');
      const shipper = new StoreShipper(
        delivery(60_000),
        (line) => lines.push(line),
        0,
        record,
        '2026-11-27T11:30:00.000Z',
      );
      shipper.closed(path.join(work, 'run-0001-00000.ts'));
      shipper.closed(path.join(work, 'run-0001-00001.ts'));
      expect(shipper.counts('run-0001-00000.ts')).toBe(false);
      await waitFor(() => shipper.report().delivered === 2, 'both pieces delivered', 15_000);
      expect(endpoint.received).toEqual([
        'captures/noor/2026-11-27/rec-1/segments/20261127T113000Z/run-0001-00000.ts',
        'captures/noor/2026-11-27/rec-1/segments/20261127T113000Z/run-0001-00001.ts',
      ]);
      expect(lines).toEqual([
        'could not deliver segments/20261127T113000Z/run-0001-00000.ts to the store: the store answered HTTP 503: SlowDown (Please reduce your request rate.) (attempt 1); trying again in 1 s',
        'could not deliver segments/20261127T113000Z/run-0001-00000.ts to the store: the store answered HTTP 503: SlowDown (Please reduce your request rate.) (attempt 2); trying again in 2 s',
      ]);
      expect(shipper.report()).toEqual({ delivered: 2, pending: 0, lastError: null });
      // A recorder started again knows what already landed: nothing is sent twice.
      const again = new StoreShipper(delivery(60_000), () => undefined, 0, record, '2026-11-27T11:30:00.000Z');
      again.closed(path.join(work, 'run-0001-00000.ts'));
      expect(again.report()).toEqual({ delivered: 2, pending: 0, lastError: null });
      expect(again.counts('run-0001-00001.ts')).toBe(true);
    },
  );

  it('gives up when the permission has expired and reports the piece as not delivered', async () => {
    const lines: string[] = [];
    const shipper = new StoreShipper(
      delivery(500, 'http://127.0.0.1:1/nowhere'),
      (line) => lines.push(line),
      0,
      path.join(work, 'none.txt'),
      '2026-11-27T11:30:00.000Z',
    );
    shipper.closed(path.join(work, 'run-0001-00000.ts'));
    expect(await shipper.drain(Date.now() + 5000)).toBe(1);
    expect(shipper.report()).toMatchObject({
      delivered: 0,
      pending: 1,
      lastError: expect.stringContaining('could not deliver segments/20261127T113000Z/run-0001-00000.ts to the store'),
    });
    expect(lines.at(-1)).toMatch(/giving up at attempt 1$/);
  });
});
