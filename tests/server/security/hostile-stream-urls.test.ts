import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STREAM_URL_PROTOCOLS } from '../../../contract/instances';
import { createStreamUrlGuard } from '../../../server/capture/stream-url-guard';
import { MemoryCaptureProvider } from '../../../testkit/memory-capture-provider';
import { createTestApp, type TestApp } from '../helpers/test-app';
import { expectRefused } from './hostile-support';

/** Hosts a recorder must never be pointed at: this machine, the LAN, link-local and cloud metadata services. */
const INTERNAL_HOSTS = [
  '127.0.0.1',
  '127.8.9.10',
  'localhost',
  'LOCALHOST.',
  'stream.localhost',
  '[::1]',
  '0.0.0.0',
  '[::]',
  '10.1.2.3',
  '172.16.0.9',
  '172.31.255.1',
  '192.168.1.20',
  '100.64.0.1',
  '169.254.169.254',
  '100.100.100.200',
  '[fe80::1]',
  '[fd00:ec2::254]',
  '[::127.0.0.1]',
  '[::a9fe:a9fe]',
  '[::ffff:127.0.0.1]',
  '[::ffff:169.254.169.254]',
  '[64:ff9b::a9fe:a9fe]',
  'metadata.google.internal',
  'nas.lan',
  'printer.local',
  'intranet',
  'router.home.arpa',
];
const SCHEMES = STREAM_URL_PROTOCOLS.map((p) => p.slice(0, -1));

/**
 * Stream URLs under the default configuration (ALLOW_PRIVATE_STREAM_HOSTS unset): every scheme the
 * launch accepts, pointed at every kind of internal address, is refused with 400 before a recorder
 * or an instance row exists; URLs without a host and non-media schemes are refused by the contract.
 */
describe('hostile input: stream URLs', () => {
  let t: TestApp;
  let token: string;
  let port: number;
  const driver = new MemoryCaptureProvider();

  beforeAll(async () => {
    t = await createTestApp({
      env: { ALLOW_PRIVATE_STREAM_HOSTS: '0', DEMO_STREAM: '1' },
      build: { captureDriver: driver, healthCheckIntervalMs: 0 },
    });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    port = (t.app.server.address() as AddressInfo).port;
    token = await t.login();
  });
  afterAll(() => t.close());

  const launch = (url: string) =>
    t.request({
      method: 'POST',
      url: '/api/instances/launch',
      token,
      payload: { configs: [{ url, duration: 60, width: 320, height: 240 }], max_workers: 1 },
    });
  const instanceCount = async () =>
    (
      await t.app.ctx.db.kysely
        .selectFrom('instances')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow()
    ).n;

  const cases = SCHEMES.flatMap((scheme) =>
    INTERNAL_HOSTS.map((host) => `${scheme}://${host}:8000/live/secret.txt?x=.m3u8`),
  );
  it(`refuses ${cases.length} internal stream hosts across ${SCHEMES.join(', ')}`, async () => {
    for (const url of cases) {
      expectRefused(await launch(url), 400, /private or internal network; set ALLOW_PRIVATE_STREAM_HOSTS=1/);
    }
    expect(await instanceCount()).toBe(0);
  });

  it('refuses hosts written as bare numbers that mean loopback', async () => {
    for (const url of [
      'http://2130706433/x.m3u8',
      'http://0x7f000001/x.m3u8',
      'http://127.1/x.m3u8',
      'rtmp://2130706433/live',
      'rtmp://0x7f.1/live',
    ]) {
      expectRefused(await launch(url), 400);
    }
    expect(await instanceCount()).toBe(0);
  });

  it.each([
    'http:///secret.txt',
    'https:///x.m3u8',
    'rtmp:///live',
    'http:/127.0.0.1/x',
    'http:127.0.0.1/x',
    'file:///etc/passwd',
    'concat:http://a/b',
    'data:text/plain,hi',
    'ftp://example.com/x',
    'gopher://example.com/',
  ])('refuses %s without a host or with a non-media scheme', async (url) => {
    expectRefused(
      await launch(url),
      400,
      /Stream URL must be an http\(s\), rtmp\(s\), rtsp\(s\) or srt URL with a host/,
    );
    expect(await instanceCount()).toBe(0);
  });

  // ffmpeg takes everything before the last @ as user info; WHATWG reads \ as / and sees the host before it.
  it.each([
    'http://8.8.8.8\\@127.0.0.1:8210/x.m3u8',
    'https://8.8.8.8\\@[::1]:8210/x.m3u8',
    'http://8.8.8.8\\@169.254.169.254/latest/meta-data/x.m3u8',
    'rtmp://8.8.8.8\\@127.0.0.1/live',
    'HTTP://8.8.8.8\\@127.0.0.1/x.m3u8',
    'http://user@8.8.8.8@127.0.0.1/x.m3u8',
    'http://8.8.8.8 @127.0.0.1/x.m3u8',
    'http://8.8.8.8\t@127.0.0.1/x.m3u8',
  ])('refuses %j, whose host part two parsers read differently', async (url) => {
    expectRefused(await launch(url), 400, /Stream URL host part may hold only letters, digits|Stream URL must be/);
    expect(await instanceCount()).toBe(0);
  });

  it("refuses a mosque's ID_token written as such a URL, and stores a good one normalised", async () => {
    const create = (ID_token: string) =>
      t.request({
        method: 'POST',
        url: '/api/config/mosques',
        token,
        payload: { name: 'Al Noor', languages: ['ar'], ID_token },
      });
    expectRefused(
      await create('http://8.8.8.8\\@127.0.0.1:8210/x.m3u8'),
      400,
      /ID_token: Stream URL host part may hold only/,
    );
    expectRefused(await create('file:///etc/passwd'), 400, /ID_token: Stream URL must be/);
    const good = await create('HTTPS://Streams.Example.com/a/../live.m3u8');
    expect(good.statusCode, good.body).toBe(201);
    expect(good.json().data.ID_token).toBe('https://streams.example.com/live.m3u8');
    // A channel id (no scheme) is kept as it is: the stream URL template takes it.
    expect((await create('UCabc_123')).json().data.ID_token).toBe('UCabc_123');
  });

  it("still launches the server's own demo stream on loopback", async () => {
    const response = await launch(`http://127.0.0.1:${port}/demo/stream.m3u8`);
    expect(response.statusCode, response.body).toBe(200);
    // The same host and port on another path is the server's API, not a stream.
    expectRefused(await launch(`http://127.0.0.1:${port}/api/monitoring/system?x=.m3u8`), 400);
    expect(await instanceCount()).toBe(1);
  });
});

