import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  killRecorders,
  startHlsSource,
  startMoto,
  waitFor,
  type HlsSource,
  type MotoServer,
} from '../../../testkit/capture';
import { startServerCluster, type ServerCluster } from '../../../testkit/server-cluster';
import { scaled } from '../../../testkit/time-scale';

interface Details {
  recording: { id: string; status: string } | null;
}

/**
 * Three real servers on one PostgreSQL sharing an S3 bucket (moto): a recording made by one server's
 * recorder plays through every server (each sends the player to the same object), none proxies.
 */
describe.skipIf(!process.env.TEST_DATABASE_URL)('media from any server with an S3 store', () => {
  let cluster: ServerCluster;
  let source: HlsSource;
  let moto: MotoServer;

  beforeAll(async () => {
    [moto, source] = await Promise.all([startMoto(), startHlsSource()]);
    const credentials = {
      AWS_ACCESS_KEY_ID: 'testing',
      AWS_SECRET_ACCESS_KEY: 'testing',
      AWS_EC2_METADATA_DISABLED: 'true',
      AWS_REGION: 'us-east-1',
    };
    const s3 = new S3Client({
      region: 'us-east-1',
      endpoint: moto.url,
      forcePathStyle: true,
      credentials: { accessKeyId: 'testing', secretAccessKey: 'testing' },
    });
    await s3.send(new CreateBucketCommand({ Bucket: 'sermons' }));
    cluster = await startServerCluster({
      servers: 3,
      env: { ...credentials, RECORDINGS_STORE: 's3://sermons/captures', S3_ENDPOINT: moto.url },
    });
  }, scaled(180_000));

  afterAll(async () => {
    await cluster?.close();
    for (const server of cluster?.servers ?? []) killRecorders(server.dataDir);
    await source?.close();
    await moto?.stop();
  });

  it(
    'plays a recording delivered to the bucket through every server',
    async () => {
      const [first] = cluster.servers;
      const token = await cluster.login();
      const launched = await first.request<{ data: { instances: { id: string }[] } }>('POST', '/api/instances/launch', {
        token,
        body: { configs: [{ url: source.url, duration: 12, width: 320, height: 240 }], max_workers: 1 },
      });
      expect(launched.status, launched.text).toBe(200);
      const id = launched.body.data.instances[0].id;
      const recording = await waitFor(
        async () => {
          const row = (await cluster.request<{ data: Details }>('GET', `/api/instances/${id}`, { token })).body.data
            .recording;
          return row && row.status !== 'recording' ? row : undefined;
        },
        'the recording to end',
        90_000,
        1000,
      );
      expect(recording.status).toBe('captured');
      const sizes: number[] = [];
      for (const server of cluster.servers) {
        const answer = await fetch(`${server.baseUrl}/api/recordings/${recording.id}/media`, {
          headers: { authorization: `Bearer ${token}` },
          redirect: 'manual',
        });
        expect(answer.status, `server ${server.index}`).toBe(302);
        const location = answer.headers.get('location') ?? '';
        expect(location.startsWith(moto.url), location).toBe(true);
        const media = await fetch(location);
        expect(media.status).toBe(200);
        sizes.push((await media.arrayBuffer()).byteLength);
      }
      expect(sizes[0]).toBeGreaterThan(1000);
      expect(new Set(sizes).size).toBe(1);
    },
    scaled(150_000),
  );
});
