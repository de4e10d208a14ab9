import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEgressPin, GUARDED, internalReason, learnPublicAddresses } from '../../../recorder/egress-guard';
import { instancePublicAddresses, runsOnEc2 } from '../../../recorder/instance-metadata';
import { createTestApp, type TestApp } from '../helpers/test-app';
import { expectRefused } from './hostile-support';

// PostgreSQL pass: skipped: a metadata service on loopback and the address check, no table involved

/** Public addresses as AWS gives them (neither is in a special-purpose range): only the metadata knows them. */
const PUBLIC_V4 = '52.94.76.10';
const PUBLIC_V6 = '2600:1f18:4a3:6f01:5d1e:9a1b:3c2d:10';
const TOKEN = 'AQAEAMetadataSessionToken==';

interface Imds {
  endpoint: string;
  /** Requests for items made without the session token (an IMDSv1 client's). */
  untokened: number;
  close(): Promise<void>;
}

/**
 * A metadata service as EC2's with HttpTokens required: a PUT with a TTL header gives a session token,
 * and an item is answered only to a request that carries it (401 otherwise, as IMDSv2 does).
 */
async function startImds(items: Record<string, string>, tokenStatus = 200): Promise<Imds> {
  const imds = { untokened: 0 } as Imds;
  const server = http.createServer((request, response) => {
    if (request.url === '/latest/api/token') {
      const asked = request.method === 'PUT' && request.headers['x-aws-ec2-metadata-token-ttl-seconds'];
      return void response.writeHead(asked ? tokenStatus : 400).end(asked && tokenStatus === 200 ? TOKEN : '');
    }
    if (request.headers['x-aws-ec2-metadata-token'] !== TOKEN) {
      imds.untokened++;
      return void response.writeHead(401).end();
    }
    const item = items[(request.url ?? '').replace('/latest/meta-data/', '')];
    response.writeHead(item === undefined ? 404 : 200).end(item ?? '');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  imds.endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  imds.close = () => new Promise((resolve) => server.close(() => resolve()));
  return imds;
}

describe('the instance metadata client (IMDSv2)', () => {
  it('reads the public IPv4 and IPv6 with a session token', async () => {
    const imds = await startImds({ 'public-ipv4': PUBLIC_V4, ipv6: PUBLIC_V6 });
    try {
      expect(await instancePublicAddresses(imds.endpoint)).toEqual([PUBLIC_V4, PUBLIC_V6]);
      expect(imds.untokened).toBe(0);
    } finally {
      await imds.close();
    }
  });

  it('takes an instance without IPv6 (or without a public IPv4) as having none of it', async () => {
    const imds = await startImds({ 'public-ipv4': PUBLIC_V4 });
    try {
      expect(await instancePublicAddresses(imds.endpoint)).toEqual([PUBLIC_V4]);
    } finally {
      await imds.close();
    }
  });

  it('says why when the service gives no token, never "no address"', async () => {
    const imds = await startImds({ 'public-ipv4': PUBLIC_V4 }, 403);
    try {
      await expect(instancePublicAddresses(imds.endpoint)).rejects.toThrow(
        'the metadata service gave no session token (HTTP 403)',
      );
    } finally {
      await imds.close();
    }
  });

  it('knows EC2 from what Linux shows of the hypervisor, asking nothing', () => {
    const files = (shown: Record<string, string>) => (file: string) => {
      if (file in shown) return shown[file];
      throw Object.assign(new Error('ENOENT'), { code: 'ENOENT' });
    };
    expect(runsOnEc2(files({ '/sys/devices/virtual/dmi/id/sys_vendor': 'Amazon EC2\n' }))).toBe(true);
    expect(runsOnEc2(files({ '/sys/hypervisor/uuid': 'ec2e1916-9099-7caf-fd21-012345abcdef\n' }))).toBe(true);
    expect(runsOnEc2(files({ '/sys/devices/virtual/dmi/id/sys_vendor': 'QEMU\n' }))).toBe(false);
    expect(runsOnEc2(files({}))).toBe(false);
  });
});

/**
 * On EC2 a service bound to 0.0.0.0 answers on the instance's public address, which no interface
 * shows. Once learned from the metadata, the launch check, the recorder's pinned lookups and its
 * egress proxy (which pins through the same check) refuse it, naming why.
 */
describe('hostile launch: the instance public address of an EC2 machine', () => {
  let imds: Imds;
  let t: TestApp;
  let token: string;

  beforeAll(async () => {
    imds = await startImds({ 'public-ipv4': PUBLIC_V4, ipv6: PUBLIC_V6 });
    t = await createTestApp({
      env: { ALLOW_PRIVATE_STREAM_HOSTS: '0' },
      build: {
        healthCheckIntervalMs: 0,
        resolveStreamHost: async (host) => (host === 'own.example.com' ? [PUBLIC_V4] : ['93.184.216.34']),
      },
    });
    token = await t.login();
  });
  afterAll(async () => {
    await t?.close();
    await imds?.close();
  });

  it('a pin refuses to connect anywhere while the metadata cannot be read', async () => {
    const failing = () => Promise.reject(new Error("this machine's public address could not be read"));
    const pin = createEgressPin(GUARDED, async () => [{ address: '93.184.216.34', family: 4 }], undefined, failing);
    await expect(pin('example.com', 80)).rejects.toThrow(
      "example.com was not checked: this machine's public address could not be read; a recorder connects nowhere until it is read",
    );
  });

  it('before it is learned, the public address passes: nothing on the interfaces names it', () => {
    expect(internalReason(PUBLIC_V4)).toBeNull();
  });

  it('once learned, the check, a pinned lookup and a launch refuse it, naming why', async () => {
    await learnPublicAddresses({ isEc2: () => true, endpoint: imds.endpoint });
    const why = 'an address of this machine (its public address, from the EC2 instance metadata)';
    expect(internalReason(PUBLIC_V4)).toBe(why);
    expect(internalReason('2600:1f18:04a3:6f01:5d1e:9a1b:3c2d:0010')).toBe(why);
    expect(internalReason('93.184.216.34')).toBeNull();

    const pin = createEgressPin(GUARDED, async () => [{ address: PUBLIC_V4, family: 4 }]);
    await expect(pin('own.example.com', 443)).rejects.toThrow(`own.example.com is ${PUBLIC_V4}, ${why}`);

    const launch = await t.request({
      method: 'POST',
      url: '/api/instances/launch',
      token,
      payload: { configs: [{ url: 'http://own.example.com/live.m3u8', duration: 60 }], max_workers: 1 },
    });
    expectRefused(launch, 400, new RegExp(`${PUBLIC_V4.replaceAll('.', '\\.')} is an address of this machine`));
  });
});
