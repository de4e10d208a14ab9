import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorBodySchema } from '../../../contract/common';
import { createTestApp, type TestApp } from '../helpers/test-app';

/**
 * A request that never finishes arriving (a body shorter than its Content-Length, headers that trickle)
 * is answered 408 in the API's error shape within REQUEST_TIMEOUT_SECONDS, and its socket closed: it
 * was held open for good. Authenticated API answers are never stored by a cache.
 */
describe('hostile input: slow requests and caching', () => {
  let t: TestApp;
  let port: number;

  beforeAll(async () => {
    t = await createTestApp({ env: { REQUEST_TIMEOUT_SECONDS: '1' }, build: { healthCheckIntervalMs: 0 } });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    port = (t.app.server.address() as net.AddressInfo).port;
  });
  afterAll(() => t.close());

  /** Writes `head` and then nothing; resolves with what the server answered and when the socket closed. */
  const stall = (head: string) =>
    new Promise<{ answer: string; closedAfterMs: number }>((resolve, reject) => {
      const started = performance.now();
      const socket = net.connect(port, '127.0.0.1', () => socket.write(head));
      let answer = '';
      socket.on('data', (chunk: Buffer) => (answer += chunk.toString()));
      socket.on('error', reject);
      socket.on('close', () => resolve({ answer, closedAfterMs: performance.now() - started }));
    });

  it.each([
    [
      'a body shorter than its Content-Length',
      'POST /api/auth/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"user',
    ],
    ['headers that never end', 'GET /api/monitoring/health HTTP/1.1\r\nHost: x\r\nX-Slow: 1\r\n'],
  ])('answers %s with 408 in the error shape within the configured time', async (_name, head) => {
    const { answer, closedAfterMs } = await stall(head);
    expect(answer).toMatch(/^HTTP\/1\.1 408 Request Timeout\r\n/);
    expect(errorBodySchema.parse(JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4)))).toMatchObject({
      detail: 'The request took too long to arrive',
    });
    // 1 s allowed, checked every 250 ms: well within 3 s.
    expect(closedAfterMs).toBeGreaterThan(900);
    expect(closedAfterMs).toBeLessThan(3000);
  });

  it('a request that arrives in time is answered as usual', async () => {
    const response = await fetch(`http://127.0.0.1:${port}/api/monitoring/health`);
    expect(response.status).toBeLessThan(500);
  });

  it('marks API answers no-store: a sign-in, an authenticated read, an error', async () => {
    const login = await t.request({
      method: 'POST',
      url: '/api/auth/login',
      payload: { username: 'admin', password: 'Admin-pass-1' },
    });
    expect(login.headers['cache-control']).toBe('no-store');
    const token = login.json().access_token as string;
    for (const url of [
      '/api/auth/users',
      '/api/auth/verify-token',
      '/api/config/mosques',
      '/api/recordings/nothing-here',
    ]) {
      const response = await t.request({ method: 'GET', url, token });
      expect(response.headers['cache-control'], url).toBe('no-store');
    }
    // The console's shell keeps its own policy.
    expect((await t.request({ method: 'GET', url: '/' })).headers['cache-control']).not.toBe('no-store');
  });
});
