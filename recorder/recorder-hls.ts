/*
 * An HLS capture in the recorder: the segment reader (hls-reader.ts) fetches each segment once and
 * writes it to an ffmpeg run through stdin; ffmpeg transcodes to the recording's configuration (or
 * copies, for the source as it is) into the same short pieces as a network run. A run lasts as long as
 * the content is continuous: a missed sequence number, a discontinuity or a reset starts the next one,
 * so every run's timestamps are clean and the pieces of all runs join without a repeat. A stall
 * needs no new run at all: when segments come again they follow on. Part of the recorder runtime:
 * Node and its siblings only.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import { buildFfmpegArgs, FED_INPUT } from './ffmpeg-args';
import type { SegmentLedger } from './hls-ledger';
import type { MediaSegment } from './hls-playlist';
import type { SegmentSinkForHls } from './hls-reader';
import { startAttempt, STORAGE_FAILURE, type Attempt } from './recorder-attempt';
import type { PieceStore } from './recorder-pieces';
import type { RecorderConfig, RunRecord } from './recorder-state';

export interface FedRunsDeps {
  config: RecorderConfig;
  pieces: PieceStore;
  /** A new run record, already listed with the capture's runs. */
  newRun(): RunRecord;
  log(source: 'recorder' | 'ffmpeg', line: string): void;
  /** Takes a run's content measurements from ffmpeg's lines (content-meter.ts). */
  measure(run: number, line: string): boolean;
  /** ffmpeg started (pid) or ended (null). */
  ffmpegChanged(pid: number | null): void;
  /** Media reached a run's pieces. */
  mediaFlowed(run: RunRecord): void;
  /** The pieces cannot be written (a full or read-only disk): nothing more can be recorded here. */
  storageFailed(reason: string): void;
  now(): string;
}

/** The ffmpeg runs an HLS capture writes its segments to. */
export class FedRuns implements SegmentSinkForHls {
  private attempt: Attempt | null = null;
  private run: RunRecord | null = null;
  /** Whether the runs copy the source: as configured, else decided from the first segment. */
  private copy: boolean | null;

  constructor(private readonly deps: FedRunsDeps) {
    this.copy = deps.config.sourceAsIs ? true : null;
  }

  async write(_segment: MediaSegment, bytes: Uint8Array, continuous: boolean): Promise<number> {
    if (this.attempt && !continuous) await this.close();
    if (this.copy === null) {
      this.copy = await sourceFits(this.deps.config, bytes);
      if (this.copy)
        this.deps.log(
          'recorder',
          `the stream is already H.264 and AAC at ${this.deps.config.width}x${this.deps.config.height}: recording it as it is, without transcoding`,
        );
    }
    if (!this.attempt) this.start();
    if (!(await (this.attempt as Attempt).write(bytes))) {
      // ffmpeg went away under us: its run ends with its error, and the segment starts the next one.
      await this.close();
      this.start();
      await (this.attempt as Attempt).write(bytes);
    }
    return (this.run as RunRecord).index;
  }

  /** Ends the current run: ffmpeg writes out what it holds and its last piece closes. */
  async close(): Promise<void> {
    const attempt = this.attempt;
    const run = this.run;
    if (!attempt || !run) return;
    this.attempt = null;
    attempt.stop();
    const result = await attempt.done;
    this.deps.ffmpegChanged(null);
    this.deps.pieces.collectClosed(run.index);
    run.endedAt = this.deps.now();
    run.error =
      result.spawnError ??
      (result.signal
        ? `ffmpeg was killed (${result.signal})`
        : result.code
          ? (result.error ?? `ffmpeg exited with code ${result.code}`)
          : null);
    if (!run.error) return;
    this.deps.log('recorder', `ffmpeg run ${run.index} ended: ${run.error}`);
    if (STORAGE_FAILURE.test(run.error)) this.deps.storageFailed(run.error);
  }

  private start(): void {
    const unwritable = this.deps.pieces.prepare();
    if (unwritable) this.deps.storageFailed(unwritable);
    const run = this.deps.newRun();
    this.run = run;
    this.attempt = startAttempt({
      ffmpegPath: this.deps.config.ffmpegPath,
      args: buildFfmpegArgs(
        { ...this.deps.config, sourceAsIs: this.copy === true },
        FED_INPUT,
        this.deps.pieces.outputFor(run.index),
      ),
      stallMs: Infinity,
      fed: true,
      stopGraceMs: 0,
      log: this.deps.log,
      measure: (line) => this.deps.measure(run.index, line),
      onStart: (pid) => this.deps.ffmpegChanged(pid),
      onProgress: (seconds, bytes) => {
        run.mediaSeconds = seconds;
        run.bytes = bytes;
        run.lastMediaAt = this.deps.now();
        run.firstMediaAt ??= run.lastMediaAt;
        this.deps.mediaFlowed(run);
      },
    });
  }
}

/**
 * Whether a segment already is what the recording would be made of (H.264 video at exactly the
 * configured frame size, AAC audio or none): then copying it loses nothing and costs a two-hundredth
 * of a transcode. Measured by ffprobe on the segment's bytes; any doubt means transcoding.
 */
export function sourceFits(
  config: Pick<RecorderConfig, 'ffprobePath' | 'width' | 'height'>,
  segment: Uint8Array,
): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = execFile(
      config.ffprobePath || 'ffprobe',
      [
        '-v',
        'error',
        '-f',
        'mpegts',
        '-show_entries',
        'stream=codec_type,codec_name,width,height',
        '-of',
        'json',
        'pipe:0',
      ],
      { encoding: 'utf8', timeout: 15_000 },
      (error, stdout) => {
        if (error) return resolve(false);
        try {
          const streams =
            (
              JSON.parse(stdout) as {
                streams?: { codec_type?: string; codec_name?: string; width?: number; height?: number }[];
              }
            ).streams ?? [];
          const video = streams.filter((s) => s.codec_type === 'video');
          const audio = streams.filter((s) => s.codec_type === 'audio');
          resolve(
            video.length === 1 &&
              video[0].codec_name === 'h264' &&
              video[0].width === config.width &&
              video[0].height === config.height &&
              audio.every((s) => s.codec_name === 'aac'),
          );
        } catch {
          resolve(false);
        }
      },
    );
    probe.stdin?.on('error', () => undefined);
    probe.stdin?.end(segment);
  });
}

/**
 * A recorder starting again on an HLS capture a crash cut short: the killed run's last piece, which
 * no list names, is removed, and the ledger forgets the segments its closed pieces do not hold, so
 * they are fetched again while the playlist still lists them and nothing is recorded twice.
 */
export function recoverCutRun(run: RunRecord, pieces: PieceStore, ledger: SegmentLedger): void {
  // The recorder's death ends ffmpeg's input, and ffmpeg then closes its last piece: every piece is listed
  // and holds all that was fed. Only an ffmpeg killed with it leaves a piece cut short.
  const cut = pieces.unlistedOf(run.index);
  if (cut.length === 0) return;
  for (const file of cut) fs.rmSync(file, { force: true });
  run.error = 'ffmpeg was killed mid-piece';
  pieces.measureAll();
  const forgotten = ledger.forgetAfter(run.index, pieces.secondsOf(run.index));
  if (forgotten.length) run.endReason = `Recorder was down (${forgotten.length} segment(s) to fetch again)`;
}
