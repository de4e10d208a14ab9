import { execFile, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { STREAM_TEST_CLIP_MINUTES, STREAM_TEST_SECONDS, type StreamTestReport } from '../../../contract/stream-test';
import { maskUrlSecrets } from '../../../recorder/url-secrets';
import { newId } from '../../capture/ids';
import { recorderEnvironment } from '../../capture/local/processes';
import { shippedRecorderRuntime, type RecorderRuntime } from '../../capture/local/recorder-runtime';
import { resolveFfmpeg, resolveFfprobe } from '../../capture/ffmpeg-path';
import { readJson, writeJsonAtomic } from '../../../recorder/recorder-state';
import {
  DEFAULT_RECORDER_SETTINGS,
  INSTANCE_FILES,
  STATE_FORMAT_VERSION,
  type RecorderConfig,
  type RecorderState,
} from '../../../recorder/protocol';
import type { Clock } from '../../lib/clock';
import { conflict, HttpError, notFound, serviceUnavailable } from '../../lib/http-error';

const run = promisify(execFile);
/** Tests at once on this server: each is a recorder (ffmpeg) for half a minute. */
const MAX_RUNNING = 2;
/** Beyond its window a recorder measures and joins its pieces; one still running this much later is killed. */
const FINISH_GRACE_MS = 90_000;
const CLIP = 'clip.mp4';

export interface StreamTestsOptions {
  /** Tests live in DATA_DIR/stream-tests/<id>/. */
  dataDir: string;
  clock: Clock;
  ffmpegPath?: string;
  ffprobePath?: string;
  ytDlpPath?: string;
  allowPrivateStreamHosts: boolean;
  /** The launch's own check (stream-url-guard.ts): throws the 400 to answer; answers the internal hosts the recorder may reach. */
  checkStreamUrl: (url: string) => Promise<string[]>;
  /** Starts the demo stream when `url` is its address (it is transcoded only while used). */
  warmUp?: (url: string) => void;
  /** Seconds recorded (STREAM_TEST_SECONDS; shorter in tests). */
  seconds?: number;
  clipTtlMs?: number;
  recorderRuntime?: RecorderRuntime;
}

/**
 * "Test stream": records a stream now with the recorder the fleet runs (the same runtime, egress guard
 * and proxy, and launch-time host check), outside the fleet (no instance, no recording, no Friday job),
 * and reports what the clip holds. The clip is deleted STREAM_TEST_CLIP_MINUTES later, and any left by
 * an earlier run of the server at the next test.
 */
export class StreamTests {
  private readonly dir: string;
  private readonly seconds: number;
  private readonly clipTtlMs: number;
  private running = 0;
  private readonly expiries = new Set<{ disarm(): void }>();

  constructor(private readonly options: StreamTestsOptions) {
    this.dir = path.join(options.dataDir, 'stream-tests');
    this.seconds = options.seconds ?? STREAM_TEST_SECONDS;
    this.clipTtlMs = options.clipTtlMs ?? STREAM_TEST_CLIP_MINUTES * 60_000;
  }

  async test(url: string): Promise<StreamTestReport> {
    const trustedHosts = await this.options.checkStreamUrl(url);
    if (this.running >= MAX_RUNNING)
      throw conflict(`${MAX_RUNNING} stream tests are already running; try again when one has finished`);
    const ffmpeg = resolveFfmpeg(this.options.ffmpegPath);
    if (!ffmpeg) throw serviceUnavailable('ffmpeg was not found: set FFMPEG_PATH or install ffmpeg');
    const ffprobePath = resolveFfprobe(ffmpeg.path, this.options.ffprobePath) ?? 'ffprobe';
    this.running += 1;
    try {
      this.sweep();
      this.options.warmUp?.(url);
      const id = newId('st');
      const dir = path.join(this.dir, id);
      fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
      this.expireLater(dir);
      const state = await this.record(dir, id, url, ffmpeg.path, ffprobePath, trustedHosts);
      const clip = path.join(dir, CLIP);
      if (!state?.outcome || state.bytes === 0 || !fs.existsSync(clip)) {
        const reason = state?.outcome?.reason ?? 'the recorder ended without a result';
        throw new HttpError(422, `Nothing could be recorded from ${url}: ${reason}`);
      }
      const streams = await probe(ffprobePath, clip);
      if (!streams.video && !streams.audio)
        throw new HttpError(422, `${url} gave no video or audio: it is not a media stream`);
      return {
        id,
        url: maskUrlSecrets(url),
        seconds: Math.round(state.mediaSeconds * 10) / 10,
        bytes: fs.statSync(clip).size,
        ...streams,
        clip_expires_at: new Date(this.options.clock.now().getTime() + this.clipTtlMs).toISOString(),
      };
    } finally {
      this.running -= 1;
    }
  }

  /** The clip of test `id` while it is kept. */
  clip(id: string): { path: string; size: number } {
    const file = path.join(this.dir, id, CLIP);
    if (!fs.existsSync(file)) throw notFound(`The clip of stream test ${id} has expired or does not exist`);
    return { path: file, size: fs.statSync(file).size };
  }

  /** Stops the deletion timers (the server is closing: the next start's sweep deletes what is left). */
  close(): void {
    for (const timer of this.expiries) timer.disarm();
    this.expiries.clear();
  }

  private async record(
    dir: string,
    id: string,
    url: string,
    ffmpegPath: string,
    ffprobePath: string,
    trustedHosts: string[],
  ): Promise<RecorderState | undefined> {
    const start = this.options.clock.now();
    const config: RecorderConfig = {
      version: STATE_FORMAT_VERSION,
      instanceId: id,
      name: `stream-test-${id.slice(-6)}`,
      url,
      duration: this.seconds,
      width: 1280,
      height: 720,
      mosqueId: null,
      method: 'stream-test',
      jobId: null,
      idempotencyKey: id,
      recordingId: null,
      imageId: null,
      ffmpegPath,
      ffprobePath,
      ytDlpPath: this.options.ytDlpPath ?? null,
      egress: { allowPrivate: this.options.allowPrivateStreamHosts, trustedHosts },
      windowStart: start.toISOString(),
      windowEnd: new Date(start.getTime() + this.seconds * 1000).toISOString(),
      clockOffsetMs: start.getTime() - Date.now(),
      outputPath: path.join(dir, CLIP),
      logPath: path.join(dir, INSTANCE_FILES.log),
      // A stream that does not answer is retried within the half minute, not for a minute.
      settings: {
        ...DEFAULT_RECORDER_SETTINGS,
        stallTimeoutSeconds: Math.min(DEFAULT_RECORDER_SETTINGS.stallTimeoutSeconds, this.seconds),
      },
      // What the stream itself carries is what the operator asked about.
      sourceAsIs: true,
      createdAt: start.toISOString(),
    };
    writeJsonAtomic(path.join(dir, INSTANCE_FILES.config), config);
    const runtime = this.options.recorderRuntime ?? shippedRecorderRuntime();
    const child = spawn(process.execPath, [...runtime.nodeArgs, path.join(runtime.dir, runtime.entry), dir], {
      stdio: 'ignore',
      cwd: dir,
      env: recorderEnvironment(process.env),
    });
    const killer = setTimeout(() => child.kill('SIGKILL'), this.seconds * 1000 + FINISH_GRACE_MS);
    try {
      await new Promise<void>((resolve, reject) => {
        child.once('error', (error) => reject(serviceUnavailable(`Could not start the recorder: ${error.message}`)));
        child.once('exit', () => resolve());
      });
    } finally {
      clearTimeout(killer);
    }
    return readJson<RecorderState>(path.join(dir, INSTANCE_FILES.state));
  }

  private expireLater(dir: string): void {
    const timer = this.options.clock.timer();
    this.expiries.add(timer);
    timer.arm(this.clipTtlMs, () => {
      this.expiries.delete(timer);
      fs.rmSync(dir, { recursive: true, force: true });
    });
  }

  /** Deletes the tests older than the clip's lifetime (left by a server that stopped before their timers fired). */
  private sweep(): void {
    if (!fs.existsSync(this.dir)) return;
    const oldest = this.options.clock.now().getTime() - this.clipTtlMs;
    for (const entry of fs.readdirSync(this.dir)) {
      const dir = path.join(this.dir, entry);
      if (fs.statSync(dir).mtimeMs < oldest) fs.rmSync(dir, { recursive: true, force: true });
    }
  }
}

interface ProbedStream {
  codec_type?: string;
  codec_name?: string;
  width?: number;
  height?: number;
  avg_frame_rate?: string;
  r_frame_rate?: string;
  sample_aspect_ratio?: string;
  sample_rate?: string;
  channels?: number;
}

/** "25/1" -> 25, "30000/1001" -> 29.97; "0/0" (unknown) -> null. */
function ratio(text: string | undefined): number | null {
  const [num, den] = (text ?? '').split('/').map(Number);
  return num > 0 && den > 0 ? num / den : null;
}

/**
 * The stream's frame rate: the one it declares (r_frame_rate) when the clip's measured average agrees
 * within 1%, since a frame dropped or repeated in a few seconds' clip (a busy encoder) makes 25 fps read
 * 24.99; otherwise the measured average (a variable-rate stream declares a base rate it never plays).
 */
export function frameRate(stream: Pick<ProbedStream, 'avg_frame_rate' | 'r_frame_rate'>): number | null {
  const declared = ratio(stream.r_frame_rate);
  const average = ratio(stream.avg_frame_rate);
  const rate =
    declared !== null && average !== null && Math.abs(average - declared) <= declared * 0.01 ? declared : average;
  return rate === null ? null : Math.round(rate * 100) / 100;
}

/**
 * The size the picture is shown at: an anamorphic source's pixels are not square (a 16:9 PAL frame is
 * 720x576 pixels of 64:45), so its width is its pixels' times their shape. What the operator sizes a
 * recording by is this; the pixel count alone made a 16:9 source read as 5:4.
 */
export function shownSize(stream: Pick<ProbedStream, 'width' | 'height' | 'sample_aspect_ratio'>): {
  width: number;
  height: number;
} {
  const width = stream.width ?? 0;
  const height = stream.height ?? 0;
  const shape = ratio(stream.sample_aspect_ratio?.replace(':', '/'));
  if (shape === null || shape === 1) return { width, height };
  return { width: Math.round((width * shape) / 2) * 2, height };
}

/** The first video and audio stream of a local file, as ffprobe reads them. */
async function probe(ffprobePath: string, file: string): Promise<Pick<StreamTestReport, 'video' | 'audio'>> {
  const { stdout } = await run(
    ffprobePath,
    [
      '-v',
      'error',
      '-show_entries',
      'stream=codec_type,codec_name,width,height,sample_aspect_ratio,avg_frame_rate,r_frame_rate,sample_rate,channels',
      '-of',
      'json',
      file,
    ],
    { timeout: 30_000 },
  );
  const streams = (JSON.parse(stdout) as { streams?: ProbedStream[] }).streams ?? [];
  const video = streams.find((s) => s.codec_type === 'video');
  const audio = streams.find((s) => s.codec_type === 'audio');
  return {
    video: video?.codec_name ? { codec: video.codec_name, ...shownSize(video), frame_rate: frameRate(video) } : null,
    audio: audio?.codec_name
      ? {
          codec: audio.codec_name,
          sample_rate: audio.sample_rate ? Number(audio.sample_rate) : null,
          channels: audio.channels ?? null,
        }
      : null,
  };
}
