import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  DescribeImagesCommand,
  DescribeInstanceAttributeCommand,
  DescribeInstancesCommand,
  EC2Client,
  TerminateInstancesCommand,
} from '@aws-sdk/client-ec2';
import { CreateBucketCommand, GetObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { awsStore } from '../../../server/capture';
import { AwsCaptureProvider, MANAGED_BY } from '../../../server/capture/aws/driver';
import type { LaunchedInstance } from '../../../server/capture/provider';
import { S3RecordingStore } from '../../../server/storage/s3-store';
import { ffprobe, startHlsSource, startMoto, type HlsSource, type MotoServer } from '../../../testkit/capture';
import { recorderNodeMissing, skipIfMissing } from '../../../testkit/prerequisites';
import { startSandboxMachine, type SandboxMachine } from '../../../testkit/sandbox-machine';
import { scaled } from '../../../testkit/time-scale';
import { pause, waitFor } from '../../../testkit/wait';
import { SchedulerEnv, type SchedulerApp } from '../scheduler/helpers';

// PostgreSQL pass: skipped: minutes of real-time capture on moto and a sandboxed instance, run in the server pass; the rows it writes are the scheduler's and recordings', whose PostgreSQL paths the other files of this pass cover

/*
 * RECORDINGS_PER_INSTANCE=4: four recordings whose windows open together share one EC2 instance
 * (moto's), whose user-data runs in a sandbox against a local live stream and moto's S3. Each
 * recorder delivers under its own recording's prefix and leaves its own metadata.json, so each gets
 * its own outcome: two record the stream (captured, or partial where a busy host starves the test stream), one is given a stream nobody serves (failed),
 * and one is stopped by the operator mid-window while the others go on (partial, stopped). The
 * instance powers off once its last recorder has ended.
 */

const BUCKET = 'shared';
const WINDOW_SECONDS = 45;
const MOSQUES = ['shared0001', 'shared0002', 'shared0003', 'shared0004'];

describe('four recordings on one cloud instance', () => {
  const noRecorderNode = recorderNodeMissing();
  const saved = { ...process.env };
  const sandbox = fs.mkdtempSync(path.join(os.tmpdir(), 'capture-shared-'));
  let machine: SandboxMachine | undefined;
  let moto: MotoServer;
  let source: HlsSource;
  let ec2: EC2Client;
  let s3: S3Client;
  let env: SchedulerEnv;
  let s: SchedulerApp;
  let realTime: NodeJS.Timeout | undefined;

  beforeAll(async () => {
    if (noRecorderNode) return;
    Object.assign(process.env, {
      AWS_ACCESS_KEY_ID: 'testing',
      AWS_SECRET_ACCESS_KEY: 'testing',
      AWS_EC2_METADATA_DISABLED: 'true',
    });
    [moto, source] = await Promise.all([startMoto(), startHlsSource()]);
    ec2 = new EC2Client({ region: 'us-east-1', endpoint: moto.url });
    s3 = new S3Client({ region: 'us-east-1', endpoint: moto.url, forcePathStyle: true });
    await s3.send(new CreateBucketCommand({ Bucket: BUCKET }));
    const images = await ec2.send(
      new DescribeImagesCommand({ Owners: ['amazon'], Filters: [{ Name: 'architecture', Values: ['x86_64'] }] }),
    );
    const imageId = images.Images?.[0]?.ImageId ?? '';
    env = await SchedulerEnv.create({
      start: new Date().toISOString(),
      mosques: MOSQUES.map((id) => ({
        id,
        name: `Mosque ${id}`,
        timezone: 'UTC',
        fridayPrayer: '12:30',
        url: source.url,
      })),
      env: {
        CAPTURE_PROVIDER: 'aws',
        AWS_ENDPOINT_URL: moto.url,
        AWS_REGION: 'us-east-1',
        AWS_IMAGE_ID: imageId,
        AWS_INSTANCE_TYPE: 't3.small',
        RECORDINGS_STORE: `s3://${BUCKET}/captures`,
        S3_ENDPOINT: moto.url,
        RECORDINGS_PER_INSTANCE: '4',
      },
    });
    realTime = setInterval(() => env.clock.set(new Date()), 100);
    // The driver the config makes, its instances working in the sandbox (the places it fetches carry their paths).
    const store = new S3RecordingStore({
      bucket: BUCKET,
      prefix: 'captures/',
      region: 'us-east-1',
      endpoint: moto.url,
    });
    const driver = new AwsCaptureProvider({
      region: 'us-east-1',
      endpoint: moto.url,
      imageId,
      instanceType: 't3.small',
      clock: env.clock,
      allowPrivateStreamHosts: true,
      recordingsPerInstance: env.config.recordingsPerInstance,
      store: awsStore(store, env.clock),
      instancePaths: {
        workDir: path.join(sandbox, 'work'),
        runtimeDir: path.join(sandbox, 'opt'),
        console: path.join(sandbox, 'console.log'),
      },
    });
    s = await env.build({ realLauncher: true, captureDriver: driver });
  }, scaled(120_000));

  afterAll(async () => {
    machine?.kill();
    clearInterval(realTime);
    await env?.dispose();
    ec2?.destroy();
    s3?.destroy();
    await source?.close();
    await moto?.stop();
    process.env = saved;
    fs.rmSync(sandbox, { recursive: true, force: true });
  });

  it(
    'gives each its own prefix and outcome; one stopped, one failing, the others go on',
    { timeout: scaled(240_000) },
    async ({ skip }) => {
      skipIfMissing(skip, noRecorderNode);
      const { ctx } = s.app;
      const start = new Date(Date.now() + 15_000);
      const window = {
        windowStart: start.toISOString(),
        windowEnd: new Date(start.getTime() + WINDOW_SECONDS * 1000).toISOString(),
      };
      const deadStream = 'http://127.0.0.1:9/nobody/live.m3u8';
      const rows: LaunchedInstance[] = [];
      for (const [i, mosque] of MOSQUES.entries()) {
        const url = i === 2 ? deadStream : source.url;
        rows.push(
          await ctx.capture.launch(
            { url, duration: WINDOW_SECONDS, width: 320, height: 180, mosque_id: mosque, method: 'api' },
            { ...window, idempotencyKey: `shared-${mosque}` },
          ),
        );
      }

      // One instance for the four, each recording under its own prefix.
      const managed = await ec2.send(
        new DescribeInstancesCommand({ Filters: [{ Name: `tag:${MANAGED_BY.key}`, Values: [MANAGED_BY.value] }] }),
      );
      const instances = (managed.Reservations ?? []).flatMap((r) => r.Instances ?? []);
      expect(instances).toHaveLength(1);
      const instanceId = instances[0].InstanceId ?? '';
      expect(new Set(rows.map((row) => row.providerInstanceId))).toEqual(new Set([instanceId]));
      const recordings = await Promise.all(
        rows.map(async (row) => (await ctx.recordings.findRowByInstance(row.launchId))!),
      );
      const prefixes = recordings.map((r) => (r.file_path ?? '').slice(0, (r.file_path ?? '').lastIndexOf('/') + 1));
      expect(new Set(prefixes).size).toBe(4);

      const attribute = await ec2.send(
        new DescribeInstanceAttributeCommand({ InstanceId: instanceId, Attribute: 'userData' }),
      );
      machine = startSandboxMachine(Buffer.from(attribute.UserData?.Value ?? '', 'base64').toString(), sandbox);

      // Mid-window (real time: the recorders record the live stream meanwhile) the operator stops the
      // fourth: its recorder alone stops, the instance goes on.
      await pause(Math.max(0, start.getTime() + 20_000 - Date.now()));
      await ctx.instances.terminate([rows[3].launchId], 'Not needed today');
      const stopped = await waitFor(
        async () => {
          const found = await ctx.recordings.findRowByInstance(rows[3].launchId);
          return found?.status !== 'recording' ? found : undefined;
        },
        'the stopped recording to be judged',
        60_000,
      );
      expect(machine.consoleText()).toContain('recording 4 stopped by the operator');
      expect((await ctx.recordings.findRowByInstance(rows[0].launchId))?.status).toBe('recording');
      const state = (await ec2.send(new DescribeInstancesCommand({ InstanceIds: [instanceId] }))).Reservations?.[0]
        ?.Instances?.[0]?.State?.Name;
      expect(state).toBe('running');

      // The instance powers off once the last recorder has ended (EC2 then terminates it).
      expect(await machine.exited, machine.consoleText()).toBe(0);
      expect(machine.shutdownCalls()).toContain('-h now');
      await ec2.send(new TerminateInstancesCommand({ InstanceIds: [instanceId] }));

      const judged = await waitFor(
        async () => {
          const found = await Promise.all(rows.map((row) => ctx.recordings.findRowByInstance(row.launchId)));
          return found.every((r) => r && r.status !== 'recording') ? found.map((r) => r!) : undefined;
        },
        'all four recordings to be judged',
        60_000,
      );
      const outcomes = `${JSON.stringify(judged.map((r) => [r.status, r.reason, r.covered_seconds]))}\n${machine.consoleText()}`;
      // The two on the live stream recorded their window (a test stream starved by a busy host may leave it partial).
      for (const recording of judged.slice(0, 2)) {
        expect(['captured', 'partial'], outcomes).toContain(recording.status);
        expect(Number(recording.covered_seconds), outcomes).toBeGreaterThan(WINDOW_SECONDS / 2);
      }
      expect(judged[2].status, outcomes).toBe('failed');
      expect(judged[2].reason).toMatch(/stream never came/i);
      expect(judged[3].status, outcomes).toBe('partial');
      expect(stopped.id).toBe(judged[3].id);
      // Each recorder left its own result under its own prefix: the window ended the first three, the operator the fourth.
      const endedBy = [];
      for (const [i, recording] of judged.entries()) {
        const metadata = JSON.parse(
          await (
            await s3.send(new GetObjectCommand({ Bucket: BUCKET, Key: `captures/${prefixes[i]}metadata.json` }))
          ).Body!.transformToString(),
        ) as { recordingId: string; outcome: { status: string; endedBy: string } };
        expect(metadata.recordingId).toBe(recording.id);
        expect(metadata.outcome.status).toBe(recording.status);
        endedBy.push(metadata.outcome.endedBy);
      }
      expect(endedBy).toEqual(['window', 'window', 'window', 'operator']);
      for (const recording of judged.slice(0, 2)) {
        const file = path.join(sandbox, `${recording.id}.mp4`);
        const object = await s3.send(new GetObjectCommand({ Bucket: BUCKET, Key: `captures/${recording.file_path}` }));
        fs.writeFileSync(file, Buffer.from(await object.Body!.transformToByteArray()));
        expect((await ffprobe(file)).duration).toBeGreaterThan(WINDOW_SECONDS / 2);
      }
    },
  );
});
