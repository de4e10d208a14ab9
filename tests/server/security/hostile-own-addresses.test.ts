import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import ipaddr from 'ipaddr.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEgressPin, internalReason, type EgressPolicy } from '../../../recorder/egress-guard';
import { startEgressProxy } from '../../../recorder/egress-proxy';
import { getBytes, PLAYLIST_MAX_BYTES } from '../../../recorder/hls-http';
import { machineAddresses } from '../../../recorder/machine-addresses';
import { SPECIAL_V4, SPECIAL_V6 } from '../../../recorder/special-addresses';
import { MemoryCaptureProvider } from '../../../testkit/memory-capture-provider';
import { createTestApp, type TestApp } from '../helpers/test-app';
import { expectRefused } from './hostile-support';

// PostgreSQL pass: skipped: address lists and loopback listeners, the database only stores a refused launch's absence

/** ipaddr.js's special ranges as [name, prefix, bits], the way recorder/special-addresses.ts writes them. */
function rangesOfIpaddr(kind: 'ipv4' | 'ipv6'): string[] {
  // SpecialRanges is on the prototype, not in ipaddr.js's type declarations.
  const ranges = (
    (kind === 'ipv4' ? ipaddr.IPv4 : ipaddr.IPv6).prototype as unknown as {
      SpecialRanges: Record<string, [ipaddr.IPv4, number] | [ipaddr.IPv4, number][]>;
    }
  ).SpecialRanges;
  return Object.entries(ranges).flatMap(([name, value]) => {
    const list = Array.isArray(value[0]) ? (value as [ipaddr.IPv4, number][]) : [value as [ipaddr.IPv4, number]];
    return list.map(([address, bits]) => `${name} ${address.toNormalizedString()}/${bits}`);
  });
}
const ours = (ranges: typeof SPECIAL_V4) =>
  ranges.map(([name, prefix, bits]) => `${name} ${ipaddr.parse(prefix).toNormalizedString()}/${bits}`).sort();

describe('the one list of internal addresses', () => {
  it("holds exactly ipaddr.js's special-purpose ranges, IPv4 and IPv6", () => {
    expect(ours(SPECIAL_V4)).toEqual(rangesOfIpaddr('ipv4').sort());
    expect(ours(SPECIAL_V6)).toEqual(rangesOfIpaddr('ipv6').sort());
  });

  it.each([
    ['2002:7f00:1::', '6to4'],
    ['2002:a9fe:a9fe::1', '6to4'],
    ['::ffff:0:7f00:1', 'rfc6145'],
    ['64:ff9b:1::7f00:1', 'rfc6052'],
    ['64:ff9b::a9fe:a9fe', 'rfc6052'],
    ['2001:0:4136:e378:8000:63bf:3fff:fdd2', 'teredo'],
    ['192.0.2.10', 'reserved'],
    ['198.51.100.7', 'reserved'],
    ['203.0.113.9', 'reserved'],
    ['2001:db8::1', 'reserved'],
    ['3fff::1', 'reserved'],
    ['::7f00:1', 'ipv4Compatible'],
    ['255.255.255.255', 'broadcast'],
  ])('refuses %s (%s), naming its range', (address, range) => {
    expect(internalReason(address)).toMatch(new RegExp(`^an internal address \\(${range}, `));
  });

  it('lets public addresses through', () => {
    for (const address of ['93.184.216.34', '8.8.8.8', '2606:2800:220:1::1', '2a00:1450:4001:80b::200e'])
      expect(
        internalReason(address, () => null),
        address,
      ).toBeNull();
  });

  it("refuses every address of this machine's interfaces, read again when the list is older than its refresh", () => {
    let interfaces: NodeJS.Dict<os.NetworkInterfaceInfo[]> = {
      eth9: [{ family: 'IPv4', address: '93.184.216.99' } as os.NetworkInterfaceInfo],
      tun0: [{ family: 'IPv6', address: '2a00:1450::5' } as os.NetworkInterfaceInfo],
    };
    let now = 0;
    const here = machineAddresses({ read: () => interfaces, now: () => now, refreshMs: 30_000 });
    expect(internalReason('93.184.216.99', here)).toBe('an address of this machine (eth9)');
    expect(internalReason('2a00:1450:0::5', here)).toBe('an address of this machine (tun0)');
    expect(internalReason('93.184.216.98', here)).toBeNull();
    // The VPN went down and eth9 got another address: seen at the next refresh, not before.
    interfaces = { eth9: [{ family: 'IPv4', address: '93.184.216.98' } as os.NetworkInterfaceInfo] };
    now = 29_999;
    expect(internalReason('93.184.216.98', here)).toBeNull();
    now = 30_000;
    expect(internalReason('93.184.216.98', here)).toBe('an address of this machine (eth9)');
    expect(internalReason('2a00:1450::5', here)).toBeNull();
  });
});

