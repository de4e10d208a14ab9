import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEgressPin, type AddressLookup, type EgressPolicy } from '../../../recorder/egress-guard';
import { startEgressProxy, type EgressProxy } from '../../../recorder/egress-proxy';
import { getBytes, PLAYLIST_MAX_BYTES } from '../../../recorder/hls-http';
import { resolveStreamUrl } from '../../../recorder/stream-url';
import { recorderProcess, type RecorderProcess } from '../../../testkit/recorder-process';
import { scaled } from '../../../testkit/time-scale';

// PostgreSQL pass: skipped: recorder processes and ffmpeg against loopback listeners, no database

/*
 * The recorder's egress guard: what a stream leads to (its segments, keys, redirects, the URL yt-dlp
 * prints, a public name that resolves to loopback) reaches nothing on loopback. A listener there counts
 * every connection it gets; the origin serving the playlists is the one trusted loopback host, as the
 * server's demo stream is.
 */

const listen = (server: net.Server) =>
  new Promise<number>((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve((server.address() as net.AddressInfo).port)),
  );

let connections = 0;
let secretPort: number;
let originPort: number;
const secret = net.createServer((socket) => {
  connections++;
  socket.destroy();
});
/** Playlists on the trusted host that lead to the listener. */
const origin = http.createServer((request, response) => {
  const to = `127.0.0.1:${secretPort}`;
  if (request.url === '/moved.m3u8') return void response.writeHead(302, { location: `http://${to}/live.m3u8` }).end();
  if (request.url === '/renamed.m3u8')
    return void response.writeHead(302, { location: `http://rebound.example.com:${secretPort}/live.m3u8` }).end();
  response.writeHead(200, { 'content-type': 'application/vnd.apple.mpegurl' });
  const key = request.url === '/keyed.m3u8' ? `#EXT-X-KEY:METHOD=AES-128,URI="http://${to}/key"\n` : '';
  const segments = [0, 1, 2].map((n) => `#EXTINF:2,\n${n % 2 ? 'https' : 'http'}://${to}/s${n}.ts\n`).join('');
  response.end(
    `#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:2\n#EXT-X-MEDIA-SEQUENCE:0\n${key}${segments}${request.url === '/ended.m3u8' || key ? '#EXT-X-ENDLIST\n' : ''}`,
  );
});

/** A resolver in which public-looking names answer loopback; anything else is not found. */
const rebinding: AddressLookup = async (host) => {
  if (host.endsWith('.example.com')) return [{ address: '127.0.0.1', family: 4 }];
  throw Object.assign(new Error(`${host} not found`), { code: 'ENOTFOUND' });
};
const policy = (): EgressPolicy => ({ allowPrivate: false, trustedHosts: [`127.0.0.1:${originPort}`] });

beforeAll(async () => {
  secretPort = await listen(secret);
  originPort = await listen(origin);
});
afterAll(async () => {
  origin.closeAllConnections();
  await Promise.all([new Promise((resolve) => secret.close(resolve)), new Promise((resolve) => origin.close(resolve))]);
});

