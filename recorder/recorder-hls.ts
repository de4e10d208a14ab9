/*
 * An HLS capture in the recorder: the segment reader (hls-reader.ts) fetches each segment once and
 * queues it for an ffmpeg run's stdin (fed-queue.ts: on disk while ffmpeg is behind, so the reader
 * never waits for it); ffmpeg transcodes to the recording's configuration (or copies, for the source as
 * it is) into the same short pieces as a network run. A run lasts as long as the content is continuous:
 * a missed sequence number, a reset, or a discontinuity that changes the streams' codecs or parameters
 * starts the next one, so the pieces of all runs join without a repeat; across a discontinuity that
 * changes nothing but the timestamps, ffmpeg joins them in the same run. A stall needs no new run at
 * all: when segments come again they follow on.
 *
 * A run whose ffmpeg cannot keep up (a transcode on a starved CPU) falls behind by a bounded backlog
 * only (`overloadBacklogSeconds` of segments waiting in its queue): past it, while ffmpeg goes no faster
 * than real time, new segments are let go until ffmpeg has worked through half of it or goes faster
 * than the stream again, and the reader counts them as lost by us (`recorder_overloaded`, with the
 * speed ffmpeg reached), never as the stream's fault. The bound is what ffmpeg still has to do after
 * the window closes before the recording can be joined and delivered. Part of the recorder runtime:
 * Node and its siblings only.
 */
import fs from 'node:fs';
import { buildFfmpegArgs, FED_INPUT } from './ffmpeg-args';
import { FedQueue, queueFileOf } from './fed-queue';
import type { SegmentLedger } from './hls-ledger';
import type { MediaSegment } from './hls-playlist';
import { mpegTsCodecs } from './mpegts-codecs';
import type { LetGo, SegmentSinkForHls } from './hls-reader';
import { startAttempt, STORAGE_FAILURE, type Attempt } from './recorder-attempt';
import type { PieceStore } from './recorder-pieces';
import type { RecorderConfig, RunRecord } from './protocol';
import { sourceFits } from './source-fit';

/** ffmpeg's speed is the media it wrote over about this long. */
const SPEED_SPAN_MS = 30_000;
const SPEED_MIN_SPAN_MS = 5000;

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
  /** The machine this recorder runs on, as an overload names it. */
  host: string;
}

/** The ffmpeg runs an HLS capture writes its segments to. */
export class FedRuns implements SegmentSinkForHls {
  private attempt: Attempt | null = null;
  private run: RunRecord | null = null;
  /** The current run's input: segments reach its ffmpeg through it, the reader never waits on ffmpeg. */
  private queue: FedQueue | null = null;
  /** The current run's ffmpeg has exited. */
  private exited = false;
  /** Whether the runs copy the source: as configured, else decided from the first segment. */
  private copy: boolean | null;
  /** What the current run's first segment carried (mpegts-codecs.ts); null: not known. */
  private codecs: string | null = null;
  /** The sequence number of the last segment written (or let go). */
  private lastSequence: number | null = null;
  /** New segments are let go while ffmpeg works its backlog down (it went past the bound). */
  private shedding = false;
  /**
   * Seconds of media ffmpeg had written (its own progress), at instants of the last SPEED_SPAN_MS (ms
   * since the epoch): its speed. Not what it took of its queue: its stdin and input buffers hold several
   * segments, so a starved ffmpeg takes nothing for many seconds while it works.
   */
  private written: { at: number; seconds: number }[] = [];

  constructor(private readonly deps: FedRunsDeps) {
    this.copy = deps.config.sourceAsIs ? true : null;
  }

  async write(
    segment: MediaSegment,
    bytes: Uint8Array,
    continuous: boolean,
    kept: (run: number) => void,
  ): Promise<number | LetGo> {
    if (this.attempt && !continuous && !this.carriesOn(segment, bytes)) await this.close();
    if (!this.attempt) this.codecs = mpegTsCodecs(bytes);
    this.lastSequence = segment.sequence;
    if (this.copy === null) {
      this.copy = await sourceFits(this.deps.config, bytes);
      if (this.copy)
        this.deps.log(
          'recorder',
          `the stream is already H.264 and AAC at ${this.deps.config.width}x${this.deps.config.height}: recording it as it is, without transcoding`,
        );
    }
    // ffmpeg went away under us: its run ends with its error, and the segment starts the next one.
    if (this.attempt && (this.exited || this.queue?.broken)) await this.close();
    if (!this.attempt) this.start();
    const queue = this.queue as FedQueue;
    const letGo = this.overloaded(queue);
    if (letGo) return letGo;
    const run = (this.run as RunRecord).index;
    kept(run);
    queue.push(bytes, segment.duration);
    return run;
  }

