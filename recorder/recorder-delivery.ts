/*
 * Delivery of a capture to the object store by the recorder itself, so a recorder, machine or disk
 * that dies loses at most the piece in progress: every closed piece is uploaded at once (in order,
 * retried with back-off until it lands or the permission expires), then the joined file and the
 * recording's metadata at window end. Two ways to be allowed to upload:
 *   presigned-post  a POST policy the server issued for this recording's key prefix only, expiring
 *                   after its window: plain fetch + FormData, no SDK and no credentials on the machine.
 *   s3              the machine's own credentials (an EC2 instance role) through the AWS SDK, which is
 *                   loaded only here, when this kind is used.
 * Part of the recorder runtime: Node and its siblings (the SDK by dynamic import only).
 */
import fs from 'node:fs';
import path from 'node:path';
import type { DeliveryReport, PresignedPost, RecorderDelivery } from './protocol';
import type { SegmentSink } from './recorder-pieces';

type Put = (key: string, file: string, contentType: string) => Promise<void>;

const SEGMENT_TIMEOUT_MS = 120_000;
const MEDIA_TIMEOUT_MS = 60 * 60_000;
const MAX_BACKOFF_MS = 30_000;
const SHARED_TIMEOUT_MS = 5000;

function postUploader(post: PresignedPost): Put {
  return async (key, file, contentType) => {
    const form = new FormData();
    for (const [name, value] of Object.entries(post.fields)) form.append(name, value);
    form.set('key', key);
    form.set('Content-Type', contentType);
    form.append('file', await fs.openAsBlob(file), path.basename(file));
    const timeout = contentType === 'video/mp4' ? MEDIA_TIMEOUT_MS : SEGMENT_TIMEOUT_MS;
    const response = await fetch(post.url, { method: 'POST', body: form, signal: AbortSignal.timeout(timeout) });
    if (!response.ok)
      throw new Error(`the store answered HTTP ${response.status}${s3Reason(await response.text().catch(() => ''))}`);
  };
}

async function sdkUploader(target: Extract<RecorderDelivery, { kind: 's3' }>): Promise<Put> {
  const { S3Client } = await import('@aws-sdk/client-s3');
  const { Upload } = await import('@aws-sdk/lib-storage');
  const client = new S3Client({
    region: target.region,
    endpoint: target.endpoint ?? undefined,
    forcePathStyle: Boolean(target.endpoint),
  });
  return async (key, file, contentType) => {
    await new Upload({
      client,
      params: { Bucket: target.bucket, Key: key, Body: fs.createReadStream(file), ContentType: contentType },
    }).done();
  };
}

/** `: AccessDenied (Policy expired)` from an S3 XML error body, or nothing. */
function s3Reason(body: string): string {
  const code = /<Code>([^<]{1,80})<\/Code>/.exec(body)?.[1];
  const message = /<Message>([^<]{1,200})<\/Message>/.exec(body)?.[1];
  return code ? `: ${code}${message ? ` (${message})` : ''}` : '';
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms).unref());

/** The segment sink that ships each closed piece to the store, and the final uploads. */
export class StoreShipper implements SegmentSink {
  private readonly put: Promise<Put>;
  private readonly queue: string[] = [];
  private readonly delivered = new Set<string>();
  private worker: Promise<void> | null = null;
  private lastError: string | null = null;
  /** The permission's end in this machine's clock. */
  private readonly expiresMs: number;
  /** A file shipped again after each piece (the segment ledger), under this name below the recording's prefix. */
  private shared: { file: string; name: string } | null = null;

