import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildFfmpegArgs } from '../../../recorder/ffmpeg-args';
import type { RecorderConfig } from '../../../recorder/recorder-state';
import { FFPROBE, startHlsSource, type HlsSource } from '../../../testkit/capture';
import { scaled } from '../../../testkit/time-scale';

const SECRET = 'TOP SECRET: the metrics token is 0123456789abcdef\n'.repeat(40);

/**
 * What real ffmpeg does with the recorder's command line: a text file served over HTTP (any internal
 * page the server can reach) is refused as a format, where ffmpeg's `tty` demuxer used to render it
 * into a downloadable video, while a live HLS broadcast still records.
 */
describe('recorder input formats (real ffmpeg)', () => {
  let dir: string;
  let server: http.Server;
  let base: string;
  let hls: HlsSource;

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'capture-formats-'));
    server = http.createServer((_request, response) =>
      response.writeHead(200, { 'content-type': 'text/plain' }).end(SECRET),
    );
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    hls = await startHlsSource();
  }, scaled(30_000));
  afterAll(async () => {
    server.close();
    await hls.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  // Asynchronous: the servers ffmpeg reads from live in this process.
  const record = async (url: string, name: string) => {
    const settings = { preset: 'ultrafast', crf: 30, audioBitrate: '64k', segmentSeconds: 2 };
    const config = { url, duration: 2, width: 320, height: 240, settings } as unknown as RecorderConfig;
    const pieces = path.join(dir, `${name}.parts`);
    fs.mkdirSync(pieces, { recursive: true });
    const output = { piecePattern: path.join(pieces, '%05d.ts'), listPath: path.join(pieces, 'list.txt') };
    const child = spawn('ffmpeg', ['-nostdin', '-t', '2', ...buildFfmpegArgs(config, url, output)], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const status = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    const first = path.join(pieces, '00000.ts');
    return { status, stderr, output: first };
  };

  it.each(['/secret.txt', '/secret.txt?x=.txt', '/notes.nfo', '/page?x=.ans'])(
    'refuses to read %s as video',
    async (suffix) => {
      const run = await record(`${base}${suffix}`, 'text.mp4');
      expect(run.status).not.toBe(0);
      expect(run.stderr).toMatch(/not on whitelist/);
      const size = fs.existsSync(run.output) ? fs.statSync(run.output).size : 0;
      expect(size).toBeLessThan(1024);
    },
  );

  it(
    'still records a live HLS stream over http',
    async () => {
      const run = await record(hls.url, 'hls.mp4');
      expect(run.status, run.stderr.slice(-500)).toBe(0);
      const probe = spawnSync(
        FFPROBE,
        ['-v', 'error', '-show_entries', 'stream=codec_type', '-of', 'csv=p=0', run.output],
        { encoding: 'utf8' },
      );
      expect([...new Set(probe.stdout.split('\n').filter(Boolean))].sort()).toEqual(['audio', 'video']);
    },
    scaled(40_000),
  );
});
