import type { Readable } from 'node:stream';

/*
 * Where recordings live: the local filesystem (DATA_DIR/recordings) or an S3-compatible bucket.
 * Keys are `<mosque id or adhoc>/<friday or date>/<recording id>/<file>`, so a recording's segments,
 * joined file and metadata sit together and one prefix deletes them all.
 */

export interface StoredObject {
  key: string;
  size: number;
  /** When the object was last written (ISO UTC), where the listing tells. */
  modifiedAt?: string;
}

export interface ByteRange {
  start: number;
  /** Inclusive. */
  end: number;
}

export interface StoreUsage {
  /** Bytes the store's recordings take. */
  usedBytes: number;
  /** Bytes still free on the store's disk; null where the store has no such limit (a bucket). */
  freeBytes: number | null;
}

export interface RecordingStore {
  readonly kind: 'local' | 's3';
  /** `local:<folder>` or `s3://bucket/prefix`: what the console shows as the store. */
  readonly location: string;
  /** Copies a finished file (a closed segment, the joined recording) into the store. */
  putFile(key: string, filePath: string, contentType: string): Promise<void>;
  putText(key: string, text: string, contentType: string): Promise<void>;
  /** The object's size, or null when it is not there. */
  stat(key: string): Promise<StoredObject | null>;
  /** The object's bytes, whole or one range. */
  read(key: string, range?: ByteRange): Promise<Readable>;
  /** Every object under a prefix, in key order. */
  list(prefix: string): Promise<StoredObject[]>;
  /** Removes every object under a prefix; returns how many were removed. */
  deletePrefix(prefix: string): Promise<number>;
  /**
   * A link the browser can fetch without a bearer token, valid for `seconds` (a download when it names
   * the file); null where the store has none.
   */
  signedUrl(key: string, seconds: number, downloadName?: string): Promise<string | null>;
  usage(): Promise<StoreUsage>;
}

/** Letters, digits, `_` and `-`: what a key segment may hold (ids and dates already are). */
const SAFE_SEGMENT = /^[A-Za-z0-9_-]{1,80}$/;

/** `<mosque or adhoc>/<friday or date>/<recording id>/` for a recording. */
export function recordingPrefix(recording: { id: string; mosqueId: string | null; day: string }): string {
  const parts = [recording.mosqueId ?? 'adhoc', recording.day, recording.id];
  for (const part of parts)
    if (!SAFE_SEGMENT.test(part)) throw new Error(`Unsafe recording key part: ${JSON.stringify(part)}`);
  return `${parts.join('/')}/`;
}

/**
 * The range a `Range` header asks for, clamped to the object; null when the header is absent or not a
 * single bytes range we serve whole instead, 'unsatisfiable' when it starts past the end.
 */
export function parseByteRange(header: string | undefined, size: number): ByteRange | null | 'unsatisfiable' {
  if (!header) return null;
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match || (match[1] === '' && match[2] === '')) return null;
  if (match[1] === '') {
    const suffix = Number(match[2]);
    if (suffix === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(match[1]);
  // A last position before the first is no valid range at all: ignored, the whole file answered (RFC 9110 14.2).
  if (match[2] !== '' && Number(match[2]) < start) return null;
  const end = match[2] === '' ? size - 1 : Math.min(Number(match[2]), size - 1);
  if (start >= size) return 'unsatisfiable';
  return { start, end };
}
