/*
 * The recorder: one detached process per instance that runs ffmpeg on one stream and reports through
 * the files of its instance folder (see recorder-state.ts). It outlives the server that started it.
 *
 *   node --import tsx recorder.ts <instance folder>
 *
 * It is part of the runtime an image freezes, so it imports only Node and its two siblings.
 * Phases: pending (no media yet) -> running (ffmpeg's progress shows media time) -> stopping -> exited.
 * A watchdog ends a capture that makes no media progress for the stall timeout and keeps what it has.
 * SIGTERM (the server's terminate) asks ffmpeg to quit with 'q', then SIGTERM, then SIGKILL, so the
 * file is finished whenever ffmpeg allows it.
 */
import { spawn, type ChildProcessByStdio } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { Readable, Writable } from 'node:stream';
import { buildFfmpegArgs } from './ffmpeg-args';
import {
  INSTANCE_FILES,
  readJson,
  STATE_FORMAT_VERSION,
  withoutCredentials,
  writeJsonAtomic,
  type RecorderConfig,
  type RecorderOutcome,
  type RecorderState,
  type StopCause,
  type StopRequest,
} from './recorder-state';

const dir = path.resolve(process.argv[2] ?? '.');
const configOrNothing = readJson<RecorderConfig>(path.join(dir, INSTANCE_FILES.config));
if (!configOrNothing) {
  process.stderr.write(`recorder: no readable ${INSTANCE_FILES.config} in ${dir}\n`);
  process.exit(2);
}
const config: RecorderConfig = configOrNothing;
const statePath = path.join(dir, INSTANCE_FILES.state);
const stallMs = config.settings.stallTimeoutSeconds * 1000;
/** A stream slower than real time is allowed this much longer than its duration before it is stopped. */
const overtimeMs = (config.duration * 1.25 + config.settings.stallTimeoutSeconds + 60) * 1000;

const logStream = fs.createWriteStream(config.logPath, { flags: 'a' });
const log = (source: 'recorder' | 'ffmpeg', line: string) => logStream.write(`${new Date().toISOString()} ${source}: ${withoutCredentials(line)}\n`);

const monotonic = () => performance.now();
const startedMono = monotonic();
let lastProgressMono = startedMono;
let lastSaveMono = 0;
let lastOutUs = 0;
let lastSize = 0;
let finished = false;
const recentErrors: string[] = [];

const state: RecorderState = {
  version: STATE_FORMAT_VERSION,
  instanceId: config.instanceId,
  recorderPid: process.pid,
  ffmpegPid: null,
  phase: 'pending',
  startedAt: new Date().toISOString(),
  firstMediaAt: null,
  lastProgressAt: null,
  endedAt: null,
  bytes: 0,
  mediaSeconds: 0,
  stopCause: null,
  outcome: null,
  updatedAt: new Date().toISOString(),
};

function save(force = false): void {
  const now = monotonic();
  if (!force && now - lastSaveMono < 1000) return;
  lastSaveMono = now;
  state.updatedAt = new Date().toISOString();
  try {
    writeJsonAtomic(statePath, state);
  } catch (error) {
    log('recorder', `could not write state: ${(error as Error).message}`);
  }
}

fs.writeFileSync(path.join(dir, INSTANCE_FILES.pid), `${process.pid}\n`);
save(true);
log('recorder', `capturing ${config.url} for ${config.duration} s at ${config.width}x${config.height} into ${config.outputPath}`);

const ffmpeg: ChildProcessByStdio<Writable, Readable, Readable> = spawn(config.ffmpegPath, buildFfmpegArgs(config), {
  stdio: ['pipe', 'pipe', 'pipe'],
});
state.ffmpegPid = ffmpeg.pid ?? null;
save(true);
ffmpeg.stdin.on('error', () => undefined); // ffmpeg may close its input first; nothing to do

