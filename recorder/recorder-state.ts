/*
 * The files one recorder and the server share in DATA_DIR/instances/<id>/. This file is part of the
 * recorder runtime that images freeze, so it imports nothing but Node's own modules.
 *
 *   config.json   what to record, written by the server before the recorder starts (never changed)
 *   state.json    the recorder's progress and outcome, rewritten atomically (write + rename)
 *   recorder.pid  the recorder's process id (also the id of its process group), rewritten atomically
 *   recorder.lock.<n>  the claim of the recorder that holds the folder (see claimFolder)
 *   recorder.log  the recorder's and ffmpeg's log, what /api/instances/{id}/logs reads
 *   stop.json     written by the server to ask for a stop, with the reason, before it signals
 *   relaunches.json  written by the server each time it starts a recorder again that died in its window
 *   delivered.txt the pieces that reached the object store, one name a line (a capture that delivers)
 *   ledger.json   an HLS capture's segment ledger (hls-ledger.ts): what was kept, lost, and why
 *   content.jsonl the content readings, one 10 s window a line, appended (content-meter.ts)
 *   (the pieces are in <output>.parts/ until joined, with each run's list of them: see piecesDirOf)
 *   runtime/      the recorder's code, copied from the image the instance starts from
 */
import fs from 'node:fs';
import path from 'node:path';
import type { EgressPolicy } from './egress-guard';
import { maskUrlSecrets } from './url-secrets';
import type { ContentSummary } from './content-meter';
import type { DeliveryReport, RecorderDelivery } from './recorder-delivery';

export const STATE_FORMAT_VERSION = 1;

export const INSTANCE_FILES = {
  config: 'config.json',
  state: 'state.json',
  pid: 'recorder.pid',
  log: 'recorder.log',
  stop: 'stop.json',
  ledger: 'ledger.json',
  relaunches: 'relaunches.json',
  delivered: 'delivered.txt',
  content: 'content.jsonl',
  runtime: 'runtime',
} as const;

/** The recorder's code: what an image freezes and each instance runs a copy of. */
export const RUNTIME_FILES = [
  'recorder.ts',
  'recorder-state.ts',
  'ffmpeg-args.ts',
  'recorder-attempt.ts',
  'recorder-pieces.ts',
  'mpegts-seconds.ts',
  'recorder-delivery.ts',
  'recorder-handover.ts',
  'recorder-coverage.ts',
  'recorder-window.ts',
  'content-filters.ts',
  'content-meter.ts',
  'recorder-hls.ts',
  'hls-reader.ts',
  'hls-http.ts',
  'hls-playlist.ts',
  'hls-ledger.ts',
  'stream-url.ts',
  'egress-guard.ts',
  'egress-proxy.ts',
  'special-addresses.ts',
  'machine-addresses.ts',
  'url-secrets.ts',
] as const;
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
  /** First wait before trying a stream again that gave no media; it doubles up to retryMaxSeconds. */
  retryInitialSeconds: number;
  retryMaxSeconds: number;
  /** Wait between tries of a stream that dropped, for the first dropRetryForSeconds after the drop. */
  dropRetrySeconds: number;
  dropRetryForSeconds: number;
  /** Length of the pieces each ffmpeg run writes. */
  segmentSeconds: number;
}

