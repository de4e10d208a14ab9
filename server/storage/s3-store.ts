import fs from 'node:fs';
import type { Readable } from 'node:stream';
import type { S3Client } from '@aws-sdk/client-s3';
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

/** The SDK's parts this store uses, loaded on first use: a server on the local store never loads them (0.5 s, 60 MB). */
async function loadSdk() {
  const [s3, storage, post, presigner] = await Promise.all([
    import('@aws-sdk/client-s3'),
    import('@aws-sdk/lib-storage'),
    import('@aws-sdk/s3-presigned-post'),
    import('@aws-sdk/s3-request-presigner'),
  ]);
  return {
    ...s3,
    Upload: storage.Upload,
    createPresignedPost: post.createPresignedPost,
    getSignedUrl: presigner.getSignedUrl,
  };
}

/** Recordings in an S3-compatible bucket; credentials come from the standard AWS chain. */
export class S3RecordingStore implements RecordingStore {
  readonly kind = 's3' as const;
  readonly location: string;
  private connection: Promise<{ sdk: Awaited<ReturnType<typeof loadSdk>>; client: S3Client }> | undefined;

  constructor(readonly options: S3StoreOptions) {
    this.location = `s3://${options.bucket}/${options.prefix}`;
  }

  private connect() {
    this.connection ??= loadSdk().then((sdk) => ({
      sdk,
      client: new sdk.S3Client({
        region: this.options.region,
        endpoint: this.options.endpoint,
        forcePathStyle: Boolean(this.options.endpoint),
      }),
    }));
    return this.connection;
  }

  private full(key: string): string {
    return `${this.options.prefix}${key}`;
  }

  async putFile(key: string, filePath: string, contentType: string): Promise<void> {
    const { sdk, client } = await this.connect();
    // Multipart for large files: a 2 h recording is ~0.8 GB, past one PUT's comfortable size.
    await new sdk.Upload({
      client,
      params: {
        Bucket: this.options.bucket,
        Key: this.full(key),
        Body: fs.createReadStream(filePath),
        ContentType: contentType,
      },
    }).done();
  }

  async putText(key: string, text: string, contentType: string): Promise<void> {
    const { sdk, client } = await this.connect();
    await client.send(
      new sdk.PutObjectCommand({
        Bucket: this.options.bucket,
        Key: this.full(key),
        Body: text,
        ContentType: contentType,
      }),
    );
  }

  /**
   * Puts `text` at `key` only if nothing is there yet (S3's conditional write): false when something
   * was. Two servers claiming one place both ask; exactly one gets it.
   */
  async putTextIfAbsent(key: string, text: string, contentType: string): Promise<boolean> {
    const { sdk, client } = await this.connect();
    try {
      await client.send(
        new sdk.PutObjectCommand({
          Bucket: this.options.bucket,
          Key: this.full(key),
          Body: text,
          ContentType: contentType,
          IfNoneMatch: '*',
        }),
      );
      return true;
    } catch (error) {
      if (error instanceof sdk.S3ServiceException && error.$metadata.httpStatusCode === 412) return false;
      throw error;
    }
  }

  async stat(key: string): Promise<StoredObject | null> {
    const { sdk, client } = await this.connect();
    try {
      const head = await client.send(new sdk.HeadObjectCommand({ Bucket: this.options.bucket, Key: this.full(key) }));
      return { key, size: Number(head.ContentLength ?? 0) };
    } catch (error) {
      if (error instanceof sdk.S3ServiceException && error.$metadata.httpStatusCode === 404) return null;
      throw error;
    }
  }

  async read(key: string, range?: ByteRange): Promise<Readable> {
    const { sdk, client } = await this.connect();
    const object = await client.send(
      new sdk.GetObjectCommand({
        Bucket: this.options.bucket,
        Key: this.full(key),
        Range: range ? `bytes=${range.start}-${range.end}` : undefined,
      }),
    );
    return object.Body as Readable;
  }