describe("egress guard: the HLS reader's own client", () => {
  it('refuses a public name that resolves to loopback, a redirect to loopback, and every spelling of it', async () => {
    const pin = createEgressPin(policy(), rebinding);
    const targets = [
      `http://stream.example.com:${secretPort}/live.m3u8`,
      `http://127.0.0.1:${originPort}/moved.m3u8`,
      `http://127.0.0.1:${originPort}/renamed.m3u8`,
      `http://[::ffff:127.0.0.1]:${secretPort}/live.m3u8`,
      `http://[::127.0.0.1]:${secretPort}/live.m3u8`,
      `http://[::1]:${secretPort}/live.m3u8`,
      `https://0x7f000001:${secretPort}/live.m3u8`,
      'http://169.254.169.254/latest/meta-data/',
    ];
    for (const url of targets) {
      expect(await getBytes(url, 3000, pin, PLAYLIST_MAX_BYTES), url).toMatchObject({
        cause: 'stream_refused',
        error: expect.stringMatching(
          /an internal address \([a-zA-Z0-9]+, [0-9a-f.:]+\/\d+\): a recorder may not connect to it$/,
        ),
      });
    }
    expect(connections).toBe(0);
    // The trusted host itself is read.
    expect(await getBytes(`http://127.0.0.1:${originPort}/ended.m3u8`, 3000, pin, PLAYLIST_MAX_BYTES)).toMatchObject({
      url: `http://127.0.0.1:${originPort}/ended.m3u8`,
    });
  });

  it('connects to the address it checked: a name that answers loopback on a second lookup (DNS rebinding) is not asked again', async () => {
    const asked: string[] = [];
    // Public first, loopback after: a client that looked the name up again would reach the listener.
    const flipping: AddressLookup = async (host) => {
      asked.push(host);
      return [{ address: asked.length === 1 ? '93.184.216.34' : '127.0.0.1', family: 4 }];
    };
    const answer = await getBytes(
      `http://flip.example.com:${secretPort}/live.m3u8`,
      500,
      createEgressPin(policy(), flipping),
      PLAYLIST_MAX_BYTES,
    );
    expect(answer).toMatchObject({ cause: expect.stringMatching(/stream_stalled|stream_dropped/) });
    expect(asked).toEqual(['flip.example.com']);
    expect(connections).toBe(0);
  });

  it('counts a lookup that never answers against the time limit', async () => {
    const silent: AddressLookup = () => new Promise(() => undefined);
    expect(
      await getBytes('http://slow.example.com/live.m3u8', 300, createEgressPin(policy(), silent), PLAYLIST_MAX_BYTES),
    ).toMatchObject({
      cause: 'stream_stalled',
      error: 'no answer within 0 s',
    });
  });
});

describe('egress guard: ffmpeg through the egress proxy', () => {
  let proxy: EgressProxy;
  const refusals: string[] = [];
  beforeAll(async () => {
    proxy = await startEgressProxy(createEgressPin(policy(), rebinding), (reason) => refusals.push(reason));
  });
  afterAll(() => proxy.close());

  /** ffmpeg reading `url` as the recorder runs it under the guard: HTTP and TLS only, its proxy in http_proxy. */
  const ffmpegReads = (url: string) =>
    new Promise<string>((resolve) => {
      const child = spawn(
        process.env.FFMPEG_PATH ?? 'ffmpeg',
        [
          '-hide_banner',
          '-protocol_whitelist',
          'http,https,tcp,tls,crypto,data,httpproxy',
          '-i',
          url,
          '-f',
          'null',
          '-',
        ],
        {
          env: { ...process.env, http_proxy: proxy.url, no_proxy: '' },
        },
      );
      let stderr = '';
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      child.on('exit', () => resolve(stderr));
    });

  it.each([
    [
      'segments and a key on loopback (http and https) listed by a trusted playlist',
      () => `http://127.0.0.1:${originPort}/keyed.m3u8`,
    ],
    ['a redirect to loopback', () => `http://127.0.0.1:${originPort}/moved.m3u8`],
    ['a public name that resolves to loopback', () => `http://stream.example.com:${secretPort}/live.m3u8`],
    ['https to loopback (a CONNECT tunnel)', () => `https://127.0.0.1:${secretPort}/live.m3u8`],
    ['the metadata address', () => 'http://169.254.169.254/latest/meta-data/x.m3u8'],
  ])(
    'reaches nothing through %s',
    async (_name, url) => {
      const before = refusals.length;
      const stderr = await ffmpegReads(url());
      expect(stderr).toMatch(/403 Forbidden/);
      expect(refusals.length).toBeGreaterThan(before);
      expect(connections).toBe(0);
    },
    scaled(30_000),
  );
});

