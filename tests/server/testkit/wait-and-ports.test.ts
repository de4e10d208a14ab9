import fs from 'node:fs';
import net from 'node:net';
import { describe, expect, it } from 'vitest';
import { freePort } from '../../../testkit/ports';
import { scaled } from '../../../testkit/time-scale';
import { expectQuietFor, StopWaiting, waitFor } from '../../../testkit/wait';

describe('freePort', () => {
  it('gives a port below the ephemeral range that a child can bind, and a different one each time', async () => {
    const [ephemeralLow] = fs
      .readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8')
      .trim()
      .split(/\s+/)
      .map(Number);
    const ports = await Promise.all(Array.from({ length: 5 }, () => freePort()));
    for (const port of ports) expect(port).toBeLessThan(ephemeralLow);
    expect(new Set(ports).size).toBeGreaterThan(1);
    const server = net.createServer();
    await new Promise<void>((resolve, reject) => server.once('error', reject).listen(ports[0], '127.0.0.1', resolve));
    await new Promise((resolve) => server.close(resolve));
  });
});

describe('waitFor', () => {
  it('keeps polling through an ordinary error, and gives up at once on StopWaiting', async () => {
    let calls = 0;
    await expect(
      waitFor(() => (++calls < 3 ? Promise.reject(new Error('not yet')) : 'ready'), 'three calls', 5_000, 1),
    ).resolves.toBe('ready');
    expect(calls).toBe(3);

    calls = 0;
    const stopped = waitFor(
      () => {
        calls++;
        throw new StopWaiting('the process exited');
      },
      'a process that exited',
      60_000,
      1,
    );
    await expect(stopped).rejects.toThrow('the process exited');
    expect(calls).toBe(1);
  });
});

describe('expectQuietFor', () => {
  it('checks all through the window, and fails at the first check that does not hold', async () => {
    let checks = 0;
    await expectQuietFor(100, () => void checks++, 10);
    expect(checks).toBeGreaterThan(2);

    let happened = false;
    setTimeout(() => (happened = true), 50);
    const started = Date.now();
    await expect(expectQuietFor(60_000, () => expect(happened).toBe(false), 10)).rejects.toThrow();
    expect(Date.now() - started).toBeLessThan(scaled(30_000));
  });
});
