/*
 * The files one recorder and the server share in DATA_DIR/instances/<id>/. This file is part of the
 * recorder runtime that images freeze, so it imports nothing but Node's own modules.
 *
 *   config.json   what to record, written by the server before the recorder starts (never changed)
 *   state.json    the recorder's progress and outcome, rewritten atomically (write + rename)
 *   recorder.pid  the recorder's process id (also the id of its process group)
 *   recorder.log  the recorder's and ffmpeg's log, what /api/instances/{id}/logs reads
 *   stop.json     written by the server to ask for a stop, with the reason, before it signals
 *   runtime/      the recorder's code, copied from the image the instance starts from
 */
import fs from 'node:fs';

export const STATE_FORMAT_VERSION = 1;

export const INSTANCE_FILES = {
  config: 'config.json',
  state: 'state.json',
  pid: 'recorder.pid',
  log: 'recorder.log',
  stop: 'stop.json',
  runtime: 'runtime',
} as const;

/** The recorder's code: what an image freezes and each instance runs a copy of. */
export const RUNTIME_FILES = ['recorder.ts', 'recorder-state.ts', 'ffmpeg-args.ts'] as const;
export const RUNTIME_ENTRY = 'recorder.ts';

/** Encoder and watchdog settings; an image freezes them with the runtime. */
export interface RecorderSettings {
  /** x264 preset. */
  preset: string;
  crf: number;
  audioBitrate: string;
  stallTimeoutSeconds: number;
  /** Seconds between asking ffmpeg to quit ('q') and sending it SIGTERM. */
  stopGraceSeconds: number;
}

export const DEFAULT_RECORDER_SETTINGS: RecorderSettings = {
  preset: 'veryfast',
  crf: 23,
  audioBitrate: '128k',
  stallTimeoutSeconds: 60,
  stopGraceSeconds: 3,
};

export interface RecorderConfig {
  version: typeof STATE_FORMAT_VERSION;
  instanceId: string;
  name: string;
  url: string;
  duration: number;
  width: number;
  height: number;
  mosqueId: string | null;
  method: string;
  jobId: string | null;
  idempotencyKey: string;
  recordingId: string | null;
  imageId: string | null;
  ffmpegPath: string;
  outputPath: string;
  logPath: string;
  settings: RecorderSettings;
  createdAt: string;
}

export type RecorderPhase = 'pending' | 'running' | 'stopping' | 'exited';
export type StopCause = 'operator' | 'watchdog' | 'overtime';

export interface RecorderOutcome {
  status: 'completed' | 'partial' | 'failed';
  reason: string | null;
  /** What ended the capture. */
  endedBy: 'duration' | 'stream-end' | 'error' | 'crash' | StopCause;
  exitCode: number | null;
  signal: string | null;
}

export interface RecorderState {
  version: typeof STATE_FORMAT_VERSION;
  instanceId: string;
  recorderPid: number;
  ffmpegPid: number | null;
  phase: RecorderPhase;
  startedAt: string;
  firstMediaAt: string | null;
  lastProgressAt: string | null;
  endedAt: string | null;
  /** Bytes of the output file. */
  bytes: number;
  /** Seconds of media written. */
  mediaSeconds: number;
  stopCause: StopCause | null;
  outcome: RecorderOutcome | null;
  updatedAt: string;
}

export interface StopRequest {
  reason: string;
  requestedAt: string;
}

/** Writes JSON so a reader never sees half a file: a temporary file renamed over the old one. */
export function writeJsonAtomic(file: string, value: unknown): void {
  const temporary = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(temporary, `${JSON.stringify(value, null, 2)}\n`);
  fs.renameSync(temporary, file);
}

export function readJson<T>(file: string): T | undefined {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8')) as T;
  } catch {
    return undefined;
  }
}

/** `text` with the user:password of every URL in it masked: stream credentials never reach a log. */
export function withoutCredentials(text: string): string {
  return text.replace(/([a-z][a-z0-9+.-]*:\/\/)[^\s/?#@'"]+@/gi, '$1[redacted]@');
}
