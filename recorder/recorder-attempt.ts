/*
 * One ffmpeg run of a capture: a single connection to the stream, from spawn to exit. It reports media
 * progress, keeps ffmpeg's meaningful error lines, and ends a run that makes no media progress for the
 * stall timeout (a live stream whose playlist stops moving never ends by itself). Part of the recorder
 * runtime: Node and its siblings only.
 */
import { spawn } from 'node:child_process';
import type { Readable } from 'node:stream';

export interface AttemptOptions {
  ffmpegPath: string;
  args: string[];
  /** ffmpeg's environment (the egress proxy in http_proxy); default the recorder's. */
  env?: NodeJS.ProcessEnv;
  /** No media progress for this long ends the run; Infinity: the caller watches the stream (a fed run). */
  stallMs: number;
  /** The input comes through stdin (`write`), not from the network: stopping ends the input instead of typing 'q'. */
  fed?: boolean;
  /** Seconds between asking ffmpeg to quit ('q') and SIGTERM, for a stop that is not a stall. */
  stopGraceMs: number;
  log(source: 'recorder' | 'ffmpeg', line: string): void;
  /** Takes ffmpeg's lines that are content measurements (true: taken, not logged). */
  measure?(line: string): boolean;
  onStart(pid: number | null): void;
  onProgress(mediaSeconds: number, bytes: number): void;
}

export interface AttemptResult {
  code: number | null;
  signal: string | null;
  mediaSeconds: number;
  bytes: number;
  /** ffmpeg's most telling error line, if any. */
  error: string | null;
  /** Ended by the watchdog: no media progress for the stall timeout. */
  stalled: boolean;
  /** ffmpeg could not be started at all. */
  spawnError: string | null;
}

export interface Attempt {
  done: Promise<AttemptResult>;
  /** Asks ffmpeg to finish its current piece and quit. */
  stop(): void;
  /** A fed run: hands ffmpeg more input; false when ffmpeg is gone. */
  write(bytes: Uint8Array): Promise<boolean>;
}

