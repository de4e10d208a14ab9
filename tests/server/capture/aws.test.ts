import http from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  DescribeImagesCommand,
  DescribeInstanceAttributeCommand,
  DescribeInstancesCommand,
  DescribeSnapshotsCommand,
  DescribeVolumesCommand,
  EC2Client,
  TerminateInstancesCommand,
} from '@aws-sdk/client-ec2';
import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { amiListResponseSchema } from '../../../contract/ami';
import { instanceDetailsResponseSchema, instancesListResponseSchema } from '../../../contract/instances';
import { addMosques } from '../helpers/mosques';
import { createTestApp, type TestApp } from '../helpers/test-app';
import { startMoto, type MotoServer } from '../../../testkit/capture';

const CONFIG = {
  url: 'https://streams.example.com/mosque/live.m3u8',
  duration: 5400,
  width: 1280,
  height: 720,
  mosque_id: 'awsmosque1',
};

/** An EC2 endpoint that answers every call with one error, as AWS does when it throttles or refuses. */
async function failingEndpoint(
  status: number,
  code: string,
  message: string,
): Promise<{ url: string; close(): Promise<void> }> {
  const server = http.createServer((request, response) => {
    request.resume();
    request.on('end', () =>
      response
        .writeHead(status, { 'content-type': 'text/xml' })
        .end(
          `<?xml version="1.0" encoding="UTF-8"?><Response><Errors><Error><Code>${code}</Code><Message>${message}</Message></Error></Errors><RequestID>r-1</RequestID></Response>`,
        ),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

describe('aws capture driver against moto', () => {
  let moto: MotoServer;
  let ec2: EC2Client;
  let baseImage: string;
  let t: TestApp;
  let token: string;
  const saved = { ...process.env };
  // EC2 recorders need a bucket to deliver to (the server refuses CAPTURE_PROVIDER=aws without one): moto's S3.
  const bucketStore = () => ({ RECORDINGS_STORE: 's3://aws-driver-test', S3_ENDPOINT: moto.url });

  const post = (url: string, payload?: object) =>
    t.request({ method: 'POST', url, token, ...(payload ? { payload } : {}) });
  const describeInstance = async (id: string) => {
    const result = await ec2.send(new DescribeInstancesCommand({ InstanceIds: [id] }));
    return result.Reservations?.[0]?.Instances?.[0];
  };

  beforeAll(async () => {
    Object.assign(process.env, {
      AWS_ACCESS_KEY_ID: 'testing',
      AWS_SECRET_ACCESS_KEY: 'testing',
      AWS_EC2_METADATA_DISABLED: 'true',
    });
    moto = await startMoto();
    ec2 = new EC2Client({ region: 'us-east-1', endpoint: moto.url });
    const images = await ec2.send(
      new DescribeImagesCommand({ Owners: ['amazon'], Filters: [{ Name: 'architecture', Values: ['x86_64'] }] }),
    );
    baseImage = images.Images?.[0]?.ImageId ?? '';
    expect(baseImage).toMatch(/^ami-/);
    await new S3Client({ region: 'us-east-1', endpoint: moto.url, forcePathStyle: true }).send(
      new CreateBucketCommand({ Bucket: 'aws-driver-test' }),
    );
    t = await createTestApp({
      env: {
        CAPTURE_PROVIDER: 'aws',
        AWS_ENDPOINT_URL: moto.url,
        AWS_REGION: 'us-east-1',
        AWS_IMAGE_ID: baseImage,
        AWS_INSTANCE_TYPE: 't3.small',
        AWS_EXTRA_TAGS: 'team=media,cost-centre=friday',
        ...bucketStore(),
      },
    });
    token = await t.login();
    await addMosques(t, token, 'awsmosque1');
  });

  afterAll(async () => {
    await t?.close();
    ec2?.destroy();
    await moto?.stop();
    process.env = saved;
  });

  it('launches a tagged instance with the recorder user-data and reconciles it by tag', async () => {
    const response = await post('/api/instances/launch', { configs: [CONFIG], max_workers: 1 });
    expect(response.statusCode, response.body).toBe(200);
    const launched = response.json().data.instances[0];
    expect(launched).toMatchObject({ state: 'pending', instance_type: 't3.small', mosque_id: 'awsmosque1' });
    expect(launched.instance_id).toMatch(/^i-[0-9a-f]+$/);
    expect(launched.instance_id).not.toBe(launched.id);

    const ec2Instance = await describeInstance(launched.instance_id);
    const tags = Object.fromEntries((ec2Instance?.Tags ?? []).map((tag) => [tag.Key, tag.Value]));
    expect(tags).toMatchObject({
      Name: launched.name,
      'managed-by': 'capture-command-center',
      mosque_id: 'awsmosque1',
      'launch-id': launched.id,
      'recording-id': expect.stringMatching(/^rec-/),
      'capture-url-sha256': expect.stringMatching(/^[0-9a-f]{32}$/),
      team: 'media',
      'cost-centre': 'friday',
    });
    // Stream URLs carry tokens: no tag holds one, whole or cut.
    expect(Object.values(tags).filter((value) => String(value).includes('streams.example.com'))).toEqual([]);
    expect(ec2Instance?.MetadataOptions).toMatchObject({ HttpTokens: 'required', HttpPutResponseHopLimit: 1 });
    const volumeIds = (ec2Instance?.BlockDeviceMappings ?? []).map((m) => m.Ebs?.VolumeId ?? '');
    const volumes = (await ec2.send(new DescribeVolumesCommand({ VolumeIds: volumeIds }))).Volumes ?? [];
    expect(volumes.length).toBeGreaterThan(0);
    for (const volume of volumes) {
      expect(volume.Encrypted).toBe(true);
      expect(Object.fromEntries((volume.Tags ?? []).map((tag) => [tag.Key, tag.Value]))).toMatchObject({
        'managed-by': 'capture-command-center',
        team: 'media',
      });
    }
    expect(ec2Instance?.ImageId).toBe(baseImage);
    const userData = await ec2.send(
      new DescribeInstanceAttributeCommand({ InstanceId: launched.instance_id, Attribute: 'userData' }),
    );
    const script = Buffer.from(userData.UserData?.Value ?? '', 'base64').toString();
    expect(script).toContain('recorder.mjs');
    expect(script).toContain(CONFIG.url);
    expect(script).toContain('"duration":5400');

    await t.app.ctx.instances.reconcile();
    const list = instancesListResponseSchema.parse(
      (await t.request({ method: 'GET', url: '/api/instances/', token })).json(),
    ).data;
    expect(list).toEqual([
      expect.objectContaining({ id: launched.id, state: 'running', recording_status: 'recording' }),
    ]);
    const details = instanceDetailsResponseSchema.parse(
      (await t.request({ method: 'GET', url: `/api/instances/${launched.instance_id}`, token })).json(),
    ).data;
    expect(details).toMatchObject({
      provider: 'aws',
      provider_instance_id: launched.instance_id,
      running_at: expect.any(String),
    });

    const logs = await t.request({ method: 'GET', url: `/api/instances/${launched.id}/logs?lines=5&live=true`, token });
    expect(logs.statusCode).toBe(200);
    expect(logs.json().data.logs.length).toBeGreaterThan(0);
    expect(logs.json().data.logs.length).toBeLessThanOrEqual(5);
  });

  it('launches once per job, whoever asks twice', async () => {
    const config = { ...CONFIG, mosque_id: 'jobmosque1', method: 'api' };
    const first = await t.app.ctx.capture.launch(config, { jobId: 'job-42', idempotencyKey: 'job-42' });
    const second = await t.app.ctx.capture.launch(config, { jobId: 'job-42', idempotencyKey: 'job-42' });
    expect(second).toMatchObject({
      launchId: first.launchId,
      providerInstanceId: first.providerInstanceId,
      existing: true,
    });
    const tagged = await ec2.send(
      new DescribeInstancesCommand({ Filters: [{ Name: 'tag:job-id', Values: ['job-42'] }] }),
    );
    expect(tagged.Reservations?.flatMap((r) => r.Instances ?? [])).toHaveLength(1);
  });

  it('terminates, and the reconciled instance ends terminated with its recording marked', async () => {
    const [instance] = (await t.request({ method: 'GET', url: '/api/instances/', token }))
      .json()
      .data.filter((i: { mosque_id: string }) => i.mosque_id === 'awsmosque1');
    const response = await post('/api/instances/terminate', { instance_ids: [instance.id] });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().data.results[0]).toMatchObject({ success: true, state: 'stopping' });
    await t.app.ctx.instances.reconcile();
    expect((await describeInstance(instance.instance_id))?.State?.Name).toBe('terminated');
    const details = (await t.request({ method: 'GET', url: `/api/instances/${instance.id}`, token })).json().data;
    expect(details).toMatchObject({ state: 'terminated', ended_at: expect.any(String) });
    expect(details.recording).toMatchObject({ status: 'partial' });
    expect((await post('/api/instances/terminate', { instance_ids: [instance.id] })).statusCode).toBe(409);
  });

  it('creates, lists and deletes an AMI with its snapshots; launches from the latest AMI when none is configured', async () => {
    const noImage = await createTestApp({
      env: { CAPTURE_PROVIDER: 'aws', AWS_ENDPOINT_URL: moto.url, AWS_REGION: 'us-east-1', ...bucketStore() },
    });
    try {
      const noImageToken = await noImage.login();
      await addMosques(noImage, noImageToken, 'awsmosque1');
      const refused = await noImage.request({
        method: 'POST',
        url: '/api/instances/launch',
        token: noImageToken,
        payload: { configs: [CONFIG], max_workers: 1 },
      });
      expect(refused.statusCode).toBe(503);
      expect(refused.json().detail).toBe('No recorder image to launch: set AWS_IMAGE_ID or create an AMI first');

      const source = (await t.request({ method: 'GET', url: '/api/instances/', token }))
        .json()
        .data.find((i: { mosque_id: string }) => i.mosque_id === 'jobmosque1');
      const created = await post('/api/ami/create', {
        instance_id: source.id,
        name: 'recorder',
        description: 'Recorder image',
        version: '2.0.0',
        tags: { team: 'ops' },
      });
      expect(created.statusCode, created.body).toBe(200);
      const { ami_id, name } = created.json().data;
      expect(ami_id).toMatch(/^ami-/);
      expect(name).toBe('recorder-20261123-090000');

      const amis = amiListResponseSchema.parse((await t.request({ method: 'GET', url: '/api/ami/list', token })).json())
        .data.amis;
      const ami = amis.find((a) => a.ami_id === ami_id);
      expect(ami).toMatchObject({
        name,
        version: '2.0.0',
        state: 'available',
        is_latest: true,
        source_instance_id: source.id,
        tags: expect.objectContaining({ team: 'ops' }),
      });
      expect(ami?.size_gb).toBeGreaterThan(0);

      const fromLatest = await noImage.request({
        method: 'POST',
        url: '/api/instances/launch',
        token: noImageToken,
        payload: { configs: [CONFIG], max_workers: 1 },
      });
      expect(fromLatest.statusCode, fromLatest.body).toBe(200);
      expect((await describeInstance(fromLatest.json().data.instances[0].instance_id))?.ImageId).toBe(ami_id);

      const image = (await ec2.send(new DescribeImagesCommand({ ImageIds: [ami_id] }))).Images?.[0];
      const snapshots = (image?.BlockDeviceMappings ?? [])
        .map((m) => m.Ebs?.SnapshotId)
        .filter((s): s is string => Boolean(s));
      expect(snapshots.length).toBeGreaterThan(0);

      const deleted = await t.request({ method: 'DELETE', url: `/api/ami/${ami_id}`, token });
      expect(deleted.json()).toEqual({ success: true, message: `AMI ${ami_id} deleted successfully` });
      await expect(ec2.send(new DescribeSnapshotsCommand({ SnapshotIds: snapshots }))).rejects.toMatchObject({
        name: 'InvalidSnapshot.NotFound',
      });
      expect((await t.request({ method: 'GET', url: '/api/ami/list', token })).json().data).toEqual({
        amis: [],
        provider: 'aws',
      });
      expect((await t.request({ method: 'DELETE', url: `/api/ami/${ami_id}`, token })).statusCode).toBe(404);
    } finally {
      await noImage.close();
    }
  });

  it('maps AWS throttling to 503 and other AWS failures to 502, with the reason', async () => {
    for (const [status, code, expected] of [
      [503, 'RequestLimitExceeded', 503],
      [401, 'AuthFailure', 502],
    ] as const) {
      const endpoint = await failingEndpoint(status, code, `${code} from the test endpoint`);
      process.env.AWS_MAX_ATTEMPTS = '1'; // no retries with back-off against an endpoint that always refuses
      const app = await createTestApp({
        env: {
          CAPTURE_PROVIDER: 'aws',
          AWS_ENDPOINT_URL: endpoint.url,
          AWS_IMAGE_ID: 'ami-12345678',
          ...bucketStore(),
        },
      });
      try {
        const appToken = await app.login();
        await addMosques(app, appToken, 'awsmosque1');
        const response = await app.request({
          method: 'POST',
          url: '/api/instances/launch',
          token: appToken,
          payload: { configs: [CONFIG], max_workers: 1 },
        });
        expect(response.statusCode, code).toBe(expected);
        expect(response.json().detail).toContain(`${code} from the test endpoint`);
        const list = await app.request({ method: 'GET', url: '/api/ami/list', token: appToken });
        expect(list.statusCode).toBe(expected);
        expect(await app.app.ctx.capture.health()).toMatchObject({
          provider: 'aws',
          status: expected === 503 ? 'degraded' : 'down',
        });
      } finally {
        delete process.env.AWS_MAX_ATTEMPTS;
        await app.close();
        await endpoint.close();
      }
    }
  });

  it('relaunches a capture whose EC2 instance ended inside its window: a new instance for the same row and recording, none after the window', async () => {
    const config = { ...CONFIG, mosque_id: 'relaunchmosque', method: 'api', duration: 600 };
    const windowStart = t.clock.now();
    const launched = await t.app.ctx.capture.launch(config, { idempotencyKey: 'relaunch-aws' });
    await t.app.ctx.instances.reconcile();
    const recording = await t.app.ctx.recordings.forInstance(launched.launchId);
    // The machine dies (not an operator's terminate through the console) with the window still open.
    await ec2.send(new TerminateInstancesCommand({ InstanceIds: [launched.providerInstanceId] }));
    t.clock.set(new Date(windowStart.getTime() + 120_000));
    await t.app.ctx.instances.reconcile();

    const tagged = async () =>
      (
        await ec2.send(
          new DescribeInstancesCommand({ Filters: [{ Name: 'tag:launch-id', Values: [launched.launchId] }] }),
        )
      ).Reservations?.flatMap((r) => r.Instances ?? []) ?? [];
    const replacement = (await tagged()).find((i) => i.InstanceId !== launched.providerInstanceId);
    expect(replacement?.State?.Name).toMatch(/pending|running/);
    const tags = Object.fromEntries((replacement?.Tags ?? []).map((tag) => [tag.Key, tag.Value]));
    expect(tags).toMatchObject({
      'launch-id': launched.launchId,
      'recording-id': recording?.id,
      mosque_id: 'relaunchmosque',
    });
    const row = await t.app.ctx.db.kysely
      .selectFrom('instances')
      .selectAll()
      .where('id', '=', launched.launchId)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ provider_instance_id: replacement?.InstanceId, state: 'pending' });
    expect(await t.app.ctx.recordings.list({ limit: 10, instance_id: launched.launchId })).toEqual([
      expect.objectContaining({ id: recording?.id, status: 'recording' }),
    ]);

    // The next pass maps the new machine to the same row, the ended one is left alone.
    await t.app.ctx.instances.reconcile();
    expect(
      await t.app.ctx.db.kysely
        .selectFrom('instances')
        .select(['provider_instance_id', 'state'])
        .where('id', '=', launched.launchId)
        .executeTakeFirstOrThrow(),
    ).toEqual({
      provider_instance_id: replacement?.InstanceId,
      state: 'running',
    });

    // Within the window's last minute: the end stands.
    t.clock.set(new Date(windowStart.getTime() + 570_000));
    await ec2.send(new TerminateInstancesCommand({ InstanceIds: [replacement?.InstanceId as string] }));
    await t.app.ctx.instances.reconcile();
    expect(await tagged()).toHaveLength(2);
    expect(
      await t.app.ctx.db.kysely
        .selectFrom('instances')
        .select('state')
        .where('id', '=', launched.launchId)
        .executeTakeFirstOrThrow(),
    ).toEqual({ state: 'terminated' });
    expect((await t.app.ctx.recordings.forInstance(launched.launchId))?.status).toMatch(/partial|failed/);
  });
});
