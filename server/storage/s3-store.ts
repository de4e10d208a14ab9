import fs from 'node:fs';
import type { Readable } from 'node:stream';
import {
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { createPresignedPost } from '@aws-sdk/s3-presigned-post';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import type { ByteRange, RecordingStore, StoredObject, StoreUsage } from './recording-store';

export { parseS3Location } from './s3-location';

export interface S3StoreOptions {
  bucket: string;
  /** Key prefix inside the bucket, '' or ending in '/'. */
  prefix: string;
  region: string;
  /** S3_ENDPOINT: MinIO or any S3-compatible service (path-style addressing). */
  endpoint?: string;
}

/** Recordings in an S3-compatible bucket; credentials come from the standard AWS chain. */
export class S3RecordingStore implements RecordingStore {
  readonly kind = 's3' as const;
  readonly location: string;
  private readonly client: S3Client;

  constructor(readonly options: S3StoreOptions) {
    this.location = `s3://${options.bucket}/${options.prefix}`;
    this.client = new S3Client({ region: options.region, endpoint: options.endpoint, forcePathStyle: Boolean(options.endpoint) });
  }

  private full(key: string): string {
    return `${this.options.prefix}${key}`;
  }

  async putFile(key: string, filePath: string, contentType: string): Promise<void> {
    // Multipart for large files: a 2 h recording is ~0.8 GB, past one PUT's comfortable size.
    await new Upload({
      client: this.client,
      params: { Bucket: this.options.bucket, Key: this.full(key), Body: fs.createReadStream(filePath), ContentType: contentType },
    }).done();
  }

  async putText(key: string, text: string, contentType: string): Promise<void> {
    await this.client.send(new PutObjectCommand({ Bucket: this.options.bucket, Key: this.full(key), Body: text, ContentType: contentType }));
  }

  async stat(key: string): Promise<StoredObject | null> {
    try {
      const head = await this.client.send(new HeadObjectCommand({ Bucket: this.options.bucket, Key: this.full(key) }));
      return { key, size: Number(head.ContentLength ?? 0) };
    } catch (error) {
      if (error instanceof S3ServiceException && error.$metadata.httpStatusCode === 404) return null;
      throw error;
    }
  }

  async read(key: string, range?: ByteRange): Promise<Readable> {
    const object = await this.client.send(
      new GetObjectCommand({ Bucket: this.options.bucket, Key: this.full(key), Range: range ? `bytes=${range.start}-${range.end}` : undefined }),
    );
    return object.Body as Readable;
  }

  async list(prefix: string): Promise<StoredObject[]> {
    const found: StoredObject[] = [];
    let token: string | undefined;
    do {
      const page = await this.client.send(
        new ListObjectsV2Command({ Bucket: this.options.bucket, Prefix: this.full(prefix), ContinuationToken: token }),
      );
      for (const item of page.Contents ?? []) {
        if (item.Key) found.push({ key: item.Key.slice(this.options.prefix.length), size: Number(item.Size ?? 0), modifiedAt: item.LastModified?.toISOString() });
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
    return found;
  }

  async deletePrefix(prefix: string): Promise<number> {
    const objects = await this.list(prefix);
    for (let i = 0; i < objects.length; i += 1000) {
      const batch = objects.slice(i, i + 1000).map((o) => ({ Key: this.full(o.key) }));
      await this.client.send(new DeleteObjectsCommand({ Bucket: this.options.bucket, Delete: { Objects: batch, Quiet: true } }));
    }
    return objects.length;
  }

  signedUrl(key: string, seconds: number, downloadName?: string): Promise<string> {
    const disposition = downloadName ? `attachment; filename="${downloadName}"` : undefined;
    return getSignedUrl(this.client, new GetObjectCommand({ Bucket: this.options.bucket, Key: this.full(key), ResponseContentDisposition: disposition }), { expiresIn: seconds });
  }

  /**
   * A browser-style POST policy that lets its holder put objects under one key prefix (of this store)
   * and nothing else, until it expires: what a recorder without credentials uploads with.
   */
  async presignedPost(prefix: string, seconds: number): Promise<{ url: string; fields: Record<string, string> }> {
    const post = await createPresignedPost(this.client, {
      Bucket: this.options.bucket,
      Key: `${this.full(prefix)}\${filename}`,
      Conditions: [['starts-with', '$Content-Type', ''], ['content-length-range', 0, 20 * 1024 ** 3]],
      Expires: seconds,
    });
    return { url: post.url, fields: post.fields };
  }

  async usage(): Promise<StoreUsage> {
    const objects = await this.list('');
    return { usedBytes: objects.reduce((sum, o) => sum + o.size, 0), freeBytes: null };
  }
}