describe('egress guard: recorder processes', () => {
  const recorders: RecorderProcess[] = [];
  let tools: string;
  beforeAll(() => {
    tools = fs.mkdtempSync(path.join(os.tmpdir(), 'capture-egress-'));
  });
  afterAll(async () => {
    for (const recorder of recorders) {
      await recorder.kill();
      recorder.remove();
    }
    fs.rmSync(tools, { recursive: true, force: true });
  });

  /** A yt-dlp that prints `media` for any page, and notes the arguments it was given. */
  const fakeYtDlp = (name: string, media: string) => {
    const file = path.join(tools, name);
    fs.writeFileSync(file, `#!/bin/sh\necho "$@" >> "${file}.args"\necho '${media}'\n`, { mode: 0o755 });
    return file;
  };
  const record = (url: string, ytDlpPath?: string) => {
    const recorder = recorderProcess({
      url,
      seconds: 30,
      width: 320,
      height: 180,
      egress: policy(),
      ytDlpPath,
      settings: { retryInitialSeconds: 1, retryMaxSeconds: 1 },
    });
    recorders.push(recorder);
    recorder.start();
    return recorder;
  };

  /** The page is never fetched here: the look at what it answers fails as an unreachable host would. */
  const noNetwork = async () => {
    throw Object.assign(new Error('no network in this test'), { code: 'ENOTFOUND' });
  };
  const page = 'https://video.example.org/watch?v=sermon';

  it('a yt-dlp answer of garbage, or of megabytes, ends the connection with a reason', async () => {
    const garbage = path.join(tools, 'garbage');
    fs.writeFileSync(
      garbage,
      `#!/bin/sh
printf '<html>\\nnot a URL\\n\\x00\\x1b[31m'
`,
      { mode: 0o755 },
    );
    expect(await resolveStreamUrl(page, { ytDlpPath: garbage, pin: noNetwork })).toEqual({
      ok: false,
      error: `yt-dlp could not resolve ${page}: no media URL printed`,
    });
    // A first line that looks like a stream, then 4 MiB more: refused at 1 MiB, never used.
    const flood = path.join(tools, 'flood');
    fs.writeFileSync(
      flood,
      `#!/bin/sh
echo 'https://cdn.example.org/live.m3u8'
head -c 4194304 /dev/zero | tr '\\0' a
`,
      {
        mode: 0o755,
      },
    );
    expect(await resolveStreamUrl(page, { ytDlpPath: flood, pin: noNetwork })).toEqual({
      ok: false,
      error: `yt-dlp could not resolve ${page}: stdout maxBuffer length exceeded`,
    });
  });

  it(
    'a playlist listing loopback segments, a redirect to loopback, and yt-dlp answers pointing at loopback or a local file each reach nothing: gaps with cause stream_refused',
    async () => {
      const cases = [
        record(`http://127.0.0.1:${originPort}/live.m3u8`),
        record(`http://127.0.0.1:${originPort}/moved.m3u8`),
        record(page, fakeYtDlp('hls', `http://127.0.0.1:${secretPort}/live.m3u8`)),
        record(page, fakeYtDlp('file', `http://127.0.0.1:${secretPort}/sermon.mp4`)),
        record(page, fakeYtDlp('rtmp', `rtmp://127.0.0.1:${secretPort}/live`)),
        // A local file (another recording, a key) is no stream: ffmpeg would read it into the video.
        record(page, fakeYtDlp('local-file', 'file:///etc/passwd')),
      ];
      // 30 s windows: a recorder that starts late on a busy machine still meets the refusal inside its window.
      const states = await Promise.all(cases.map((recorder) => recorder.finished(90_000)));
      for (const [i, state] of states.entries()) {
        const log = cases[i].log();
        expect(state.outcome?.status, log).toBe('failed');
        expect(
          state.coverage?.gaps.map((gap) => gap.cause),
          log,
        ).toContain('stream_refused');
        expect(state.coverage?.gaps.find((gap) => gap.cause === 'stream_refused')?.reason, log).toMatch(
          /^Stream refused \(/,
        );
      }
      expect(connections).toBe(0);
      // yt-dlp itself went through the proxy.
      expect(fs.readFileSync(path.join(tools, 'hls.args'), 'utf8')).toMatch(/--proxy http:\/\/127\.0\.0\.1:\d+ /);
    },
    scaled(150_000),
  );
});
