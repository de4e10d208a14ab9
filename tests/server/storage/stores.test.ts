import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { text } from 'node:stream/consumers';
import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRecordingStore } from '../../../server/storage';
import { parseByteRange, recordingPrefix, type RecordingStore } from '../../../server/storage/recording-store';
import { parseS3Location } from '../../../server/storage/s3-store';
import { startMoto, type MotoServer } from '../../../testkit/capture';
import { scaled } from '../../../testkit/time-scale';

describe('keys and ranges', () => {
  it('keys a recording by mosque (or adhoc), day and id, and refuses unsafe parts', () => {
    expect(recordingPrefix({ id: 'rec-1a', mosqueId: 'noor01', day: '2026-11-27' })).toBe('noor01/2026-11-27/rec-1a/');
    expect(recordingPrefix({ id: 'rec-1a', mosqueId: null, day: '2026-11-23' })).toBe('adhoc/2026-11-23/rec-1a/');
    expect(() => recordingPrefix({ id: '../x', mosqueId: null, day: '2026-11-23' })).toThrow();
  });

  it('reads a Range header the way HTTP means it', () => {
    expect(parseByteRange(undefined, 1000)).toBeNull();
    expect(parseByteRange('bytes=0-99', 1000)).toEqual({ start: 0, end: 99 });
    expect(parseByteRange('bytes=900-', 1000)).toEqual({ start: 900, end: 999 });
    expect(parseByteRange('bytes=-100', 1000)).toEqual({ start: 900, end: 999 });
    expect(parseByteRange('bytes=990-5000', 1000)).toEqual({ start: 990, end: 999 });
    expect(parseByteRange('bytes=1000-', 1000)).toBe('unsatisfiable');
    expect(parseByteRange('bytes=0-1,5-6', 1000)).toBeNull();
    // A reversed range is invalid, not unsatisfiable: ignored (RFC 9110 14.2), the whole file answered.
    expect(parseByteRange('bytes=500-100', 1000)).toBeNull();
    expect(parseByteRange('bytes=5000-100', 1000)).toBeNull();
  });

  it('parses s3:// locations', () => {
    expect(parseS3Location('s3://sermons/friday/')).toEqual({ bucket: 'sermons', prefix: 'friday/' });
    expect(parseS3Location('s3://sermons')).toEqual({ bucket: 'sermons', prefix: '' });
    expect(parseS3Location('https://sermons')).toBeUndefined();
  });
});

/** The same behaviour from both stores: the S3 one against moto's S3 server. */
describe.each(['local', 's3'] as const)('%s recording store', (kind) => {
  let store: RecordingStore;
  let moto: MotoServer | undefined;
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'store-test-'));
  const source = path.join(work, 'segment.ts');

  beforeAll(async () => {
    fs.writeFileSync(source, Buffer.from(Array.from({ length: 4096 }, (_, i) => i % 251)));
    if (kind === 'local') {
      store = createRecordingStore({ dataDir: work, awsRegion: 'us-east-1' });
      return;
    }
    Object.assign(process.env, {
      AWS_ACCESS_KEY_ID: 'testing',
      AWS_SECRET_ACCESS_KEY: 'testing',
      AWS_EC2_METADATA_DISABLED: 'true',
    });
    moto = await startMoto();
    await new S3Client({ region: 'us-east-1', endpoint: moto.url, forcePathStyle: true }).send(
      new CreateBucketCommand({ Bucket: 'sermons' }),
    );
    store = createRecordingStore({
      recordingsStore: 's3://sermons/captures',
      dataDir: work,
      awsRegion: 'us-east-1',
      s3Endpoint: moto.url,
    });
  }, scaled(60_000));
  afterAll(async () => {
    await moto?.stop();
    fs.rmSync(work, { recursive: true, force: true });
  });

  it('stores files and text under a recording prefix, and lists them in order', async () => {
    await store.putFile('noor/2026-11-27/rec-1/segments/000002.ts', source, 'video/mp2t');
    await store.putFile('noor/2026-11-27/rec-1/segments/000001.ts', source, 'video/mp2t');
    await store.putText('noor/2026-11-27/rec-1/recording.json', '{"id":"rec-1"}', 'application/json');
    await store.putText('noor/2026-11-27/rec-10/recording.json', '{}', 'application/json');
    const listed = await store.list('noor/2026-11-27/rec-1/');
    expect(listed.map((o) => o.key)).toEqual([
      'noor/2026-11-27/rec-1/recording.json',
      'noor/2026-11-27/rec-1/segments/000001.ts',
      'noor/2026-11-27/rec-1/segments/000002.ts',
    ]);
    expect(listed[1].size).toBe(4096);
    // When it was written: where the server places a segment in its window (recordings/segment-timeline.ts).
    expect(Math.abs(Date.parse(listed[1].modifiedAt ?? '') - Date.now())).toBeLessThan(60_000);
    expect(await store.stat('noor/2026-11-27/rec-1/segments/000001.ts')).toEqual({
      key: 'noor/2026-11-27/rec-1/segments/000001.ts',
      size: 4096,
    });
    expect(await store.stat('noor/2026-11-27/rec-1/missing.ts')).toBeNull();
  });

  it('reads a byte range', async () => {
    const stream = await store.read('noor/2026-11-27/rec-1/segments/000001.ts', { start: 10, end: 19 });
    const chunks: Buffer[] = [];
    for await (const chunk of stream) chunks.push(Buffer.from(chunk as Uint8Array));
    expect([...Buffer.concat(chunks)]).toEqual(Array.from({ length: 10 }, (_, i) => 10 + i));
    expect(await text(await store.read('noor/2026-11-27/rec-1/recording.json'))).toBe('{"id":"rec-1"}');
  });

  it('deletes one recording without touching its neighbour, and reports usage', async () => {
    expect(await store.deletePrefix('noor/2026-11-27/rec-1/')).toBe(3);
    expect(await store.list('noor/2026-11-27/rec-1/')).toEqual([]);
    expect((await store.list('noor/')).map((o) => o.key)).toEqual(['noor/2026-11-27/rec-10/recording.json']);
    const usage = await store.usage();
    expect(usage.usedBytes).toBe(2);
    if (kind === 'local') expect(usage.freeBytes).toBeGreaterThan(0);
    else expect(usage.freeBytes).toBeNull();
  });

  it('gives a signed link only where the browser can use one', async () => {
    await store.putFile('adhoc/2026-11-23/rec-2/recording.mp4', source, 'video/mp4');
    const url = await store.signedUrl('adhoc/2026-11-23/rec-2/recording.mp4', 60);
    if (kind === 'local') {
      expect(url).toBeNull();
      return;
    }
    expect(url).toMatch(/X-Amz-Signature=/);
    const response = await fetch(url!, { headers: { range: 'bytes=0-99' } });
    expect(response.status).toBe(206);
    expect((await response.arrayBuffer()).byteLength).toBe(100);
  });
});
