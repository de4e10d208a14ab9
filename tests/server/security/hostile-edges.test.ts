import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { disposeFixture, expectRefused, hostileFixture, snapshot, type HostileFixture } from './hostile-support';

/** Sends raw bytes to the listening server and returns the whole answer. */
function rawRequest(port: number, text: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    let answer = '';
    socket.on('data', (chunk) => (answer += chunk.toString()));
    socket.on('end', () => resolve(answer));
    socket.on('error', reject);
    socket.end(text);
  });
}

/**
 * The edges: what Fastify and Node answer before any route runs, bytes that are not UTF-8, and a
 * filter far larger than any database statement may hold. Each gets the API's error shape (or its
 * normal answer), never a driver's or framework's own text, and no table changes.
 */
describe('hostile input: edges', () => {
  let f: HostileFixture;
  let port: number;

  beforeAll(async () => {
    f = await hostileFixture();
    await f.t.app.listen({ port: 0, host: '127.0.0.1' });
    port = (f.t.app.server.address() as AddressInfo).port;
  });
  afterAll(() => disposeFixture(f));

  it('answers a too long path parameter with 414 in the API shape', async () => {
    expectRefused(
      await f.t.request({ method: 'GET', url: `/api/instances/${'a'.repeat(500)}`, token: f.admin }),
      414,
      'The URL is too long',
    );
  });

  it.each(['/api/config/mosques/%', '/api/instances/%E0%A4%A'])(
    'answers the malformed URL %s with 400 in the API shape',
    async (url) => {
      expectRefused(
        await f.t.request({ method: 'GET', url, token: f.admin }),
        400,
        'The URL is not valid: it has a malformed percent-encoding',
      );
    },
  );

  it('answers oversized headers and a garbled request line in the API shape', async () => {
    const huge = await rawRequest(port, `GET /api/health HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(100_000)}\r\n\r\n`);
    expect(huge).toMatch(/^HTTP\/1\.1 431 Request Header Fields Too Large\r\n/);
    expect(JSON.parse(huge.slice(huge.indexOf('\r\n\r\n') + 4))).toEqual({
      success: false,
      detail: 'The request headers are too large',
      error: 'The request headers are too large',
    });
    const garbled = await rawRequest(port, 'NOT A REQUEST\r\n\r\n');
    expect(garbled).toMatch(/^HTTP\/1\.1 400 /);
    expect(garbled).toContain('"detail":"The request could not be read"');
  });

  it('refuses a JSON body that is not valid UTF-8 with 400, storing nothing', async () => {
    const before = await snapshot(f.t);
    const body = Buffer.concat([
      Buffer.from('{"name":"Masjid '),
      Buffer.from([0xff, 0xfe, 0xc3]),
      Buffer.from('","languages":["ar"]}'),
    ]);
    const response = await f.t.request({
      method: 'POST',
      url: '/api/config/mosques',
      token: f.admin,
      headers: { 'content-type': 'application/json' },
      payload: body,
    });
    expectRefused(response, 400, 'Request body is not valid UTF-8');
    expect(await snapshot(f.t)).toEqual(before);
  });

  it('schedules with a 40,000-id mosqueFilter, reporting the unknown ids', async () => {
    const ids = Array.from({ length: 40_000 }, (_, i) => `nosuch${String(i).padStart(5, '0')}`);
    const response = await f.t.request({
      method: 'POST',
      url: '/api/scheduler/schedule-friday',
      token: f.admin,
      payload: { mosqueFilter: [...ids, 'seedmosque'] },
    });
    expect(response.statusCode, response.body.slice(0, 300)).toBe(200);
    expect(response.json().data.skipped.length).toBeGreaterThanOrEqual(40_000);
  });
});