export const DEFAULT_RECORDER_SETTINGS: RecorderSettings = {
  preset: 'veryfast',
  crf: 23,
  audioBitrate: '128k',
  stallTimeoutSeconds: 60,
  stopGraceSeconds: 3,
  retryInitialSeconds: 5,
  retryMaxSeconds: 30,
  dropRetrySeconds: 2,
  dropRetryForSeconds: 60,
  segmentSeconds: 4,
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
  /** ffprobe, to measure the pieces; null: looked for beside ffmpeg, then on PATH. */
  ffprobePath?: string | null;
  /** yt-dlp, to resolve stream pages; null: `yt-dlp` on PATH. */
  ytDlpPath?: string | null;
  /** Where the recorder may connect (absent in a config written before the egress guard: guarded). */
  egress?: EgressPolicy;
  /**
   * The recording window in the server's clock (ISO UTC). The recorder records until windowEnd,
   * whatever fails on the way; clockOffsetMs (server clock minus this machine's) maps it to local time.
   */
  windowStart: string;
  windowEnd: string;
  clockOffsetMs: number;
  outputPath: string;
  logPath: string;
  settings: RecorderSettings;
  /** Keep the stream's own video and audio (no transcoding): the frame size is the source's. */
  sourceAsIs?: boolean;
  /** false: the runs do not measure their content (content-filters.ts); absent: they do. */
  measureContent?: boolean;
  /** Where the pieces and the joined file go besides this machine; absent or null: they stay here (local store). */
  delivery?: RecorderDelivery | null;
  createdAt: string;
}

export type RecorderPhase = 'pending' | 'running' | 'stopping' | 'exited';
export type StopCause = 'operator' | 'window' | 'storage';

/** One ffmpeg run (a connection to the stream) of a recorder. Times are this machine's clock, ISO UTC. */
export interface RunRecord {
  index: number;
  startedAt: string;
  /** When its first media arrived; null for a run that got none. */
  firstMediaAt: string | null;
  /** When its media last advanced. */
  lastMediaAt: string | null;
  endedAt: string | null;
  /** Why it ended, as a person reads it ("Stream dropped (HTTP 404)"); null while it runs. */
  endReason: string | null;
  /** The same, as a gap cause (what the hole after it is put down to); null while it runs. */
  endCause?: GapCause | null;
  /** ffmpeg's own last error line, for the log and a failure's reason. */
  error: string | null;
  /** Seconds of media ffmpeg reported writing (its progress); the probed pieces are the final word. */
  mediaSeconds: number;
  bytes: number;
}

/**
 * Why a part of the window has no media, from a fixed vocabulary a person understands (the console and
 * the alarms translate it; `reason` adds the detail, e.g. the HTTP status).
 */
export const GAP_CAUSES = [
  'not_live_yet',
  'stream_dropped',
  'stream_stalled',
  'stream_refused',
  'sequence_reset',
  'recorder_down',
  'recorder_late',
  'server_down',
  'store_unreachable',
] as const;
export type GapCause = (typeof GAP_CAUSES)[number];

export interface Gap {
  start: string;
  end: string;
  cause: GapCause;
  /** One sentence with the detail ("Stream dropped (HTTP 404)"). */
  reason: string;
  /** Seconds of content the stream offered in this gap and the recording does not hold (0: nothing was on the air). */
  content_lost_seconds: number;
}

/** What the media covers of the window, in the server's clock. */
export interface Coverage {
  expectedSeconds: number;
  coveredSeconds: number;
  gaps: Gap[];
  /** Times media came back after it had flowed and stopped. */
  reconnects: number;
}

export interface RecorderOutcome {
  status: 'captured' | 'partial' | 'failed';
  reason: string | null;
  /** What ended the capture. */
  endedBy: 'window' | 'error' | 'crash' | StopCause;
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
  /** Bytes written: of the pieces while recording, of the joined output file at the end. */
  bytes: number;
  /** Seconds of media written. */
  mediaSeconds: number;
  stopCause: StopCause | null;
  /** Every ffmpeg run so far, across relaunches of the recorder. */
  runs: RunRecord[];
  /** Times the server started this recorder again after it died inside its window. */
  relaunches: number;
  coverage: Coverage | null;
  outcome: RecorderOutcome | null;
  /** What reached the object store, for a capture that delivers. */
  delivery?: DeliveryReport | null;
  /** What the content meter measured so far: the conditions going on, loudness, silence (content-meter.ts). */
  content?: ContentSummary | null;
  updatedAt: string;
}

export interface RelaunchRecord {
  count: number;
  lastAt: string;
}

export interface StopRequest {
  reason: string;
  requestedAt: string;
}

