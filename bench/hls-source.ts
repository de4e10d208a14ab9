/**
 * A live HLS broadcast made on this machine (ffmpeg and a tiny HTTP server), for the benchmarks and
 * the capture tests (which re-export it from tests/server/capture/helpers.ts).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { waitFor } from './lib';

export interface HlsSource {
  url: string;
  dir: string;
  /** Kills the generator; the server keeps serving the last playlist (no end tag): a stalled live stream. */
  stopGenerator(): Promise<void>;
  /** Takes the broadcast off the air: the generator stops and every request answers 404 until goLive(). */
  goOffline(): Promise<void>;
  /** Starts a fresh broadcast (a new playlist, as an encoder restarting) and waits for its first segments. */
  goLive(): Promise<void>;
  close(): Promise<void>;
}

export function stopProcess(child: ChildProcess | undefined, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const kill = setTimeout(() => child.kill('SIGKILL'), 3000);
    child.once('exit', () => {
      clearTimeout(kill);
      resolve();
    });
    child.kill(signal);
  });
}

function startGenerator(dir: string): ChildProcess {
  return spawn(
    'ffmpeg',
    [
      '-hide_banner', '-loglevel', 'error', '-nostdin',
      '-re', '-f', 'lavfi', '-i', 'testsrc2=size=320x240:rate=15',
      '-re', '-f', 'lavfi', '-i', 'sine=frequency=440:sample_rate=44100',
      '-c:v', 'libx264', '-preset', 'ultrafast', '-tune', 'zerolatency', '-g', '15', '-pix_fmt', 'yuv420p',
      '-c:a', 'aac', '-b:a', '64k',
      '-f', 'hls', '-hls_time', '1', '-hls_list_size', '6', '-hls_flags', 'delete_segments',
      path.join(dir, 'live.m3u8'),
    ],
    { stdio: 'ignore' },
  );
}

const hasSegments = (dir: string, name: string) => {
  try {
    return fs.readFileSync(path.join(dir, 'live.m3u8'), 'utf8').includes(name);
  } catch {
    return false;
  }
};

/**
 * A live HLS broadcast made here: ffmpeg writes a test pattern with a tone as 1-second segments
 * (a sliding window of 6, no end tag) and a tiny HTTP server on 127.0.0.1 serves them. With
 * `live: false` it starts off the air (every request 404) until goLive().
 */
export async function startHlsSource(options: { live?: boolean } = {}): Promise<HlsSource> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'capture-hls-'));
  let generator: ChildProcess | undefined;
  let onAir = false;
  const server = http.createServer((request, response) => {
    const name = path.basename(decodeURIComponent((request.url ?? '/').split('?')[0]));
    if (!onAir) {
      response.writeHead(404).end('not found');
      return;
    }
    fs.readFile(path.join(dir, name), (error, body) => {
      if (error) {
        response.writeHead(404).end('not found');
        return;
      }
      response.writeHead(200, { 'content-type': name.endsWith('.m3u8') ? 'application/vnd.apple.mpegurl' : 'video/mp2t' }).end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  const goLive = async () => {
    await stopProcess(generator, 'SIGKILL');
    for (const name of fs.readdirSync(dir)) fs.rmSync(path.join(dir, name), { force: true });
    generator = startGenerator(dir);
    // A few segments first, so a reader starts on a real live window.
    await waitFor(() => hasSegments(dir, 'live2.ts'), 'the HLS source', 20_000);
    onAir = true;
  };
  const goOffline = async () => {
    onAir = false;
    await stopProcess(generator, 'SIGKILL');
  };
  if (options.live ?? true) await goLive();
  return {
    url: `http://127.0.0.1:${port}/live.m3u8`,
    dir,
    // SIGKILL: a generator stopped gracefully would end the playlist (#EXT-X-ENDLIST), which is not a stall.
    stopGenerator: () => stopProcess(generator, 'SIGKILL'),
    goOffline,
    goLive,
    close: async () => {
      onAir = false;
      await stopProcess(generator);
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