  /**
   * A small object's text and ETag in one GET, unless its ETag is still `etag` (S3 answers 304 then,
   * without the body): 'unchanged'. Null when there is no such object.
   */
  async readTextIfChanged(
    key: string,
    etag: string | null,
  ): Promise<{ text: string; etag: string } | 'unchanged' | null> {
    const { sdk, client } = await this.connect();
    try {
      const object = await client.send(
        new sdk.GetObjectCommand({ Bucket: this.options.bucket, Key: this.full(key), IfNoneMatch: etag ?? undefined }),
      );
      return { text: (await object.Body?.transformToString('utf8')) ?? '', etag: object.ETag ?? '' };
    } catch (error) {
      const status = error instanceof sdk.S3ServiceException ? error.$metadata.httpStatusCode : undefined;
      if (status === 304) return 'unchanged';
      if (status === 404) return null;
      throw error;
    }
  }

  async list(prefix: string): Promise<StoredObject[]> {
    const { sdk, client } = await this.connect();
    const found: StoredObject[] = [];
    let token: string | undefined;
    do {
      const page = await client.send(
        new sdk.ListObjectsV2Command({
          Bucket: this.options.bucket,
          Prefix: this.full(prefix),
          ContinuationToken: token,
        }),
      );
      for (const item of page.Contents ?? []) {
        if (item.Key)
          found.push({
            key: item.Key.slice(this.options.prefix.length),
            size: Number(item.Size ?? 0),
            modifiedAt: item.LastModified?.toISOString(),
          });
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
    return found;
  }

  async deletePrefix(prefix: string): Promise<number> {
    const { sdk, client } = await this.connect();
    const objects = await this.list(prefix);
    for (let i = 0; i < objects.length; i += 1000) {
      const batch = objects.slice(i, i + 1000).map((o) => ({ Key: this.full(o.key) }));
      await client.send(
        new sdk.DeleteObjectsCommand({ Bucket: this.options.bucket, Delete: { Objects: batch, Quiet: true } }),
      );
    }
    return objects.length;
  }

  async signedUrl(key: string, seconds: number, downloadName?: string): Promise<string> {
    const { sdk, client } = await this.connect();
    const disposition = downloadName ? `attachment; filename="${downloadName}"` : undefined;
    return sdk.getSignedUrl(
      client,
      new sdk.GetObjectCommand({
        Bucket: this.options.bucket,
        Key: this.full(key),
        ResponseContentDisposition: disposition,
      }),
      { expiresIn: seconds },
    );
  }

  /**
   * The credentials this store signs with, as the SDK's chain resolves them (environment, profile,
   * instance role...); throws when there are none. Callers look at their kind, never pass them on.
   */
  async signingCredentials(): Promise<{ temporary: boolean; expiration: Date | undefined }> {
    const { client } = await this.connect();
    const credentials = await client.config.credentials();
    return { temporary: Boolean(credentials.sessionToken), expiration: credentials.expiration };
  }

  /**
   * A browser-style POST policy that lets its holder put objects under one key prefix (of this store)
   * and nothing else, until it expires: what a recorder without credentials uploads with.
   */
  async presignedPost(prefix: string, seconds: number): Promise<{ url: string; fields: Record<string, string> }> {
    const { sdk, client } = await this.connect();
    const post = await sdk.createPresignedPost(client, {
      Bucket: this.options.bucket,
      Key: `${this.full(prefix)}\${filename}`,
      Conditions: [
        ['starts-with', '$Content-Type', ''],
        ['content-length-range', 0, 20 * 1024 ** 3],
      ],
      Expires: seconds,
    });
    return { url: post.url, fields: post.fields };
  }

  async usage(): Promise<StoreUsage> {
    const objects = await this.list('');
    return { usedBytes: objects.reduce((sum, o) => sum + o.size, 0), freeBytes: null };
  }
}
