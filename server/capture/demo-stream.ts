import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import type { Clock, Timer } from '../lib/clock';
import { resolveFfmpeg } from './ffmpeg-path';

export const DEMO_PLAYLIST = 'stream.m3u8';
const SEGMENT_FILE = /^stream\d*\.(m3u8|ts)$/;
const MAX_RESTART_DELAY_MS = 30_000;
const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);
/** How long the generator runs after the last request for the stream (its playlist, a segment, its URL). */
export const DEMO_IDLE_MS = 5 * 60_000;

/**
 * Whether `url` is this server's own demo stream (the URL `GET /api/instances/demo-stream` hands out):
 * the playlist path on the port this server listens on, at loopback or the configured listening host.
 */
export function isDemoStreamUrl(url: URL, port: number | undefined, listenHost: string): boolean {
  if (port === undefined || url.protocol !== 'http:' || url.pathname !== `/demo/${DEMO_PLAYLIST}`) return false;
  if (Number(url.port || 80) !== port) return false;
  return LOOPBACK_HOSTS.has(url.hostname) || url.hostname === listenHost.toLowerCase();
}

/**
 * The built-in test broadcast (DEMO_STREAM): ffmpeg generates a live HLS test pattern with a tone into
 * DATA_DIR/demo-stream/, served at /demo/stream.m3u8, so a capture can be tried with no internet.
 * Low resolution and frame rate keep it cheap; a crashed generator is restarted with back-off. It runs
 * only while used: the first request starts it, and DEMO_IDLE_MS without one stops it (transcoding
 * with nobody watching cost a few percent of a core all day).
 */
export class DemoStream {
  private child: ChildProcess | undefined;
  private stopping = true;
  private failures = 0;
  private restartTimer: NodeJS.Timeout | undefined;
  private lastUse = 0;
  private readonly idleTimer: Timer;

  constructor(
    readonly dir: string,
    private readonly ffmpegPath: string | undefined,
    private readonly log: FastifyBaseLogger,
    private readonly clock: Clock,
  ) {
    this.idleTimer = clock.timer();
  }

  get running(): boolean {
    return this.child !== undefined && this.child.exitCode === null;
  }

  /** Someone wants the stream: start it if it is not running, and keep it for DEMO_IDLE_MS more. */
  use(): void {
    this.lastUse = this.clock.now().getTime();
    if (this.stopping) {
      this.start();
      if (this.running) this.log.info('demo stream started');
    }
    this.idleTimer.arm(DEMO_IDLE_MS, () => this.stopIfIdle());
  }

  private stopIfIdle(): void {
    const idleFor = this.clock.now().getTime() - this.lastUse;
    if (idleFor < DEMO_IDLE_MS) {
      this.idleTimer.arm(DEMO_IDLE_MS - idleFor, () => this.stopIfIdle());
      return;
    }
    this.log.info('demo stream stopped: unused for 5 minutes');
    void this.stop();
  }

  private start(): void {
    this.stopping = false;
    fs.rmSync(this.dir, { recursive: true, force: true });
    fs.mkdirSync(this.dir, { recursive: true });
    const ffmpeg = resolveFfmpeg(this.ffmpegPath);
    if (!ffmpeg) {
      this.log.warn('demo stream disabled: ffmpeg was not found');
      return;
    }
    const startedAt = Date.now();
    const child = spawn(
      ffmpeg.path,
      [
        '-hide_banner',
        '-loglevel',
        'error',
        '-nostdin',
        '-re',
        '-f',
        'lavfi',
        '-i',
        'testsrc2=size=640x360:rate=15',
        '-re',
        '-f',
        'lavfi',
        '-i',
        'sine=frequency=440:sample_rate=44100',
        '-c:v',
        'libx264',
        '-preset',
        'ultrafast',
        '-tune',
        'zerolatency',
        '-g',
        '15',
        '-pix_fmt',
        'yuv420p',
        '-b:v',
        '500k',
        '-c:a',
        'aac',
        '-b:a',
        '64k',
        '-f',
        'hls',
        '-hls_time',
        '1',
        '-hls_list_size',
        '6',
        '-hls_flags',
        'delete_segments',
        '-hls_segment_filename',
        path.join(this.dir, 'stream%d.ts'),
        path.join(this.dir, DEMO_PLAYLIST),
      ],
      { stdio: ['ignore', 'ignore', 'pipe'] },
    );
    this.child = child;
    let errors = '';
    child.stderr?.on('data', (chunk: Buffer) => {
      errors = (errors + chunk.toString()).slice(-500);
    });
    child.on('error', (error) => this.log.warn({ err: error }, 'demo stream could not start'));
    child.on('exit', (code, signal) => {
      // A generator stopped for idleness may exit after the next use started another: not a crash.
      if (this.child !== child) return;
      this.child = undefined;
      if (this.stopping) return;
      this.failures = Date.now() - startedAt > 60_000 ? 1 : this.failures + 1;
      const delay = Math.min(MAX_RESTART_DELAY_MS, 1000 * 2 ** (this.failures - 1));
      this.log.warn({ code, signal, stderr: errors.trim() }, `demo stream stopped; restarting in ${delay / 1000} s`);
      this.restartTimer = setTimeout(() => {
        if (!this.stopping) this.start();
      }, delay);
      this.restartTimer.unref();
    });
  }

  async stop(): Promise<void> {
    this.stopping = true;
    this.idleTimer.disarm();
    clearTimeout(this.restartTimer);
    const child = this.child;
    if (!child || child.exitCode !== null) return;
    await new Promise<void>((resolve) => {
      const kill = setTimeout(() => child.kill('SIGKILL'), 3000);
      child.once('exit', () => {
        clearTimeout(kill);
        resolve();
      });
      child.kill('SIGTERM');
    });
  }

  /** A file of the stream, or undefined for any other name. Asking for one is a use (the first starts the stream). */
  file(name: string): { path: string; type: string } | undefined {
    if (!SEGMENT_FILE.test(name)) return undefined;
    this.use();
    const file = path.join(this.dir, name);
    if (!fs.existsSync(file)) return undefined;
    return { path: file, type: name.endsWith('.m3u8') ? 'application/vnd.apple.mpegurl' : 'video/mp2t' };
  }
}