describe('stream host guard: names resolved before launch', () => {
  const resolver = (table: Record<string, string[]>) => async (host: string) => {
    if (!table[host]) throw Object.assign(new Error('not found'), { code: 'ENOTFOUND' });
    return table[host];
  };
  const guard = createStreamUrlGuard({
    allowPrivate: false,
    resolve: resolver({
      'cdn.example.com': ['93.184.216.34', '2606:2800:220:1::1'],
      'rebind.example.com': ['93.184.216.34', '10.0.0.7'],
      'meta.example.com': ['169.254.169.254'],
    }),
  });

  it('allows a public host and refuses a name with any internal address', async () => {
    await expect(guard('https://cdn.example.com/live.m3u8')).resolves.toEqual([]);
    await expect(guard('https://rebind.example.com/live.m3u8')).rejects.toMatchObject({ statusCode: 400 });
    await expect(guard('rtmp://meta.example.com/live')).rejects.toMatchObject({ statusCode: 400 });
  });

  it('allows a name this server cannot resolve, but not one that only exists inside a network', async () => {
    await expect(guard('https://streams.example.org/live.m3u8')).resolves.toEqual([]);
    await expect(guard('https://db.corp/live.m3u8')).rejects.toMatchObject({ statusCode: 400 });
  });

  it('refuses a protocol the egress guard cannot see (rtmp, rtsp, srt) on a public host, and trusts only the demo stream', async () => {
    for (const url of ['rtmp://cdn.example.com/live', 'rtsps://93.184.216.34/cam', 'srt://streams.example.org:9000']) {
      await expect(guard(url)).rejects.toMatchObject({
        statusCode: 400,
        message: expect.stringMatching(/cannot pass the recorders' egress guard, which sees http and https only/),
      });
    }
    const withDemo = createStreamUrlGuard({
      allowPrivate: false,
      isBuiltIn: (url) => url.pathname.startsWith('/demo/'),
      resolve: resolver({}),
    });
    await expect(withDemo('http://127.0.0.1:8000/demo/stream.m3u8')).resolves.toEqual(['127.0.0.1:8000']);
  });

  it('allows every host with ALLOW_PRIVATE_STREAM_HOSTS=1', async () => {
    const open = createStreamUrlGuard({ allowPrivate: true, resolve: resolver({}) });
    await expect(open('http://127.0.0.1:8080/live.m3u8')).resolves.toEqual([]);
    await expect(open('rtsp://192.168.1.20/cam')).resolves.toEqual([]);
  });
});

describe('stream host guard: the resolver the app is built with', () => {
  let t: TestApp;
  let token: string;

  beforeAll(async () => {
    const names: Record<string, string[]> = { 'cam.example.net': ['10.0.0.9'], 'cdn.example.net': ['93.184.216.34'] };
    const resolveStreamHost = async (host: string) => names[host] ?? Promise.reject(new Error(`${host} not found`));
    t = await createTestApp({
      env: { ALLOW_PRIVATE_STREAM_HOSTS: '0' },
      build: { captureDriver: new MemoryCaptureProvider(), healthCheckIntervalMs: 0, resolveStreamHost },
    });
    token = await t.login();
  });
  afterAll(() => t.close());

  const launch = (url: string) =>
    t.request({
      method: 'POST',
      url: '/api/instances/launch',
      token,
      payload: { configs: [{ url, duration: 60, width: 320, height: 240 }], max_workers: 1 },
    });

  it('stores and hands on the normalised URL only', async () => {
    const response = await launch('HTTPS://CDN.Example.NET:443/a/../live.m3u8');
    expect(response.statusCode, response.body).toBe(200);
    const rows = await t.app.ctx.db.kysely.selectFrom('instances').select('url').execute();
    expect(rows.map((row) => row.url)).toContain('https://cdn.example.net/live.m3u8');
  });

  it('decides each launch by the addresses it answers, not by the system DNS', async () => {
    expectRefused(
      await launch('https://cam.example.net/live.m3u8'),
      400,
      /cam\.example\.net is on a private or internal network/,
    );
    const response = await launch('https://cdn.example.net/live.m3u8');
    expect(response.statusCode, response.body).toBe(200);
  });
});
