import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  DescribeImagesCommand,
  DescribeInstanceAttributeCommand,
  EC2Client,
  TerminateInstancesCommand,
} from '@aws-sdk/client-ec2';
import { CreateBucketCommand, GetObjectCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INSTANCE_PATHS } from '../../server/capture/aws/user-data';
import { ffprobe, startHlsSource, startMoto, waitFor, type HlsSource, type MotoServer } from '../../testkit/capture';
import { freePort } from '../../testkit/ports';
import { startSandboxMachine } from '../../testkit/sandbox-machine';
import { serverCommand, spawnServerProcess } from '../support/server-process';
import { apiToken, startServer, type RunningServer } from './support';
import { scaled } from '../../testkit/time-scale';

/*
 * Issue 24 on what `npm start` runs: the built server (build/server/main.js, with the recorder `npm run
 * build` wrote beside it) on the aws driver with an s3:// store, against moto (EC2 and S3). moto runs
 * no machines, so the test is the machine: it reads the user-data the server launched the instance
 * with, runs it with bash with the instance's folders moved into a sandbox (testkit/sandbox-machine.ts;
 * `shutdown` and `apt-get` are stubs), and terminates the
 * instance when the script powers off, as EC2 does for an instance launched with shutdown behaviour
 * "terminate". The recorder downloads its runtime by the server's pre-signed link, records a local live
 * stream and delivers to moto's S3; the server reads the outcome from the store and plays the file.
 */

const BUCKET = 'cloud-sermons';
const CREDENTIALS = {
  AWS_ACCESS_KEY_ID: 'testing',
  AWS_SECRET_ACCESS_KEY: 'testing',
  AWS_EC2_METADATA_DISABLED: 'true',
};
const DURATION = 30;

