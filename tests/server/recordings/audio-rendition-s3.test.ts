import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CreateBucketCommand, ListObjectsV2Command, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mediaLinkResponseSchema } from '../../../contract/recordings';
import { startMoto, type MotoServer } from '../../../testkit/capture';
import { contentProgramme } from '../../../testkit/content-programmes';
import { integratedLufs } from '../../../testkit/loudness';
import { scaled } from '../../../testkit/time-scale';
import { probe, recordingFile, seedFinishedRecordings } from '../helpers/audio-files';
import { createTestApp, type TestApp } from '../helpers/test-app';

/*
 * A recording an EC2 recorder shipped to the bucket (moto): its audio-only file is made from the object
 * (fetched to the server's disk), put beside it in the bucket, served by a pre-signed redirect as the
 * recording is, and deleted with it.
 */
describe('the audio-only file of a recording in a bucket', () => {
  let t: TestApp;
  let moto: MotoServer;
  let s3: S3Client;
  let operator: string;
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'audio-s3-'));
  const env = { AWS_ACCESS_KEY_ID: 'testing', AWS_SECRET_ACCESS_KEY: 'testing', AWS_EC2_METADATA_DISABLED: 'true' };
  const key = 'adhoc/2026-11-20/rec-buck00000001/recording.mp4';
  const source = path.join(work, 'recording.mp4');

  const listed = async () =>
    ((await s3.send(new ListObjectsV2Command({ Bucket: 'sermons', Prefix: 'captures/' }))).Contents ?? []).map(
      (o) => o.Key,
    );

  beforeAll(async () => {
    Object.assign(process.env, env);
    moto = await startMoto();
    s3 = new S3Client({ region: 'us-east-1', endpoint: moto.url, forcePathStyle: true });
    await s3.send(new CreateBucketCommand({ Bucket: 'sermons' }));
    recordingFile(source, contentProgramme({ fault: 'silent', from: 0, to: 20, seconds: 60 }));
    await s3.send(new PutObjectCommand({ Bucket: 'sermons', Key: `captures/${key}`, Body: fs.readFileSync(source) }));
    t = await createTestApp({ env: { RECORDINGS_STORE: 's3://sermons/captures', S3_ENDPOINT: moto.url } });
    operator = (await t.createUser({ username: 'operator', role: 'user' })).token;
    await seedFinishedRecordings(t, [{ id: 'rec-buck00000001', filePath: key, bytes: fs.statSync(source).size }]);
  }, scaled(60_000));

  afterAll(async () => {
    await t?.close();
    await moto?.stop();
    fs.rmSync(work, { recursive: true, force: true });
  });

  it('is made from the object, kept beside it, served by a pre-signed redirect, and deleted with it', async () => {
    const link = await t.request({
      method: 'POST',
      url: '/api/recordings/rec-buck00000001/media-link?rendition=audio',
      token: operator,
    });
    expect(link.statusCode).toBe(200);
    const { url, preparing } = mediaLinkResponseSchema.parse(link.json()).data;
    expect(preparing).toBe(false);
    expect(await listed()).toEqual([`captures/${key}`, expect.stringMatching(/^captures\/.*\.mp4\.audio-\d+\.m4a$/)]);

    const answer = await t.request({ method: 'GET', url: `${url}&download=1` });
    expect(answer.statusCode).toBe(302);
    const signed = new URL(answer.headers.location as string);
    expect(signed.searchParams.get('response-content-disposition')).toContain('recording.m4a');
    const object = await fetch(signed);
    expect(object.status).toBe(200);
    const file = path.join(work, 'audio.m4a');
    fs.writeFileSync(file, Buffer.from(await object.arrayBuffer()));
    const { format, streams } = probe(file);
    expect(streams.map((s) => `${s.codec_type}/${s.codec_name}`)).toEqual(['audio/aac']);
    expect(Math.abs(Number(format.duration) - Number(probe(source).format.duration))).toBeLessThanOrEqual(0.5);
    expect(Math.abs(integratedLufs(file) - -16)).toBeLessThanOrEqual(1);
    // Nothing left on the server's disk: the fetched media and the encode's folder are removed.
    expect(fs.readdirSync(path.join(t.config.dataDir, 'audio-renditions'))).toEqual([]);

    const admin = await t.login();
    expect(
      (await t.request({ method: 'DELETE', url: '/api/recordings/rec-buck00000001', token: admin })).statusCode,
    ).toBe(200);
    expect(await listed()).toEqual([]);
  });
});
