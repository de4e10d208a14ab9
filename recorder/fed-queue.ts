/*
 * The queue between the HLS reader and a fed ffmpeg run: a segment goes straight to ffmpeg's stdin
 * when ffmpeg has taken everything before it, else to the end of a file on disk, which one loop hands
 * on to ffmpeg in order as it takes it. The reader never waits for ffmpeg: a transcode that falls
 * behind on a busy machine lets its backlog grow on disk while the reader stays at the live edge, where
 * it waited on ffmpeg's stdin, fell behind and lost what left the playlist. Memory holds at most the
 * segment being handed to ffmpeg. The file is there from the run's start until everything queued
 * reached ffmpeg: a recorder started again after a crash that finds it knows the run may hold less than
 * its ledger kept for it (recoverCutRun). Part of the recorder runtime: Node and its siblings only.
 */
import fs from 'node:fs';
import type { RunOutput } from './ffmpeg-args';

/** At most this much of the backlog is read back into memory at a time (a segment may be longer). */
const CHUNK_BYTES = 1024 * 1024;

/** The queue file of a run, beside its list of pieces. */
export function queueFileOf(output: RunOutput): string {
  return output.listPath.replace(/\.list$/, '.queue');
}

export class FedQueue {
  private fd: number | null;
  /** Backlog on disk: bytes [readAt, writeAt) of the file are still to go to ffmpeg. */
  private readAt = 0;
  private writeAt = 0;
  /** Each segment waiting in the file: where its bytes end, and its seconds of media. */
  private readonly onDisk: { end: number; seconds: number }[] = [];
  /**
   * Backlog the disk would not take (full, or read-only), after the file's: the recording stops for
   * its storage soon (ffmpeg cannot write its pieces either), and what the ledger kept still reaches ffmpeg.
   */
  private readonly unwritten: { bytes: Uint8Array; seconds: number }[] = [];
  /** The hand-off in progress, if any. */
  private flowing: Promise<void> | null = null;
  private failed = false;

  /** `give(bytes)`: hands bytes to ffmpeg, resolving once taken; false when ffmpeg is gone. */
  constructor(
    private readonly file: string,
    private readonly give: (bytes: Uint8Array) => Promise<boolean>,
  ) {
    try {
      this.fd = fs.openSync(file, 'w+');
    } catch {
      this.fd = null;
    }
  }

  /** ffmpeg went away: what is still queued will not reach it. */
  get broken(): boolean {
    return this.failed;
  }

  /** Bytes queued on disk, not yet handed to ffmpeg. */
  get backlogBytes(): number {
    return this.writeAt - this.readAt;
  }

  /**
   * Seconds of media waiting for ffmpeg: how far behind the live edge ffmpeg is. A segment read back
   * from disk counts until ffmpeg has taken it whole (one pushed straight to ffmpeg never counts): the
   * backlog falls as ffmpeg works, which is what its speed is measured by (recorder-hls.ts).
   */
  get backlogSeconds(): number {
    let seconds = 0;
    for (const segment of this.onDisk) seconds += segment.seconds;
    for (const segment of this.unwritten) seconds += segment.seconds;
    return seconds;
  }

  /** Queues a segment of `seconds` of media; returns at once (after a write to disk when ffmpeg is behind). */
  push(bytes: Uint8Array, seconds: number): void {
    if (this.failed) return;
    if (!this.flowing) {
      this.flowing = this.handOn(bytes);
      return;
    }
    if (this.fd !== null && this.unwritten.length === 0) {
      try {
        fs.writeSync(this.fd, bytes, 0, bytes.length, this.writeAt);
        this.writeAt += bytes.length;
        this.onDisk.push({ end: this.writeAt, seconds });
        return;
      } catch {
        // Part of it may be in the file, past writeAt: the next write goes over it.
      }
    }
    this.unwritten.push({ bytes, seconds });
  }

  /** Waits until everything queued reached ffmpeg (or ffmpeg went away), then removes the file. */
  async drained(): Promise<void> {
    while (this.flowing) await this.flowing;
    if (this.fd !== null) fs.closeSync(this.fd);
    this.fd = null;
    fs.rmSync(this.file, { force: true });
  }

  /** Hands `first` to ffmpeg, then the backlog, in order, until none is left. */
  private async handOn(first: Uint8Array): Promise<void> {
    let next: Uint8Array | null = first;
    while (next && !this.failed) {
      if (!(await this.give(next))) this.failed = true;
      while (this.onDisk.length && this.onDisk[0].end <= this.readAt) this.onDisk.shift();
      next = this.failed ? null : this.readBacklog();
    }
    this.flowing = null;
  }

  /**
   * The next chunk of the backlog, at most one segment (so that the backlog falls segment by segment as
   * ffmpeg takes them), or null when it is empty (the file is then emptied).
   */
  private readBacklog(): Uint8Array | null {
    if (this.fd === null || this.readAt === this.writeAt) {
      const held = this.unwritten.shift();
      if (held) return held.bytes;
      if (this.fd !== null && this.writeAt > 0) fs.ftruncateSync(this.fd, 0); // caught up: the space goes back
      this.readAt = this.writeAt = 0;
      return null;
    }
    const segmentEnd = this.onDisk[0]?.end ?? this.writeAt;
    const chunk = new Uint8Array(Math.min(CHUNK_BYTES, segmentEnd - this.readAt));
    const read = fs.readSync(this.fd, chunk, 0, chunk.length, this.readAt);
    this.readAt += read;
    return chunk.subarray(0, read);
  }
}