  /**
   * `recordFile` lists the pieces delivered, one name a line, so a recorder started again after a crash
   * neither sends them twice nor counts them out. `launchedAt` (the config's creation) names the folder
   * of this launch's segments: a new machine for the same recording numbers its pieces from 1 again.
   */
  constructor(
    private readonly delivery: RecorderDelivery,
    private readonly log: (line: string) => void,
    clockOffsetMs: number,
    private readonly recordFile: string,
    private readonly launchedAt: string,
  ) {
    this.expiresMs = Date.parse(delivery.expiresAt) - clockOffsetMs;
    try {
      for (const name of fs.readFileSync(recordFile, 'utf8').split('\n')) if (name) this.delivered.add(name);
    } catch {
      // nothing delivered yet
    }
    this.put = delivery.kind === 's3' ? sdkUploader(delivery) : Promise.resolve(postUploader(delivery.post));
    this.put.catch(() => undefined); // reported by each attempt
  }

  closed(file: string): void {
    if (this.delivered.has(path.basename(file)) || this.queue.includes(file)) return;
    this.queue.push(file);
    this.worker ??= this.work().finally(() => (this.worker = null));
  }

  /** The key of a piece below the recording's prefix. */
  segmentName(piece: string): string {
    return `segments/${this.launchedAt.replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z')}/${piece}`;
  }

  /**
   * Ships `file` as `name` after each piece that reaches the store: the segment ledger, which a machine
   * launched to replace this one fetches, so it carries on after the last segment delivered instead of
   * taking the playlist's backlog again (a repeat in the joined recording).
   */
  shareAfterPieces(file: string, name: string): void {
    this.shared = { file, name };
  }

  /** Only what reached the store counts towards the recording's coverage. */
  counts(name: string): boolean {
    return this.delivered.has(name);
  }

  report(): DeliveryReport {
    return { delivered: this.delivered.size, pending: this.queue.length, lastError: this.lastError };
  }

  /** Waits for the queued pieces until `deadlineMs`; the pieces still not delivered by then. */
  async drain(deadlineMs: number): Promise<number> {
    while (this.worker && Date.now() < deadlineMs)
      await Promise.race([this.worker, pause(Math.min(1000, Math.max(0, deadlineMs - Date.now())))]);
    return this.queue.length;
  }

  /** Uploads a file under the recording's prefix, retrying until `deadlineMs`; the last error, or null. */
  async deliver(file: string, name: string, contentType: string, deadlineMs: number): Promise<string | null> {
    const key = `${this.delivery.keyPrefix}${name}`;
    const until = Math.min(deadlineMs, this.expiresMs);
    for (let attempt = 1; ; attempt++) {
      try {
        await (
          await this.put
        )(key, file, contentType);
        this.lastError = null;
        return null;
      } catch (error) {
        const reason = `could not deliver ${name} to the store: ${(error as Error).message}`;
        this.lastError = reason;
        const waitMs = Math.min(MAX_BACKOFF_MS, 1000 * 2 ** (attempt - 1));
        if (Date.now() + waitMs >= until) {
          this.log(`${reason}; giving up at attempt ${attempt}`);
          return reason;
        }
        this.log(`${reason} (attempt ${attempt}); trying again in ${Math.round(waitMs / 1000)} s`);
        await pause(waitMs);
      }
    }
  }

  private async work(): Promise<void> {
    for (let file = this.queue[0]; file !== undefined; file = this.queue[0]) {
      const name = path.basename(file);
      const failed = await this.deliver(file, this.segmentName(name), 'video/mp2t', this.expiresMs);
      if (failed) return; // the permission expired: what is left stays queued and is reported
      this.delivered.add(name);
      this.queue.shift();
      try {
        fs.appendFileSync(this.recordFile, `${name}\n`);
      } catch {
        // kept in memory; a recorder started again would send this piece once more
      }
      await this.shipShared();
    }
  }

  /** The shared file, briefly tried: the next piece ships a newer one anyway. */
  private async shipShared(): Promise<void> {
    if (!this.shared || !fs.existsSync(this.shared.file)) return;
    await this.deliver(this.shared.file, this.shared.name, 'application/json', Date.now() + SHARED_TIMEOUT_MS);
  }
}