describe('cloud recorders from the built server', () => {
  const saved = { ...process.env };
  const sandbox = fs.mkdtempSync(path.join(os.tmpdir(), 'capture-cloud-'));
  let moto: MotoServer | undefined;
  let source: HlsSource | undefined;
  let server: RunningServer | undefined;
  let ec2: EC2Client;
  let s3: S3Client;

  beforeAll(async () => {
    Object.assign(process.env, CREDENTIALS);
    [moto, source] = await Promise.all([startMoto(), startHlsSource()]);
    ec2 = new EC2Client({ region: 'us-east-1', endpoint: moto.url });
    s3 = new S3Client({ region: 'us-east-1', endpoint: moto.url, forcePathStyle: true });
    await s3.send(new CreateBucketCommand({ Bucket: BUCKET }));
  });

  afterAll(async () => {
    await server?.stop();
    ec2?.destroy();
    s3?.destroy();
    await source?.close();
    await moto?.stop();
    process.env = saved;
    fs.rmSync(sandbox, { recursive: true, force: true });
  });

  it('runs the build of the current sources', () => {
    expect(serverCommand().label, 'build the server first: npm run build (npm run test:e2e does)').toBe(
      'built server (build/server/main.js)',
    );
  });

  it('refuses to start on aws without an s3:// recordings store, naming both settings', async () => {
    const dataDir = path.join(sandbox, 'refused');
    const child = spawnServerProcess(await freePort(), dataDir, { CAPTURE_PROVIDER: 'aws', RECORDINGS_STORE: '' });
    await child.exited;
    expect(child.child.exitCode).toBe(2);
    expect(child.output()).toContain('CAPTURE_PROVIDER=aws needs RECORDINGS_STORE=s3://bucket/prefix');
  });

  it(
    'launches an EC2 recorder whose recording reaches the bucket, is judged captured from it, and plays',
    { timeout: scaled(150_000) },
    async () => {
      const { url: motoUrl } = moto as MotoServer;
      const images = await ec2.send(
        new DescribeImagesCommand({ Owners: ['amazon'], Filters: [{ Name: 'architecture', Values: ['x86_64'] }] }),
      );
      server = await startServer({
        env: {
          ...CREDENTIALS,
          CAPTURE_PROVIDER: 'aws',
          AWS_ENDPOINT_URL: motoUrl,
          AWS_REGION: 'us-east-1',
          AWS_IMAGE_ID: images.Images?.[0]?.ImageId ?? '',
          AWS_INSTANCE_TYPE: 't3.small',
          RECORDINGS_STORE: `s3://${BUCKET}/captures`,
          S3_ENDPOINT: motoUrl,
        },
      });
      const { baseUrl } = server;
      // The built recorder is in the bucket from the start, keyed by the hash the build wrote beside it.
      const builtHash = fs.readFileSync(path.resolve('build/recorder/recorder.mjs.sha256'), 'utf8').split(' ')[0];
      const runtimeKey = `captures/runtime/recorder-${builtHash.slice(0, 16)}.mjs`;
      await waitFor(
        async () =>
          ((await s3.send(new ListObjectsV2Command({ Bucket: BUCKET, Prefix: runtimeKey }))).Contents ?? []).length > 0,
        'the recorder in the bucket',
      );
      const token = await apiToken(baseUrl);
      const api = async <T>(url: string, init: RequestInit = {}): Promise<T> => {
        const response = await fetch(`${baseUrl}${url}`, {
          ...init,
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        });
        const text = await response.text();
        expect(response.status, `${url}: ${text}\n${server?.output()}`).toBe(200);
        return JSON.parse(text) as T;
      };

      const launched = await api<{ data: { instances: { id: string; instance_id: string }[] } }>(
        '/api/instances/launch',
        {
          method: 'POST',
          body: JSON.stringify({
            configs: [{ url: source?.url, duration: DURATION, width: 320, height: 180, mosque_id: null }],
            max_workers: 1,
          }),
        },
      );
      const [instance] = launched.data.instances;

      // The machine: the user-data EC2 was given, with its folders in the sandbox.
      const attribute = await ec2.send(
        new DescribeInstanceAttributeCommand({ InstanceId: instance.instance_id, Attribute: 'userData' }),
      );
      const userData = Buffer.from(attribute.UserData?.Value ?? '', 'base64').toString();
      for (const key of ['workDir', 'runtimeDir', 'console'] as const) expect(userData).toContain(INSTANCE_PATHS[key]);
      // The machine fetches that recorder by a pre-signed link and checks it against its hash.
      expect(userData).toContain(`/${BUCKET}/${runtimeKey}?`);
      expect(userData).toContain(`echo '${builtHash}  recorder.mjs'`);
      // No AWS credentials on the machine: it uploads with the POST policy in its user-data.
      const machine = startSandboxMachine(userData, path.join(sandbox, 'machine'));
      const exitCode = await machine.exited;
      const consoleText = machine.consoleText();
      expect(exitCode, consoleText).toBe(0);
      expect(machine.shutdownCalls()).toBe('-h now\n');
      expect(consoleText).not.toContain('does not match its sha256');
      await ec2.send(new TerminateInstancesCommand({ InstanceIds: [instance.instance_id] }));

      // In the bucket: the pieces, the joined file and the result, under the recording's prefix.
      const keys = (
        (await s3.send(new ListObjectsV2Command({ Bucket: BUCKET, Prefix: 'captures/adhoc/' }))).Contents ?? []
      ).map((o) => o.Key ?? '');
      const metadataKey = keys.find((key) => key.endsWith('/metadata.json'));
      expect(metadataKey, keys.join('\n')).toBeDefined();
      const stored = JSON.parse(
        await (await s3.send(new GetObjectCommand({ Bucket: BUCKET, Key: metadataKey }))).Body!.transformToString(),
      ) as { outcome: { status: string } };
      expect(stored.outcome.status, consoleText).toBe('captured');
      expect(keys.filter((key) => key.includes('/segments/')).length).toBeGreaterThanOrEqual(4);

      // The server, at its next reconcile pass (every 10 s), judges the ended machine by that result.
      const recording = await waitFor(
        async () => {
          const list = await api<{
            data: { recordings: { id: string; status: string; media_available: boolean; reason: string | null }[] };
          }>(`/api/recordings?instance_id=${instance.id}`);
          const found = list.data.recordings[0];
          return found && found.status !== 'recording' ? found : undefined;
        },
        'the recording to be judged',
        30_000,
      );
      expect(recording).toMatchObject({ status: 'captured', reason: null, media_available: true });

      // It plays: /media answers a redirect to the bucket, which serves the MP4.
      const media = await fetch(`${baseUrl}/api/recordings/${recording.id}/media`, {
        headers: { authorization: `Bearer ${token}` },
        redirect: 'manual',
      });
      expect(media.status).toBe(302);
      const location = media.headers.get('location') ?? '';
      expect(location.startsWith(`${motoUrl}/${BUCKET}/captures/adhoc/`)).toBe(true);
      const file = path.join(sandbox, 'played.mp4');
      fs.writeFileSync(file, Buffer.from(await (await fetch(location)).arrayBuffer()));
      const probe = await ffprobe(file);
      expect(probe).toMatchObject({ width: 320, height: 180 });
      expect(probe.duration).toBeGreaterThanOrEqual(DURATION - 1);
      // Decoded to the end (the joined file's timestamps may repeat at piece boundaries, which ffmpeg warns about and plays).
      const decoded = spawnSync('ffmpeg', ['-v', 'error', '-i', file, '-f', 'null', '-'], { encoding: 'utf8' });
      expect(decoded.status, decoded.stderr).toBe(0);
    },
  );
});
