/**
 * The stream of the density benchmark: a 720p H.264 + AAC programme at a sermon broadcast's bitrate,
 * encoded once per machine (cached in the temporary folder, so the encoder's CPU is never measured),
 * published on 127.0.0.1 as a live sliding HLS playlist on the wall clock, as an encoder would.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const SEGMENT_SECONDS = 2;
/** Frames a second of the programme's picture. */
export const DENSITY_FPS = 25;
/** Entries of the sliding playlist. */
const LISTED = 6;

export interface DensityOrigin {
  url: string;
  width: number;
  height: number;
  close(): Promise<void>;
}

/** Encodes `seconds` of the programme unless a finished copy is in the cache; its segments' durations. */
async function programme(seconds: number): Promise<{ dir: string; durations: number[] }> {
  const dir = path.join(os.tmpdir(), `density-programme-720p-${seconds}s`);
  const playlist = path.join(dir, 'index.m3u8');
  if (!fs.existsSync(playlist) || !fs.readFileSync(playlist, 'utf8').includes('#EXT-X-ENDLIST')) {
    fs.rmSync(dir, { recursive: true, force: true });
    fs.mkdirSync(dir, { recursive: true });
    // ffmpeg's HLS muxer writes the playlist last: a run cut short leaves no ENDLIST and is encoded again.
    await promisify(execFile)('ffmpeg', [
      ...['-hide_banner', '-loglevel', 'error', '-nostdin'],
      ...[
        '-f',
        'lavfi',
        '-i',
        `testsrc2=size=1280x720:rate=${DENSITY_FPS}`,
        '-f',
        'lavfi',
        '-i',
        'sine=frequency=440:sample_rate=48000',
      ],
      ...['-t', String(seconds), '-pix_fmt', 'yuv420p', '-c:v', 'libx264', '-preset', 'ultrafast'],
      ...[
        '-b:v',
        '2500k',
        '-maxrate',
        '2500k',
        '-bufsize',
        '5000k',
        '-g',
        '50',
        '-keyint_min',
        '50',
        '-sc_threshold',
        '0',
      ],
      ...['-c:a', 'aac', '-b:a', '128k', '-f', 'hls', '-hls_time', String(SEGMENT_SECONDS), '-hls_list_size', '0'],
      ...['-hls_segment_filename', path.join(dir, 'seg-%05d.ts'), playlist],
    ]);
  }
  const durations = [...fs.readFileSync(playlist, 'utf8').matchAll(/#EXTINF:([\d.]+)/g)].map((m) => Number(m[1]));
  return { dir, durations };
}

/**
 * Publishes the programme from now on, `leadSegments` already on the air; the playlist ends once all of
 * it is published (`seconds` must cover the lead, the window and the recorders' catching up).
 */
export async function startDensityOrigin(seconds: number, leadSegments = LISTED): Promise<DensityOrigin> {
  const { dir, durations } = await programme(seconds);
  const ends = durations.map((_, i) => durations.slice(0, i + 1).reduce((a, b) => a + b, 0));
  const onAirSince = Date.now() - ends[leadSegments - 1] * 1000;
  const server = http.createServer((request, response) => {
    const name = path.basename((request.url ?? '/').split('?')[0]);
    if (name === 'live.m3u8') {
      const elapsed = (Date.now() - onAirSince) / 1000;
      const published = ends.filter((end) => end <= elapsed).length;
      const first = Math.max(0, published - LISTED);
      const lines = [
        '#EXTM3U',
        '#EXT-X-VERSION:3',
        `#EXT-X-TARGETDURATION:${Math.ceil(Math.max(...durations))}`,
        `#EXT-X-MEDIA-SEQUENCE:${first}`,
        ...durations
          .slice(first, published)
          .flatMap((d, i) => [`#EXTINF:${d.toFixed(3)},`, `seg-${String(first + i).padStart(5, '0')}.ts`]),
        ...(published === durations.length ? ['#EXT-X-ENDLIST'] : []),
      ];
      response.writeHead(200, { 'content-type': 'application/vnd.apple.mpegurl' }).end(`${lines.join('\n')}\n`);
      return;
    }
    fs.readFile(path.join(dir, name), (error, body) => {
      if (error) response.writeHead(404).end('not found');
      else response.writeHead(200, { 'content-type': 'video/mp2t' }).end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/live.m3u8`,
    width: 1280,
    height: 720,
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
