import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../../lib/clock';
import { badGateway, HttpError, serviceUnavailable } from '../../lib/http-error';
import { LocalRecordingStore } from '../../storage/local-store';
import type { RecordingStore } from '../../storage/recording-store';
import { encodeAudioRendition, type EncodeOptions } from './audio-encode';

/** A file in the store as the media routes serve it: its key, size, and the name a download gets. */
export interface StoredMedia {
  key: string;
  size: number;
  name: string;
}

/** Recordings whose audio may wait for an encode: beyond, a request is told to come back. */
const MAX_WAITING = 20;

export interface AudioRenditionsOptions {
  store: RecordingStore;
  encode: Omit<EncodeOptions, 'signal'>;
  /** Where a bucket's media is fetched to and each rendition written before it goes to the store. */
  workDir: string;
  clock: Clock;
  log: FastifyBaseLogger;
  /** Encodes at once (a Friday's recorders must keep the CPU); the others wait their turn. */
  concurrency: number;
}

/**
 * The audio-only renditions, made when first asked for and kept in the store beside the media
 * (`<media>.audio-<media bytes>.m4a`, so a media file joined again gets a new one), where the
 * recording's deletion removes them with it. One encode per rendition however many ask; at most
 * `concurrency` at once, niced; a failure is kept for the next one asking, then tried again.
 */
export class AudioRenditions {
  private readonly jobs = new Map<string, Promise<StoredMedia>>();
  private readonly failures = new Map<string, Error>();
  private readonly queue: (() => void)[] = [];
  private running = 0;
  private swept = false;
  private readonly stop = new AbortController();

  constructor(private readonly options: AudioRenditionsOptions) {}

  /** The rendition's key for a media file of this size. */
  static keyOf(media: StoredMedia): string {
    return `${media.key}.audio-${media.size}.m4a`;
  }

  /** The rendition of this media, made first (and waited for) when it is not in the store. */
  async get(media: StoredMedia): Promise<StoredMedia> {
    return (await this.stored(media)) ?? this.job(media);
  }

  /**
   * For a link: the rendition when it is ready or made within `waitMs`, else 'preparing' (its encode
   * goes on). An encode that failed since the last asking is thrown once, and tried again next time.
   */
  async prepare(media: StoredMedia, waitMs: number): Promise<StoredMedia | 'preparing'> {
    const ready = await this.stored(media);
    if (ready) return ready;
    const key = AudioRenditions.keyOf(media);
    const failed = this.failures.get(key);
    if (failed) {
      this.failures.delete(key);
      throw failed;
    }
    const job = this.job(media);
    const timer = this.options.clock.timer();
    const waited = new Promise<'preparing'>((resolve) => timer.arm(waitMs, () => resolve('preparing')));
    try {
      return await Promise.race([job, waited]);
    } catch (error) {
      // Told to this asker: not kept for the next.
      this.failures.delete(key);
      throw error;
    } finally {
      timer.disarm();
    }
  }

  /** Stops the encodes running (the server is closing): their files are made again when next asked for. */
  close(): void {
    this.stop.abort();
  }

  private async stored(media: StoredMedia): Promise<StoredMedia | null> {
    const key = AudioRenditions.keyOf(media);
    const found = await this.options.store.stat(key);
    return found && found.size > 0 ? { key, size: found.size, name: downloadName(media.name) } : null;
  }

  private job(media: StoredMedia): Promise<StoredMedia> {
    const key = AudioRenditions.keyOf(media);
    const running = this.jobs.get(key);
    if (running) return running;
    if (this.queue.length >= MAX_WAITING)
      throw serviceUnavailable(
        `The audio of ${MAX_WAITING} recordings is waiting to be prepared; try again in a few minutes`,
      );
    const job = this.turn()
      .then(() => this.make(media, key))
      .finally(() => this.done(key));
    job.catch((error: unknown) => {
      this.failures.set(key, error as Error);
      this.options.log.warn({ err: error, key }, 'making the audio rendition failed');
    });
    this.jobs.set(key, job);
    return job;
  }

  /** Resolves when an encode may start. */
  private turn(): Promise<void> {
    if (this.running < this.options.concurrency) {
      this.running++;
      return Promise.resolve();
    }
    return new Promise((resolve) => this.queue.push(resolve));
  }

  private done(key: string): void {
    this.jobs.delete(key);
    const next = this.queue.shift();
    if (next) next();
    else this.running--;
  }

  private async make(media: StoredMedia, key: string): Promise<StoredMedia> {
    const { store, workDir, clock, log } = this.options;
    if (!this.swept) {
      fs.rmSync(workDir, { recursive: true, force: true }); // what a stopped server left
      this.swept = true;
    }
    const dir = path.join(workDir, crypto.randomUUID());
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    const started = clock.now().getTime();
    try {
      const input = await this.localCopy(media, dir);
      const output = path.join(dir, 'audio.m4a');
      await encodeAudioRendition(input, output, { ...this.options.encode, signal: this.stop.signal });
      await store.putFile(key, output, 'audio/mp4');
      // A rendition of an earlier file of the same key (joined again since) is of no use now.
      for (const earlier of await store.list(`${media.key}.audio-`))
        if (earlier.key !== key) await store.deletePrefix(earlier.key);
      const size = fs.statSync(output).size;
      log.info({ key, bytes: size, seconds: (clock.now().getTime() - started) / 1000 }, 'audio rendition made');
      return { key, size, name: downloadName(media.name) };
    } catch (error) {
      if (error instanceof HttpError) throw error;
      throw badGateway(`Making the audio-only file of this recording failed: ${(error as Error).message}`);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }

  /** The media as a file ffmpeg can seek in: the local store's own, or fetched from the bucket. */
  private async localCopy(media: StoredMedia, dir: string): Promise<string> {
    const { store } = this.options;
    if (store instanceof LocalRecordingStore) return store.pathOf(media.key);
    const file = path.join(dir, 'media.mp4');
    await pipeline(await store.read(media.key), fs.createWriteStream(file));
    return file;
  }
}

/** `recording.mp4` downloads its audio as `recording.m4a`. */
function downloadName(mediaName: string): string {
  return `${mediaName.replace(/\.[^.]*$/, '')}.m4a`;
}
