import { DescribeImagesCommand, DescribeInstancesCommand, EC2Client } from '@aws-sdk/client-ec2';
import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3';
import { afterAll, describe, expect, it } from 'vitest';
import { startMoto, type MotoServer } from '../../testkit/capture';
import { INTERNAL, startEc2FaultProxy, THROTTLED, UNAUTHORIZED, type Ec2FaultProxy } from './support/ec2-fault-proxy';
import { spawnServer, temporaryDir, type ServerProcess } from './support/server';

const CONFIG = {
  url: 'https://streams.example.com/mosque/live.m3u8',
  duration: 5400,
  width: 1280,
  height: 720,
  mosque_id: 'awsfault01',
};
const CREDENTIALS = {
  AWS_ACCESS_KEY_ID: 'testing',
  AWS_SECRET_ACCESS_KEY: 'testing',
  AWS_EC2_METADATA_DISABLED: 'true',
};

interface ErrorBody {
  success: false;
  detail: string;
}

/**
 * The real server on the aws driver, against moto behind a proxy that makes chosen EC2 calls fail as
 * AWS does: throttling (RequestLimitExceeded) answers 503 with AWS's reason and degrades health, a
 * refusal answers 502, failed launches leave no instance anywhere, and the server keeps working.
 */
describe('EC2 answering errors and throttling', () => {
  const dataDir = temporaryDir('aws');
  let moto: MotoServer | undefined;
  let proxy: Ec2FaultProxy | undefined;
  let server: ServerProcess | undefined;
  let ec2: EC2Client | undefined;
  const saved = { ...process.env };

  afterAll(async () => {
    await server?.kill('SIGKILL');
    ec2?.destroy();
    await proxy?.close();
    await moto?.stop();
    process.env = saved;
  });

  it('reports each failure clearly, degrades health, launches nothing by mistake and recovers', async () => {
    Object.assign(process.env, CREDENTIALS);
    moto = await startMoto();
    ec2 = new EC2Client({ region: 'us-east-1', endpoint: moto.url });
    const images = await ec2.send(
      new DescribeImagesCommand({ Owners: ['amazon'], Filters: [{ Name: 'architecture', Values: ['x86_64'] }] }),
    );
    const baseImage = images.Images?.[0]?.ImageId ?? '';
    expect(baseImage).toMatch(/^ami-/);
    const direct = ec2;
    const managedInstances = async () =>
      (
        await direct.send(
          new DescribeInstancesCommand({ Filters: [{ Name: 'tag:managed-by', Values: ['capture-command-center'] }] }),
        )
      ).Reservations?.flatMap((r) => r.Instances ?? []) ?? [];

    // The bucket EC2 recorders deliver to (required with CAPTURE_PROVIDER=aws): moto's S3, never failing here.
    await new S3Client({ region: 'us-east-1', endpoint: moto.url, forcePathStyle: true }).send(
      new CreateBucketCommand({ Bucket: 'aws-faults' }),
    );
    proxy = await startEc2FaultProxy(moto.url);
    const faults = proxy.faults;
    faults.set('DescribeInstances', THROTTLED);
    server = await spawnServer({
      dataDir,
      env: {
        ...CREDENTIALS,
        CAPTURE_PROVIDER: 'aws',
        AWS_ENDPOINT_URL: proxy.url,
        AWS_REGION: 'us-east-1',
        AWS_IMAGE_ID: baseImage,
        AWS_INSTANCE_TYPE: 't3.small',
        RECORDINGS_STORE: 's3://aws-faults',
        S3_ENDPOINT: moto.url,
      },
    });
    const api = server;
    const token = await api.login();
    // A launch must name a mosque that exists.
    for (const mosque_id of [CONFIG.mosque_id])
      await api.request('POST', '/api/config/mosques', {
        token,
        body: { mosque_id, name: `Mosque ${mosque_id}`, languages: ['en'] },
      });
    const launch = () =>
      api.request<{ data: { instances: { id: string }[] } }>('POST', '/api/instances/launch', {
        token,
        body: { configs: [CONFIG], max_workers: 1 },
      });

    // Throttled reads: health degraded with AWS's reason, and a launch cannot even check for an earlier one.
    const health = await api.request<{
      data: { overall_status: string; failing: string[]; components: Record<string, { detail: string }> };
    }>('GET', '/api/monitoring/system', { token });
    expect(health.body.data).toMatchObject({ overall_status: 'degraded', failing: ['aws'] });
    expect(health.body.data.components.aws.detail).toMatch(
      /DescribeInstances is unavailable right now \(RequestLimitExceeded\)/,
    );
    const readThrottled = await launch();
    expect(readThrottled.status).toBe(503);
    expect((readThrottled.body as unknown as ErrorBody).detail).toMatch(/RequestLimitExceeded/);

    // Throttled launches: 503 with the reason after the SDK's own retries, and no instance anywhere.
    faults.clear();
    faults.set('RunInstances', THROTTLED);
    const throttled = await launch();
    expect(throttled.status).toBe(503);
    expect((throttled.body as unknown as ErrorBody).detail).toBe(
      'AWS EC2 RunInstances is unavailable right now (RequestLimitExceeded): Request limit exceeded.',
    );
    expect(proxy.calls.get('RunInstances')).toBeGreaterThanOrEqual(2);
    expect(await managedInstances()).toEqual([]);

    // Refused launches: 502 with AWS's reason.
    faults.set('RunInstances', UNAUTHORIZED);
    const refused = await launch();
    expect(refused.status).toBe(502);
    expect((refused.body as unknown as ErrorBody).detail).toMatch(
      /^AWS EC2 RunInstances failed \(UnauthorizedOperation\): You are not authorized/,
    );
    expect(await managedInstances()).toEqual([]);
    expect((await api.request<{ data: unknown[] }>('GET', '/api/instances/', { token })).body.data).toEqual([]);

    // EC2 answers again: one launch, one instance, in the table and in EC2.
    faults.clear();
    const ok = await launch();
    expect(ok.status, ok.text).toBe(200);
    const id = ok.body.data.instances[0].id;
    expect(await managedInstances()).toHaveLength(1);

    // A throttled terminate is reported and changes nothing; a failing image list is a 503 with the reason.
    faults.set('TerminateInstances', THROTTLED);
    const stop = await api.request('POST', '/api/instances/terminate', { token, body: { instance_ids: [id] } });
    expect(stop.status).toBe(503);
    expect((stop.body as unknown as ErrorBody).detail).toMatch(
      /TerminateInstances is unavailable right now \(RequestLimitExceeded\)/,
    );
    expect((await managedInstances())[0]?.State?.Name).not.toMatch(/shutting-down|terminated/);
    faults.set('DescribeImages', INTERNAL);
    const amis = await api.request('GET', '/api/ami/list', { token });
    expect(amis.status).toBe(503);
    expect((amis.body as unknown as ErrorBody).detail).toMatch(
      /DescribeImages is unavailable right now \(InternalError\)/,
    );

    faults.clear();
    const list = await api.request<{ data: { id: string }[] }>('GET', '/api/instances/', { token });
    expect(list.body.data.map((i) => i.id)).toEqual([id]);
    expect(api.running(), api.output()).toBe(true);
    await api.stop();
    server = undefined;
  });
});
