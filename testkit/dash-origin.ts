import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';

/**
 * A live MPEG-DASH stream on loopback: ffmpeg's dash muxer encodes a test picture (H.264 at
 * `width`x`height`, square pixels) and a tone (AAC) in real time into 2 s segments of a live
 * manifest, `/live.mpd`, which a plain file server answers. What a recorder reads it with is ffmpeg's
 * own DASH reader.
 */
export interface DashOrigin {
  url: string;
  close(): Promise<void>;
}

const TYPES: Record<string, string> = {
  '.mpd': 'application/dash+xml',
  '.m4s': 'video/iso.segment',
  '.mp4': 'video/mp4',
};

export async function startDashOrigin(width: number, height: number): Promise<DashOrigin> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dash-origin-'));
  const encoder = spawn(
    'ffmpeg',
    [
      ...['-hide_banner', '-loglevel', 'error', '-nostdin', '-re'],
      ...['-f', 'lavfi', '-i', `testsrc2=size=${width}x${height}:rate=25,setsar=1`],
      ...['-f', 'lavfi', '-i', 'sine=frequency=440:sample_rate=48000'],
      ...['-c:v', 'libx264', '-preset', 'ultrafast', '-g', '50', '-c:a', 'aac'],
      ...['-f', 'dash', '-seg_duration', '2', '-window_size', '10', '-remove_at_exit', '0', 'live.mpd'],
    ],
    { cwd: dir, stdio: 'ignore' },
  );
  const server = http.createServer((request, response) => {
    const name = path.basename(new URL(request.url ?? '/', 'http://origin').pathname);
    const file = path.join(dir, name);
    if (!fs.existsSync(file)) return response.writeHead(404).end();
    response.writeHead(200, { 'content-type': TYPES[path.extname(name)] ?? 'application/octet-stream' });
    response.end(fs.readFileSync(file));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  // The manifest exists once the first segment is written.
  for (let waited = 0; !fs.existsSync(path.join(dir, 'live.mpd')) && waited < 20_000; waited += 100)
    await new Promise((resolve) => setTimeout(resolve, 100));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/live.mpd`,
    close: async () => {
      encoder.kill('SIGKILL');
      await new Promise((resolve) => server.close(resolve));
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