/** ffmpeg's HLS reader says this for every playlist reload and segment: kept out of the log. */
const NOISE = /^\[(hls|segment) @ [^\]]+\] (Opening '.*' for (reading|writing)|Skip \('#EXT)/;
/** ffmpeg's closing words name no cause; the cause is on an earlier line. */
const GENERIC_FAILURE = /^Conversion failed!?$/;
/** The pieces cannot be written: nothing more can be recorded here. */
export const STORAGE_FAILURE = /No space left on device|Disk quota exceeded|Read-only file system|File too large/i;
/**
 * Lines that name a cause. A bare number is none: encoder statistics ("Qavg: 64761.492", "Avg QP:12.14")
 * hold numbers between 400 and 599 too, so an HTTP status counts only with the words ffmpeg puts around it.
 */
const MEANINGFUL =
  /error|fail|invalid|refused|not found|denied|timed out|no such|unable|could not|forbidden|unauthori[sz]ed|\beof\b|(?:HTTP error|Server returned) [45]\d\d/i;
/** Encoder statistics and input notices: never a cause, even when they contain a word above. */
const NEVER_A_CAUSE =
  /^(?:Opening '|frame [IPB]:|mb [IPB]|kb\/s:|Qavg:|ref [PB]|consecutive B-frames|coded y,u,v|i16 v,h,dc,p|i8c dc|Weighted P-Frames|\[(?:in|out)#)/;

export function startAttempt(options: AttemptOptions): Attempt {
  const recent: string[] = [];
  let mediaSeconds = 0;
  let bytes = 0;
  let lastProgressMono = performance.now();
  let stalled = false;
  let stopping = false;
  let spawnError: string | null = null;

  const ffmpeg = spawn(options.ffmpegPath, options.args, { stdio: ['pipe', 'pipe', 'pipe'], env: options.env });
  options.onStart(ffmpeg.pid ?? null);
  ffmpeg.stdin.on('error', () => undefined); // ffmpeg may close its input first; nothing to do

  forEachLine(ffmpeg.stderr, (line) => {
    if (NOISE.test(line) || options.measure?.(line)) return;
    options.log('ffmpeg', line);
    recent.push(line);
    if (recent.length > 30) recent.shift();
  });

  let block: Record<string, string> = {};
  forEachLine(ffmpeg.stdout, (line) => {
    const eq = line.indexOf('=');
    if (eq < 0) return;
    const key = line.slice(0, eq).trim();
    block[key] = line.slice(eq + 1).trim();
    if (key !== 'progress') return;
    const outUs = Number(block.out_time_us ?? block.out_time_ms);
    const size = Number(block.total_size);
    block = {};
    let advanced = false;
    if (Number.isFinite(outUs) && outUs / 1e6 > mediaSeconds) {
      mediaSeconds = outUs / 1e6;
      advanced = true;
    }
    if (Number.isFinite(size) && size > bytes) {
      bytes = size;
      advanced = true;
    }
    if (!advanced) return;
    lastProgressMono = performance.now();
    options.onProgress(mediaSeconds, bytes);
  });

  const killLater = (ms: number, signal: NodeJS.Signals) => setTimeout(() => ffmpeg.kill(signal), ms).unref();
  const terminate = (graceMs: number) => {
    if (options.fed) {
      // The end of its input makes ffmpeg write out what it holds and quit; signals only if it does not.
      ffmpeg.stdin.end();
      killLater(graceMs + 30_000, 'SIGTERM');
      killLater(graceMs + 40_000, 'SIGKILL');
      return;
    }
    if (graceMs > 0) {
      try {
        ffmpeg.stdin.write('q');
      } catch {
        // stdin already closed: the signals below still reach it
      }
    }
    // Blocked on a stalled input ffmpeg notices only signals, and only a second one interrupts its reads.
    killLater(graceMs, 'SIGTERM');
    killLater(graceMs + 3000, 'SIGTERM');
    killLater(graceMs + 12_000, 'SIGKILL');
  };

  // A fed run has no watchdog of its own (the reader watches the stream): no timer ticks for it.
  const watchdog = Number.isFinite(options.stallMs)
    ? setInterval(() => {
        if (stopping || performance.now() - lastProgressMono <= options.stallMs) return;
        stalled = true;
        stopping = true;
        options.log('recorder', `no media for ${Math.round(options.stallMs / 1000)} s: ending this connection`);
        terminate(0);
      }, 500)
    : undefined;

  const done = new Promise<AttemptResult>((resolve) => {
    const finish = (code: number | null, signal: string | null) => {
      clearInterval(watchdog);
      resolve({ code, signal, mediaSeconds, bytes, error: mostTellingLine(recent), stalled, spawnError });
    };
    ffmpeg.once('error', (error) => {
      spawnError = `Could not start ffmpeg (${options.ffmpegPath}): ${error.message}`;
      finish(null, null);
    });
    ffmpeg.once('close', (code, signal) => finish(code, signal));
  });

  let exited = false;
  void done.then(() => (exited = true));
  return {
    done,
    stop: () => {
      if (stopping) return;
      stopping = true;
      terminate(options.stopGraceMs);
    },
    write: (bytes) =>
      new Promise<boolean>((resolve) => {
        if (exited || stopping || !ffmpeg.stdin.writable) return resolve(false);
        ffmpeg.stdin.write(bytes, (error) => resolve(!error));
      }),
  };
}

/** ffmpeg's most telling recent line (oldest first in `recent`): a storage failure, else a cause, else the last plain line. */
export function mostTellingLine(recent: string[]): string | null {
  const lines = recent.map((line) => line.replace(/^\[[^\]]*\]\s*/, '')).reverse();
  const causes = lines.filter((line) => !GENERIC_FAILURE.test(line) && !NEVER_A_CAUSE.test(line));
  return (
    causes.find((line) => STORAGE_FAILURE.test(line)) ??
    causes.find((line) => MEANINGFUL.test(line)) ??
    causes[0] ??
    null
  );
}

function forEachLine(stream: Readable, onLine: (line: string) => void): void {
  let rest = '';
  stream.setEncoding('utf8');
  stream.on('data', (chunk: string) => {
    rest += chunk;
    const lines = rest.split(/\r?\n|\r/);
    rest = lines.pop() ?? '';
    for (const line of lines) if (line.trim()) onLine(line);
  });
  stream.on('end', () => {
    if (rest.trim()) onLine(rest);
  });
}