  /**
   * Whether ffmpeg is too far behind to be given the next segment: its backlog reached the bound, and
   * until it is down to half of it or ffmpeg goes faster than the stream, segments are let go (one hole
   * per episode, not one every other segment). Says how fast ffmpeg took the stream meanwhile.
   */
  private overloaded(queue: FedQueue): LetGo | null {
    const bound = this.deps.config.settings.overloadBacklogSeconds;
    const backlog = queue.backlogSeconds;
    const at = Date.parse(this.deps.now());
    // ffmpeg had nothing left to do: its speed is measured from here, not over the time it waited.
    const written = (this.run as RunRecord).mediaSeconds;
    if (backlog === 0) this.written = [];
    this.written.push({ at, seconds: written });
    while (this.written.length > 2 && at - this.written[1].at >= SPEED_SPAN_MS) this.written.shift();
    const first = this.written[0];
    // Over less than a few seconds a speed says nothing (ffmpeg reports its progress twice a second).
    const speed = at - first.at >= SPEED_MIN_SPAN_MS ? (written - first.seconds) / ((at - first.at) / 1000) : null;
    const wasShedding = this.shedding;
    // Let go only while ffmpeg is known to go no faster than the stream: a DVR playlist catching up after
    // a stall queues a minute of segments at once, which an ffmpeg faster than real time works off, and
    // an ffmpeg whose machine's load passed works off its backlog too. Let go until then, a segment was
    // lost for a reason that read "ffmpeg at 1.05x real time": what bare ffmpeg would have kept.
    const catchingUp = speed !== null && speed > 1;
    this.shedding = wasShedding ? backlog > bound / 2 && !catchingUp : backlog >= bound && speed !== null && speed < 1;
    if (!this.shedding) {
      if (wasShedding)
        this.deps.log(
          'recorder',
          catchingUp
            ? `ffmpeg is ${Math.round(backlog)} s behind and catching up (at ${speed.toFixed(2)}x real time): segments go to it again`
            : `ffmpeg is ${Math.round(backlog)} s behind again: segments go to it again`,
        );
      return null;
    }
    const pace = `at ${(speed ?? 0).toFixed(2)}x real time`;
    const overloaded = `Recorder overloaded on ${this.deps.host} (ffmpeg ${pace}, ${Math.round(backlog)} s behind the stream)`;
    if (!wasShedding)
      this.deps.log('recorder', `${overloaded}: new segments are let go until it is ${Math.round(bound / 2)} s behind`);
    return { overloaded };
  }

  /**
   * Whether a segment that does not follow without a break still goes to the current run: the next one
   * by number behind a discontinuity tag alone (nothing missed, no reset), with the same streams and
   * parameters as the run's first. ffmpeg joins the timestamps across it (FED_INPUT's options); only a
   * change of codec, frame size, sample rate or streams needs a new run.
   */
  private carriesOn(segment: MediaSegment, bytes: Uint8Array): boolean {
    if (!segment.discontinuity || this.lastSequence === null || segment.sequence !== this.lastSequence + 1)
      return false;
    const codecs = mpegTsCodecs(bytes);
    const same = codecs !== null && codecs === this.codecs;
    this.deps.log(
      'recorder',
      same
        ? `discontinuity at segment ${segment.sequence}, the same streams (${codecs}): the recording goes on in the same run`
        : `discontinuity at segment ${segment.sequence}, the streams changed (${this.codecs ?? 'unknown'} -> ${codecs ?? 'unknown'}): a new run`,
    );
    return same;
  }

  /** Ends the current run: ffmpeg writes out what it holds and its last piece closes. */
  async close(): Promise<void> {
    const attempt = this.attempt;
    const run = this.run;
    if (!attempt || !run) return;
    this.attempt = null;
    // What the reader queued reaches ffmpeg before its input ends.
    await this.queue?.drained();
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
    const output = this.deps.pieces.outputFor(run.index);
    const attempt = startAttempt({
      ffmpegPath: this.deps.config.ffmpegPath,
      args: buildFfmpegArgs({ ...this.deps.config, sourceAsIs: this.copy === true }, FED_INPUT, output),
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
    this.attempt = attempt;
    this.exited = false;
    void attempt.done.then(() => {
      if (this.attempt === attempt) this.exited = true;
    });
    this.queue = new FedQueue(queueFileOf(output), (bytes) => attempt.write(bytes));
    this.written = [];
    this.shedding = false;
  }
}

/**
 * A recorder starting again on an HLS capture a crash cut short: the killed run's last piece, which
 * no list names, is removed, and the ledger forgets the segments its closed pieces do not hold, so
 * they are fetched again while the playlist still lists them and nothing is recorded twice.
 */
export function recoverCutRun(run: RunRecord, pieces: PieceStore, ledger: SegmentLedger): void {
  // The recorder's death ends ffmpeg's input, and ffmpeg then closes its last piece: every piece is listed
  // and holds all that reached ffmpeg. An ffmpeg killed with it leaves a piece cut short; a queue left
  // behind (the run never closed) may have held segments that never reached ffmpeg.
  const cut = pieces.unlistedOf(run.index);
  const queue = queueFileOf(pieces.outputFor(run.index));
  const queued = fs.existsSync(queue);
  if (cut.length === 0 && !queued) return;
  for (const file of cut) fs.rmSync(file, { force: true });
  fs.rmSync(queue, { force: true });
  run.error = cut.length ? 'ffmpeg was killed mid-piece' : 'the recorder died while segments waited for ffmpeg';
  pieces.measureAll();
  const forgotten = ledger.forgetAfter(run.index, pieces.secondsOf(run.index));
  if (forgotten.length) run.endReason = `Recorder was down (${forgotten.length} segment(s) to fetch again)`;
}
