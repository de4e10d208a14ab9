import { spawn, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/**
 * A live radio mount on loopback, as Icecast serves one: `/radio` (no file extension) answers
 * `audio/mpeg` and streams MP3 made in real time by ffmpeg to every listener, starting each with a
 * burst of the last 2 s, as Icecast's burst-on-connect does. `drop(seconds)` takes it off the air:
 * listeners are cut off, new ones refused (503), and what the encoder makes meanwhile is never sent.
 */
export interface RadioMount {
  url: string;
  /** Epoch ms at which the programme's second 0 was on the air (from when the encoder's output came). */
  startedAt(): number;
  /** Ms of programme the mount had put on the air by epoch ms `at` (sent, or dropped while off the air). */
  programmeAt(at: number): number;
  /** Epoch ms at which the mount put programme ms `ms` on the air (the chunk holding it came). */
  airedAt(ms: number): number;
  /** How far behind its schedule from `startedAt` the programme came, at most (its encoder or this process held up). */
  latestMs(): number;
  /** Takes the mount off the air for `seconds`; resolves with when it went off and came back (ms). */
  drop(seconds: number): Promise<{ from: number; to: number }>;
  close(): Promise<void>;
}

const BURST_MS = 2000;
/** The encoder's constant bit rate, so the bytes it has sent say how many seconds of programme they hold. */
const BITS_PER_SECOND = 128_000;

/** `source`: ffmpeg's lavfi input of the programme (a 440 Hz tone by default), played from its start in real time. */
export async function startRadioMount(source = 'sine=frequency=440:sample_rate=44100'): Promise<RadioMount> {
  const listeners = new Set<http.ServerResponse>();
  const sockets = new Set<Socket>();
  let recent: { at: number; chunk: Buffer }[] = [];
  let offAir = false;
  let encodedBytes = 0;
  // When each chunk came and the programme ms it ends at: what was on the air when, as it happened.
  const aired: { at: number; endMs: number }[] = [];
  let latestMs = 0;
  // Read in real time, a chunk comes out no earlier than its programme's end was on the air (later when delayed).
  let startedAt = Infinity;
  const encoder: ChildProcess = spawn(
    'ffmpeg',
    [
      ...['-hide_banner', '-loglevel', 'error', '-nostdin', '-re', '-f', 'lavfi'],
      ...['-i', source, '-c:a', 'libmp3lame', '-b:a', String(BITS_PER_SECOND), '-f', 'mp3', 'pipe:1'],
    ],
    { stdio: ['ignore', 'pipe', 'ignore'] },
  );
  encoder.stdout?.on('data', (chunk: Buffer) => {
    const now = Date.now();
    encodedBytes += chunk.length;
    const startMs = aired.at(-1)?.endMs ?? 0;
    const endMs = (encodedBytes * 8 * 1000) / BITS_PER_SECOND;
    startedAt = Math.min(startedAt, now - endMs);
    aired.push({ at: now, endMs });
    // A chunk is as late as its first byte: a held-up process gets the programme since in one chunk.
    latestMs = Math.max(latestMs, now - (startedAt + startMs));
    if (offAir) return;
    recent.push({ at: now, chunk });
    recent = recent.filter((c) => now - c.at <= BURST_MS);
    for (const listener of listeners) listener.write(chunk);
  });
  const server = http.createServer((request, response) => {
    if (request.url !== '/radio') return response.writeHead(404).end();
    if (offAir) return response.writeHead(503).end();
    response.writeHead(200, { 'content-type': 'audio/mpeg', 'icy-name': 'test radio' });
    for (const { chunk } of recent) response.write(chunk);
    listeners.add(response);
    response.on('close', () => listeners.delete(response));
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/radio`,
    startedAt: () => startedAt,
    programmeAt: (at) => aired[firstIndex(aired, (chunk) => chunk.at > at) - 1]?.endMs ?? 0,
    airedAt: (ms) => aired[firstIndex(aired, (chunk) => chunk.endMs > ms)]?.at ?? startedAt + ms,
    latestMs: () => latestMs,
    drop: async (seconds) => {
      offAir = true;
      recent = [];
      const from = Date.now();
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
      offAir = false;
      return { from, to: Date.now() };
    },
    close: async () => {
      encoder.kill('SIGKILL');
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/** The first index of `sorted` at which `after` holds (it holds from there on), or its length. */
function firstIndex<T>(sorted: T[], after: (item: T) => boolean): number {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (after(sorted[middle])) high = middle;
    else low = middle + 1;
  }
  return low;
}