/**
 * The folder of a capture's pieces: beside its output file (`<stamp>.mp4` -> `<stamp>.parts/`), on the
 * same disk, so a full disk shows while recording and the joined file is renamed into place. It is
 * removed once the pieces are joined.
 */
export function piecesDirOf(config: Pick<RecorderConfig, 'outputPath'>): string {
  return `${config.outputPath.replace(/\.mp4$/i, '')}.parts`;
}

/** Writes JSON so a reader never sees half a file: a temporary file renamed over the old one. */
export function writeJsonAtomic(file: string, value: unknown): void {
  writeTextAtomic(file, `${JSON.stringify(value, null, 2)}\n`);
}

/** Write, then rename: a reader sees the old text or the new, never a file cut short or empty. */
function writeTextAtomic(file: string, text: string): void {
  const temporary = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(temporary, text);
  fs.renameSync(temporary, file);
}

/**
 * Notes the folder's recorder. Atomic: a server reading the file while it was being rewritten found it
 * empty, took the recorder for dead and started a second one in the same folder.
 */
export function writePidFile(dir: string, pid: number): void {
  writeTextAtomic(path.join(dir, INSTANCE_FILES.pid), `${pid}\n`);
}

/** A pid from a file that holds one, else undefined. */
export function readPidFile(file: string): number | undefined {
  try {
    const pid = Number.parseInt(fs.readFileSync(file, 'utf8'), 10);
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Whether `pid` is a live process, and (on Linux) still the one we mean: its command line must contain
 * `marker` (a path only that process has), so a recycled pid is not mistaken for a recorder.
 */
export function processAlive(pid: number | null | undefined, marker?: string): boolean {
  if (!pid || !Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  if (process.platform !== 'linux') return true;
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const status = stat.charAt(stat.lastIndexOf(')') + 2);
    if (status === 'Z' || status === 'X') return false;
    if (marker && !fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(marker)) return false;
    return true;
  } catch {
    return false;
  }
}

const LOCK = /^recorder\.lock\.(\d+)$/;
/** Claims that lost a race are retried; this many in a row means the folder is not behaving as a folder. */
const CLAIM_TRIES = 1000;

/**
 * Claims the instance folder for recorder `pid`: null when it holds it, else the pid of the live
 * recorder that does. Claims are numbered generations, recorder.lock.1, .2, ...: the highest one holds.
 * A recorder takes the next number only when the holder of the highest is dead (its command line,
 * which names the folder, is gone), and a number can be created once (a hard link fails if it exists):
 * of recorders started at once, or of two that both found the holder dead, exactly one wins.
 */
export function claimFolder(dir: string, pid = process.pid): number | null {
  const lockOf = (generation: number) => path.join(dir, `recorder.lock.${generation}`);
  const temporary = path.join(dir, `recorder.lock.${pid}.tmp`);
  for (let tries = 0; tries < CLAIM_TRIES; tries++) {
    const generations = fs
      .readdirSync(dir)
      .map((name) => LOCK.exec(name))
      .filter((match) => match !== null)
      .map((match) => Number(match[1]));
    const current = Math.max(0, ...generations);
    const holder = current > 0 ? readPidFile(lockOf(current)) : undefined;
    if (holder === pid) return null;
    if (holder !== undefined && processAlive(holder, dir)) return holder;
    fs.writeFileSync(temporary, `${pid}\n`);
    try {
      fs.linkSync(temporary, lockOf(current + 1));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST') continue; // another claim won: look again
      throw error;
    } finally {
      fs.rmSync(temporary, { force: true });
    }
    for (const generation of generations) fs.rmSync(lockOf(generation), { force: true });
    return null;
  }
  throw new Error(`Could not claim ${dir}: its recorder claims kept changing`);
}

export function readJson<T>(file: string): T | undefined {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8')) as T;
  } catch {
    return undefined;
  }
}

/** `text` with the user info and secret query values of every URL in it masked: stream credentials never reach a log. */
export const withoutCredentials = maskUrlSecrets;
