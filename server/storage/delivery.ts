import type { RecorderDelivery } from '../../recorder/protocol';
import { recordingPrefix, type RecordingStore } from './recording-store';
import { S3RecordingStore } from './s3-store';

/** Upload permissions outlast the window by this much: the last pieces, the join and its upload happen after it. */
const AFTER_WINDOW_MS = 2 * 3600_000;

export interface DeliveryRequest {
  recordingId: string;
  mosqueId: string | null;
  /** The recording window (ISO UTC); its start's date keys the recording. */
  windowStart: string;
  windowEnd: string;
  /** Name of the joined file (`<stamp>.mp4`). */
  fileName: string;
  /** `role`: the machine uploads with its own credentials (an EC2 instance profile); else a POST policy is issued. */
  via: 'role' | 'presigned-post';
}

/**
 * How a recorder is allowed to put its recording into the store: null for the local store (the files
 * stay where the recorder writes them), else the recording's key prefix with either the bucket for a
 * machine with a role, or a POST policy scoped to that prefix that expires after the window.
 */
export async function recorderDelivery(
  store: RecordingStore,
  request: DeliveryRequest,
  now: Date,
): Promise<RecorderDelivery | null> {
  if (!(store instanceof S3RecordingStore)) return null;
  const prefix = recordingPrefix({
    id: request.recordingId,
    mosqueId: request.mosqueId,
    day: request.windowStart.slice(0, 10),
  });
  const expires = new Date(Math.max(Date.parse(request.windowEnd), now.getTime()) + AFTER_WINDOW_MS);
  const { bucket, region, endpoint } = store.options;
  const common = {
    keyPrefix: `${store.options.prefix}${prefix}`,
    mediaKey: `${prefix}${request.fileName}`,
    expiresAt: expires.toISOString(),
  };
  if (request.via === 'role') return { ...common, kind: 's3', bucket, region, endpoint: endpoint ?? null };
  const seconds = Math.ceil((expires.getTime() - now.getTime()) / 1000);
  return { ...common, kind: 'presigned-post', post: await store.presignedPost(prefix, seconds) };
}
