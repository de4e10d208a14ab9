import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  disposeFixture,
  expectRefused,
  expectStillServing,
  hostileFixture,
  snapshot,
  type HostileFixture,
} from './hostile-support';

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
 * Sends a JSON body of `size` bytes in 64 KiB writes (chunked, or with its Content-Length) as most
 * clients do: reading the answer only once everything is sent. Answers the status line it then
 * reads, or the socket error that took it.
 */
function sendThenRead(port: number, size: number, chunked: boolean): Promise<string> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    let answer = '';
    let failure = '';
    socket.pause();
    socket.on('data', (chunk) => (answer += chunk.toString()));
    socket.on('error', (error: NodeJS.ErrnoException) => {
      failure = error.code ?? error.message;
      socket.resume();
    });
    socket.on('close', () => resolve(answer ? answer.slice(0, answer.indexOf('\r\n')) : `no answer: ${failure}`));
    const framing = chunked ? 'Transfer-Encoding: chunked' : `Content-Length: ${size}`;
    socket.write(`POST /api/auth/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n${framing}\r\n\r\n`);
    const piece = Buffer.alloc(64 * 1024, 'a');
    const framed = chunked
      ? Buffer.concat([Buffer.from(`${piece.length.toString(16)}\r\n`), piece, Buffer.from('\r\n')])
      : piece;
    let sent = 0;
    const pump = () => {
      while (sent < size && !socket.destroyed) {
        sent += piece.length;
        if (!socket.write(framed)) return void socket.once('drain', pump);
      }
      // Connection: close is asked by ending the writing side; the answer is read after.
      if (!socket.destroyed) socket.end(chunked ? '0\r\n\r\n' : '', () => socket.resume());
    };
    pump();
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

  it('answers 100 tries of a 2 MB body with 100 413s, sent in pieces and read after', async () => {
    const answers = [];
    for (let i = 0; i < 100; i++) answers.push(await sendThenRead(port, 2 * 1024 * 1024, false));
    expect(new Set(answers)).toEqual(new Set(['HTTP/1.1 413 Payload Too Large']));
  });

  it('answers a chunked body 32 times over the limit with 413, not a reset', async () => {
    for (let i = 0; i < 3; i++)
      expect(await sendThenRead(port, 32 * 1024 * 1024, true)).toBe('HTTP/1.1 413 Payload Too Large');
    await expectStillServing(f);
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