/** ffmpeg's HLS reader says this for every playlist reload and segment: kept out of the log. */
const NOISE = /^\[hls @ [^\]]+\] (Opening '.*' for reading|Skip \('#EXT)/;
let lastProgressLogMono = startedMono;

forEachLine(ffmpeg.stderr, (line) => {
  if (NOISE.test(line)) return;
  log('ffmpeg', line);
  recentErrors.push(line);
  if (recentErrors.length > 30) recentErrors.shift();
});

let block: Record<string, string> = {};
forEachLine(ffmpeg.stdout, (line) => {
  const eq = line.indexOf('=');
  if (eq < 0) return;
  const key = line.slice(0, eq).trim();
  block[key] = line.slice(eq + 1).trim();
  if (key === 'progress') {
    onProgress(block);
    block = {};
  }
});

function onProgress(values: Record<string, string>): void {
  const outUs = Number(values.out_time_us ?? values.out_time_ms);
  const size = Number(values.total_size);
  let advanced = false;
  if (Number.isFinite(outUs) && outUs > lastOutUs) {
    lastOutUs = outUs;
    state.mediaSeconds = outUs / 1e6;
    advanced = true;
  }
  if (Number.isFinite(size) && size > lastSize) {
    lastSize = size;
    state.bytes = size;
    advanced = true;
  }
  if (!advanced) return;
  lastProgressMono = monotonic();
  state.lastProgressAt = new Date().toISOString();
  if (state.phase === 'pending' && lastOutUs > 0) {
    state.phase = 'running';
    state.firstMediaAt = state.lastProgressAt;
    log('recorder', 'media is flowing');
    save(true);
    return;
  }
  if (lastProgressMono - lastProgressLogMono >= 10_000) {
    lastProgressLogMono = lastProgressMono;
    log('recorder', `recorded ${state.mediaSeconds.toFixed(1)} s of ${config.duration} s, ${(state.bytes / 1024).toFixed(0)} KiB`);
  }
  save();
}

const watchdog = setInterval(() => {
  if (state.stopCause || finished) return;
  const now = monotonic();
  if (now - lastProgressMono > stallMs) stop('watchdog');
  else if (now - startedMono > overtimeMs) stop('overtime');
}, 500);

function stop(cause: StopCause): void {
  if (state.stopCause || finished) return;
  state.stopCause = cause;
  state.phase = 'stopping';
  save(true);
  const request = readJson<StopRequest>(path.join(dir, INSTANCE_FILES.stop));
  log('recorder', `stopping (${cause === 'operator' ? (request?.reason ?? 'terminated') : cause}); asking ffmpeg to finish the file`);
  // 'q' lets ffmpeg finish cleanly while media flows. Blocked on a stalled input it only notices signals,
  // and only a second one interrupts its network reads; the fragments already written stay playable.
  const graceMs = cause === 'watchdog' ? 0 : config.settings.stopGraceSeconds * 1000;
  if (graceMs > 0) {
    try {
      ffmpeg.stdin.write('q');
    } catch {
      // stdin already closed: the signals below still reach it
    }
  }
  const later = (ms: number, signal: NodeJS.Signals) => setTimeout(() => ffmpeg.kill(signal), ms).unref();
  later(graceMs, 'SIGTERM');
  later(graceMs + 1000, 'SIGTERM');
  later(graceMs + 12_000, 'SIGKILL');
}

process.on('SIGTERM', () => stop('operator'));
process.on('SIGINT', () => stop('operator'));
process.on('SIGHUP', () => undefined);
// Terminated while this process was still starting: stop at once.
if (fs.existsSync(path.join(dir, INSTANCE_FILES.stop))) stop('operator');

ffmpeg.on('error', (error) => finish(null, null, `Could not start ffmpeg (${config.ffmpegPath}): ${error.message}`));
ffmpeg.on('close', (code, signal) => finish(code, signal, null));

/** ffmpeg's closing words name no cause; the cause is on an earlier line. */
const GENERIC_FAILURE = /^Conversion failed!?$/;
/** The file cannot be written: the capture cannot go on, whatever media it already holds. */
const STORAGE_FAILURE = /No space left on device|Disk quota exceeded|Read-only file system|File too large/i;

function lastError(): string | null {
  const lines = recentErrors.map((line) => line.replace(/^\[[^\]]*\]\s*/, '')).reverse();
  const causes = lines.filter((line) => !GENERIC_FAILURE.test(line));
  const meaningful =
    causes.find((line) => STORAGE_FAILURE.test(line)) ??
    causes.find((line) => /error|fail|invalid|refused|not found|denied|timed out|no such|unable|could not|forbidden|unauthori[sz]ed|eof/i.test(line));
  return meaningful ?? lines[0] ?? null;
}

function outcomeFor(code: number | null, signal: string | null, startError: string | null): RecorderOutcome {
  const hasMedia = state.mediaSeconds > 0 && state.bytes > 0;
  const kept = hasMedia ? 'partial' : 'failed';
  const base = { exitCode: code, signal };
  if (startError) return { ...base, status: kept, reason: startError, endedBy: 'error' };
  const stall = config.settings.stallTimeoutSeconds;
  switch (state.stopCause) {
    case 'operator': {
      const request = readJson<StopRequest>(path.join(dir, INSTANCE_FILES.stop));
      return { ...base, status: kept, reason: request?.reason ?? 'Terminated', endedBy: 'operator' };
    }
    case 'watchdog':
      return {
        ...base,
        status: kept,
        reason: hasMedia ? `No media for ${stall} s: the stream stalled` : `No media received within ${stall} s`,
        endedBy: 'watchdog',
      };
    case 'overtime':
      return { ...base, status: kept, reason: 'The capture ran far beyond its duration (stream slower than real time)', endedBy: 'overtime' };
    default:
      break;
  }
  if (code === 0 && state.mediaSeconds >= config.duration - 1.5) return { ...base, status: 'completed', reason: null, endedBy: 'duration' };
  if (code === 0) {
    return {
      ...base,
      status: kept,
      reason: `The stream ended after ${state.mediaSeconds.toFixed(1)} s of the ${config.duration} s requested`,
      endedBy: 'stream-end',
    };
  }
  const why = lastError() ?? (signal ? `ffmpeg was killed (${signal})` : `ffmpeg exited with code ${code}`);
  // A full or read-only disk fails the recording; the fragments written before it stay in the file.
  return { ...base, status: STORAGE_FAILURE.test(why) ? 'failed' : kept, reason: why, endedBy: 'error' };
}

function finish(code: number | null, signal: string | null, startError: string | null): void {
  if (finished) return;
  finished = true;
  clearInterval(watchdog);
  try {
    state.bytes = fs.statSync(config.outputPath).size;
  } catch {
    state.bytes = 0;
  }
  state.outcome = outcomeFor(code, signal, startError);
  state.phase = 'exited';
  state.endedAt = new Date().toISOString();
  save(true);
  const { status, reason } = state.outcome;
  log('recorder', `finished: ${status}${reason ? ` (${reason})` : ''}; ${state.mediaSeconds.toFixed(1)} s of media, ${state.bytes} bytes`);
  logStream.end(() => process.exit(0));
}

process.on('uncaughtException', (error) => {
  log('recorder', `internal error: ${error.message}`);
  ffmpeg.kill('SIGTERM');
  finish(null, null, `Recorder error: ${error.message}`);
});

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