/** The addresses of this machine's interfaces other than loopback: where a service bound to 0.0.0.0 also answers. */
const ownAddresses = Object.values(os.networkInterfaces())
  .flat()
  .filter((info): info is os.NetworkInterfaceInfo => !!info && !info.internal && !info.address.startsWith('fe80:'))
  .map((info) => info.address);
const hostOf = (address: string) => (net.isIPv6(address) ? `[${address}]` : address);

/**
 * A service bound to every interface, and a stream pointed at this machine's own interface address:
 * directly at launch, through a redirect, as a segment, and through the egress proxy ffmpeg and yt-dlp
 * use. The service counts every connection it gets; it must get none.
 */
describe.skipIf(ownAddresses.length === 0)("hostile stream: this machine's own interface addresses", () => {
  let connections = 0;
  const service = net.createServer((socket) => {
    connections++;
    socket.destroy();
  });
  let servicePort: number;
  let originPort: number;
  /** A trusted origin (as the demo stream is) that leads to the service. */
  const origin = http.createServer((request, response) => {
    const to = `${hostOf(ownAddresses[0])}:${servicePort}`;
    if (request.url === '/moved.m3u8') return void response.writeHead(302, { location: `http://${to}/x.m3u8` }).end();
    response.writeHead(404).end();
  });
  let t: TestApp;
  let token: string;
  const policy = (): EgressPolicy => ({ allowPrivate: false, trustedHosts: [`127.0.0.1:${originPort}`] });

  beforeAll(async () => {
    servicePort = await new Promise<number>((resolve) =>
      service.listen(0, '0.0.0.0', () => resolve((service.address() as net.AddressInfo).port)),
    );
    originPort = await new Promise<number>((resolve) =>
      origin.listen(0, '127.0.0.1', () => resolve((origin.address() as net.AddressInfo).port)),
    );
    t = await createTestApp({
      env: { ALLOW_PRIVATE_STREAM_HOSTS: '0' },
      build: { captureDriver: new MemoryCaptureProvider(), healthCheckIntervalMs: 0 },
    });
    token = await t.login();
  });
  afterAll(async () => {
    await t.close();
    origin.closeAllConnections();
    await Promise.all([new Promise((r) => service.close(r)), new Promise((r) => origin.close(r))]);
  });

  it('refuses the launch with the reason', async () => {
    for (const address of ownAddresses) {
      const response = await t.request({
        method: 'POST',
        url: '/api/instances/launch',
        token,
        payload: {
          configs: [
            { url: `http://${hostOf(address)}:${servicePort}/live.m3u8`, duration: 60, width: 320, height: 240 },
          ],
        },
      });
      expectRefused(
        response,
        400,
        new RegExp(
          `private or internal network; set ALLOW_PRIVATE_STREAM_HOSTS=1 to record from it \\(.+ is (an internal address \\(.+\\)|an address of this machine \\(.+\\))\\)$`,
        ),
      );
    }
    expect(connections).toBe(0);
  });

  it("refuses the HLS reader's requests and the egress proxy's, directly and through a redirect", async () => {
    const pin = createEgressPin(policy());
    for (const address of ownAddresses) {
      const answer = await getBytes(`http://${hostOf(address)}:${servicePort}/s0.ts`, 3000, pin, PLAYLIST_MAX_BYTES);
      expect(answer).toMatchObject({ cause: 'stream_refused' });
    }
    expect(await getBytes(`http://127.0.0.1:${originPort}/moved.m3u8`, 3000, pin, PLAYLIST_MAX_BYTES)).toMatchObject({
      cause: 'stream_refused',
    });
    const refusals: string[] = [];
    const proxy = await startEgressProxy(pin, (reason) => refusals.push(reason));
    try {
      const { port } = new URL(proxy.url);
      for (const address of ownAddresses) {
        const status = await new Promise<number>((resolve, reject) =>
          http
            .get(
              { host: '127.0.0.1', port, path: `http://${hostOf(address)}:${servicePort}/live.m3u8` },
              (response) => {
                response.resume();
                resolve(response.statusCode ?? 0);
              },
            )
            .on('error', reject),
        );
        expect(status).toBe(403);
      }
      expect(refusals).toHaveLength(ownAddresses.length);
    } finally {
      await proxy.close();
    }
    expect(connections).toBe(0);
  });
});
