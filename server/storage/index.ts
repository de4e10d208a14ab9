import path from 'node:path';
import { LocalRecordingStore } from './local-store';
import type { RecordingStore } from './recording-store';
import { parseS3Location } from './s3-location';
import { S3RecordingStore } from './s3-store';

export type { RecordingStore } from './recording-store';

export interface StoreSettings {
  /** RECORDINGS_STORE: unset or `local` for DATA_DIR/recordings, else `s3://bucket/prefix`. */
  recordingsStore?: string;
  dataDir: string;
  awsRegion: string;
  /** S3_ENDPOINT, for MinIO or another S3-compatible service. */
  s3Endpoint?: string;
}

/** The store RECORDINGS_STORE names. The config check has already refused anything else. */
export function createRecordingStore(settings: StoreSettings): RecordingStore {
  const value = settings.recordingsStore?.trim();
  if (!value || value === 'local') return new LocalRecordingStore(path.join(settings.dataDir, 'recordings'));
  const s3 = parseS3Location(value);
  if (!s3) throw new Error(`RECORDINGS_STORE must be "local" or s3://bucket/prefix, not ${JSON.stringify(value)}`);
  return new S3RecordingStore({ ...s3, region: settings.awsRegion, endpoint: settings.s3Endpoint });
}
