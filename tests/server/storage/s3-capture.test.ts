import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CreateBucketCommand, GetObjectCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InstanceDetails } from '../../../contract/instances';
import type { RecordingDetails } from '../../../contract/recordings';
import {
  ffprobe,
  instancePids,
  killRecorders,
  startHlsSource,
  startMoto,
  waitFor,
  type HlsSource,
  type MotoServer,
} from '../../../testkit/capture';
import { addMosques } from '../helpers/mosques';
import { createTestApp, type TestApp } from '../helpers/test-app';
import { scaled } from '../../../testkit/time-scale';

// PostgreSQL pass: skipped: real-time capture into moto S3; the recording rows are the ones recordings/library.test.ts proves on PostgreSQL

/** Local recorders with RECORDINGS_STORE=s3://…: real ffmpeg on a live HLS stream, moto's S3 as the bucket. */
describe('captures delivered to an s3 store', () => {
  let t: TestApp;
  let token: string;
  let source: HlsSource;
  let moto: MotoServer;
  let s3: S3Client;
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 's3-capture-'));

  const keys = async (prefix: string) => {
    const page = await s3.send(new ListObjectsV2Command({ Bucket: 'sermons', Prefix: prefix }));
    return (page.Contents ?? []).map((o) => o.Key ?? '').sort();
  };
  const details = async (id: string) => {
    const response = await t.request({ method: 'GET', url: `/api/instances/${id}`, token });
    return response.json<{ data: InstanceDetails }>().data;
  };
  const launch = async (mosqueId: string, duration: number) => {
    const response = await t.request({
      method: 'POST',
      url: '/api/instances/launch',
      token,
      payload: {
        configs: [{ url: source.url, duration, width: 320, height: 180, mosque_id: mosqueId }],
        max_workers: 1,
      },
    });
    expect(response.statusCode, response.body).toBe(200);
    const id = response.json<{ data: { instances: { id: string }[] } }>().data.instances[0].id;
    const recording = (await details(id)).recording;
    return { id, recordingId: recording?.id ?? '', prefix: `captures/${mosqueId}/2026-11-23/${recording?.id}/` };
  };
  const ended = (id: string) =>
    waitFor(async () => ((await details(id)).state === 'stopped' ? details(id) : undefined), `${id} to finish`, 90_000);

  beforeAll(async () => {
    Object.assign(process.env, {
      AWS_ACCESS_KEY_ID: 'testing',
      AWS_SECRET_ACCESS_KEY: 'testing',
      AWS_EC2_METADATA_DISABLED: 'true',
    });
    [moto, source] = await Promise.all([startMoto(), startHlsSource()]);
    s3 = new S3Client({ region: 'us-east-1', endpoint: moto.url, forcePathStyle: true });
    await s3.send(new CreateBucketCommand({ Bucket: 'sermons' }));
    t = await createTestApp({ env: { RECORDINGS_STORE: 's3://sermons/captures', S3_ENDPOINT: moto.url } });
    token = await t.login();
    await addMosques(t, token, 'bucketmo01', 'bucketmo02');
  }, scaled(60_000));

  afterAll(async () => {
    if (t) killRecorders(t.config.dataDir);
    await t?.close();
    await source?.close();
    await moto?.stop();
    fs.rmSync(work, { recursive: true, force: true });
  });

  it(
    'ships segments while recording and one playable file with its metadata at the end',
    { timeout: scaled(120_000) },
    async () => {
      const { id, recordingId, prefix } = await launch('bucketmo01', 16);
      // During the window: closed pieces are already in the bucket.
      const during = await waitFor(
        async () => {
          const found = (await keys(`${prefix}segments/`)).filter((k) => k.endsWith('.ts'));
          return found.length >= 2 ? found : undefined;
        },
        'segments in the bucket',
        40_000,
      );
      expect((await details(id)).state).toBe('running');
      expect(during[0]).toMatch(/segments\/\d{8}T\d{6}Z\/run-0001-00000\.ts$/);

      const done = await ended(id);
      expect(done.recording, JSON.stringify(done.recording)).toMatchObject({
        status: 'captured',
        file_name: '20261123T090000Z.mp4',
        download_url: `/api/recordings/${recordingId}/media?download=1`,
      });
      const all = await keys(prefix);
      expect(all).toContain(`${prefix}20261123T090000Z.mp4`);
      expect(all).toContain(`${prefix}metadata.json`);
      const segments = all.filter((k) => k.includes('/segments/'));
      expect(segments.length).toBeGreaterThanOrEqual(4);

      const file = path.join(work, 'joined.mp4');
      const object = await s3.send(new GetObjectCommand({ Bucket: 'sermons', Key: `${prefix}20261123T090000Z.mp4` }));
      fs.writeFileSync(file, Buffer.from(await object.Body!.transformToByteArray()));
      const probe = await ffprobe(file);
      expect(probe).toMatchObject({ width: 320, height: 180 });
      expect(probe.duration).toBeGreaterThanOrEqual(15);
      expect(done.recording?.bytes).toBe(fs.statSync(file).size);

      const metadata = JSON.parse(
        await (
          await s3.send(new GetObjectCommand({ Bucket: 'sermons', Key: `${prefix}metadata.json` }))
        ).Body!.transformToString(),
      );
      expect(metadata).toMatchObject({
        recordingId,
        outcome: { status: 'captured' },
        coverage: { expectedSeconds: 16, gaps: [] },
        media: { name: '20261123T090000Z.mp4' },
      });
      expect(metadata.segments.map((s: { name: string }) => `${prefix}${s.name}`)).toEqual(segments);
      // Only the store keeps it: the local staging file and pieces are gone.
      expect(fs.readdirSync(path.join(t.config.dataDir, 'recordings', 'bucketmo01'))).toEqual([]);

      // The library sends the player to a pre-signed URL that honours ranges.
      const media = await t.request({
        method: 'GET',
        url: `/api/recordings/${recordingId}/media`,
        token,
        headers: { range: 'bytes=0-99' },
      });
      expect(media.statusCode).toBe(302);
      const redirected = await fetch(media.headers.location as string, { headers: { range: 'bytes=0-99' } });
      expect(redirected.status).toBe(206);
      expect((await redirected.arrayBuffer()).byteLength).toBe(100);
      const download = await t.request({
        method: 'GET',
        url: `/api/recordings/${recordingId}/media?download=1`,
        token,
        headers: { range: 'bytes=0-99' },
      });
      expect(download.statusCode).toBe(206);
      expect(download.rawPayload.length).toBe(100);
      const stored = await t.request({ method: 'GET', url: `/api/recordings/${recordingId}`, token });
      expect(stored.json<{ data: RecordingDetails }>().data).toMatchObject({
        store: 's3',
        media_available: true,
        download_url: `/api/recordings/${recordingId}/media?download=1`,
      });
    },
  );

  it(
    'keeps every finished segment in the bucket when the recorder is killed mid-way',
    { timeout: scaled(120_000) },
    async () => {
      const { id, prefix } = await launch('bucketmo02', 24);
      await waitFor(
        async () => ((await keys(`${prefix}segments/`)).length >= 3 ? true : undefined),
        'three segments in the bucket',
        50_000,
      );
      const dir = path.join(t.config.dataDir, 'instances', id);
      const { recorder } = instancePids(t.config.dataDir, id);
      process.kill(-(recorder ?? 0), 'SIGKILL');
      const listFile = fs
        .readdirSync(path.join(t.config.dataDir, 'recordings', 'bucketmo02'))
        .find((n) => n.endsWith('.parts'));
      const closed = fs
        .readFileSync(path.join(t.config.dataDir, 'recordings', 'bucketmo02', listFile ?? '', 'run-0001.list'), 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((line) => path.basename(line));
      const inBucket = (await keys(`${prefix}segments/`)).map((k) => path.posix.basename(k));
      // At most the piece that was on its way when the recorder died is not there yet.
      expect(closed.slice(0, -1).every((name) => inBucket.includes(name))).toBe(true);
      // The record of what was delivered never runs ahead of the bucket. It may lag it by the piece whose
      // upload had landed when the recorder died, its answer not yet read (seen in a loaded CI run: the
      // bucket held three pieces, the record two), besides the piece closed meanwhile and still queued.
      const recorded = fs.readFileSync(path.join(dir, 'delivered.txt'), 'utf8').split('\n').filter(Boolean);
      expect(recorded.every((name) => inBucket.includes(name))).toBe(true);
      expect(recorded.length).toBeGreaterThanOrEqual(closed.length - 2);

      // Started again by the supervisor, the recorder carries on, ships what was left and joins the lot.
      const done = await ended(id);
      expect(done.recording?.status).not.toBe('failed');
      const after = (await keys(`${prefix}segments/`)).map((k) => path.posix.basename(k));
      expect(closed.every((name) => after.includes(name))).toBe(true);
      expect(await keys(prefix)).toContain(`${prefix}metadata.json`);
    },
  );
});
