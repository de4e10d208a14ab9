import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3';
import {
  DescribeImagesCommand,
  DescribeInstanceAttributeCommand,
  DescribeInstancesCommand,
  EC2Client,
  TerminateInstancesCommand,
} from '@aws-sdk/client-ec2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AwsCaptureProvider } from '../../../server/capture/aws/driver';
import { awsStore } from '../../../server/capture';
import { RecorderRuntimeLinks } from '../../../server/capture/aws/recorder-bundle';
import type { RecorderConfig } from '../../../recorder/recorder-state';
import { ManualClock } from '../../../testkit/manual-clock';
import { S3RecordingStore } from '../../../server/storage/s3-store';
import { startMoto, type MotoServer } from '../../../testkit/capture';
import { scaled } from '../../../testkit/time-scale';

const RUNTIME_SHA256 = 'ab'.repeat(32);
const CONFIG = {
  url: 'https://streams.example.com/mosque/live.m3u8',
  duration: 3600,
  width: 1280,
  height: 720,
  mosque_id: 'awsmosque1',
  method: 'api',
};

/** What an EC2 recorder is launched with when recordings live in a bucket: its role or a POST policy, and the runtime's link. */
describe('aws recorders delivering to an s3 store', () => {
  let moto: MotoServer;
  let ec2: EC2Client;
  let imageId: string;
  let store: S3RecordingStore;
  const clock = new ManualClock('2026-11-27T11:30:00Z');
  const saved = { ...process.env };

  const driver = (instanceProfile?: string) => {
    const runtime = new RecorderRuntimeLinks(store, async () => ({
      code: 'console.log("recorder")',
      sha256: RUNTIME_SHA256,
    }));
    return new AwsCaptureProvider({
      region: 'us-east-1',
      endpoint: moto.url,
      imageId,
      instanceType: 't3.small',
      clock,
      instanceProfile,
      store: awsStore(store, clock, runtime),
    });
  };
  const launched = async (instanceId: string) => {
    const instance = (await ec2.send(new DescribeInstancesCommand({ InstanceIds: [instanceId] }))).Reservations?.[0]
      ?.Instances?.[0];
    const userData = await ec2.send(
      new DescribeInstanceAttributeCommand({ InstanceId: instanceId, Attribute: 'userData' }),
    );
    const script = Buffer.from(userData.UserData?.Value ?? '', 'base64').toString();
    const config = JSON.parse(
      script.split('\n')[script.split('\n').indexOf(`cat > "$WORK/instance/config.json" <<'CAPTURE_CONFIG_EOF'`) + 1],
    ) as RecorderConfig;
    return { instance, script, config };
  };

  beforeAll(async () => {
    Object.assign(process.env, {
      AWS_ACCESS_KEY_ID: 'testing',
      AWS_SECRET_ACCESS_KEY: 'server-secret-never-shipped',
      AWS_EC2_METADATA_DISABLED: 'true',
    });
    moto = await startMoto();
    ec2 = new EC2Client({ region: 'us-east-1', endpoint: moto.url });
    imageId = (await ec2.send(new DescribeImagesCommand({ Owners: ['amazon'] }))).Images?.[0]?.ImageId ?? '';
    await new S3Client({ region: 'us-east-1', endpoint: moto.url, forcePathStyle: true }).send(
      new CreateBucketCommand({ Bucket: 'sermons' }),
    );
    store = new S3RecordingStore({ bucket: 'sermons', prefix: 'captures/', region: 'us-east-1', endpoint: moto.url });
    // moto checks that the profile exists; its IAM API is routed by the credential scope (signatures are not checked).
    const created = await fetch(moto.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        authorization:
          'AWS4-HMAC-SHA256 Credential=testing/20261127/us-east-1/iam/aws4_request, SignedHeaders=host, Signature=0',
      },
      body: 'Action=CreateInstanceProfile&InstanceProfileName=capture-recorder&Version=2010-05-08',
    });
    expect(created.status, await created.text()).toBe(200);
  }, scaled(60_000));
  afterAll(async () => {
    ec2?.destroy();
    await moto?.stop();
    process.env = saved;
  });

  it('runs the recorder with the instance profile, uploading with its role', async () => {
    const result = await driver('capture-recorder').launch(CONFIG, { recordingId: 'rec-role1', launchId: 'cap-role1' });
    expect(result.filePath).toBe('awsmosque1/2026-11-27/rec-role1/20261127T113000Z.mp4');
    const { instance, script, config } = await launched(result.providerInstanceId);
    expect(instance?.IamInstanceProfile?.Arn).toMatch(/capture-recorder$/);
    expect(config.delivery).toEqual({
      kind: 's3',
      bucket: 'sermons',
      region: 'us-east-1',
      endpoint: moto.url,
      keyPrefix: 'captures/awsmosque1/2026-11-27/rec-role1/',
      mediaKey: 'awsmosque1/2026-11-27/rec-role1/20261127T113000Z.mp4',
      expiresAt: '2026-11-27T14:30:00.000Z',
    });
    // The runtime comes from the bucket by a pre-signed link: the server's secret never reaches the script.
    expect(script).toMatch(
      /curl -fsS --retry 5 -o "\$WORK\/recorder\.mjs" '[^']*\/sermons\/captures\/runtime\/recorder-abababababababab\.mjs\?[^']*X-Amz-Signature=/,
    );
    expect(script).toContain(`echo '${RUNTIME_SHA256}  recorder.mjs' | (cd "$WORK" && sha256sum -c --quiet)`);
    expect(script).not.toContain('server-secret-never-shipped');
  });

  it('gives a recorder without a role a POST policy for its own recording only', async () => {
    const result = await driver().launch(CONFIG, { recordingId: 'rec-post1', launchId: 'cap-post1' });
    const { instance, config } = await launched(result.providerInstanceId);
    expect(instance?.IamInstanceProfile).toBeUndefined();
    expect(config.delivery?.kind).toBe('presigned-post');
    const post = config.delivery?.kind === 'presigned-post' ? config.delivery.post : undefined;
    const policy = JSON.parse(Buffer.from(post?.fields.Policy ?? '', 'base64').toString()) as {
      expiration: string;
      conditions: unknown[];
    };
    expect(policy.conditions).toContainEqual(['starts-with', '$key', 'captures/awsmosque1/2026-11-27/rec-post1/']);
    expect(policy.conditions).toContainEqual({ bucket: 'sermons' });
    expect(Date.parse(policy.expiration) - Date.now()).toBeGreaterThan(3600_000);
  });

  it('hands a machine that replaces a dead one the segment ledger its predecessor shipped, by a pre-signed link', async () => {
    const first = await launched(
      (await driver().launch(CONFIG, { recordingId: 'rec-next1', launchId: 'cap-next1' })).providerInstanceId,
    );
    expect(first.script).not.toContain('ledger.json');
    const next = await driver().launch(CONFIG, {
      recordingId: 'rec-next1',
      launchId: 'cap-next1',
      idempotencyKey: 'cap-next1:relaunch:1',
      continues: true,
    });
    const { script, config } = await launched(next.providerInstanceId);
    expect(config.delivery?.keyPrefix).toBe('captures/awsmosque1/2026-11-27/rec-next1/');
    expect(script).toMatch(
      /curl -fsS --retry 3 -o "\$WORK\/instance\/ledger\.part" '[^']*\/sermons\/captures\/awsmosque1\/2026-11-27\/rec-next1\/ledger\.json\?[^']*X-Amz-Signature=/,
    );
    expect(script).toContain('mv "$WORK/instance/ledger.part" "$WORK/instance/ledger.json"');
  });

  it('judges an ended machine by the metadata.json its recorder left in the store, not by its console output', async () => {
    const provider = driver();
    const result = await provider.launch(
      { ...CONFIG, duration: 60 },
      { recordingId: 'rec-result1', launchId: 'cap-result1' },
    );
    const { instance } = await launched(result.providerInstanceId);
    expect(Object.fromEntries((instance?.Tags ?? []).map((tag) => [tag.Key, tag.Value]))).toMatchObject({
      'capture-file': result.filePath,
    });
    const ended = async () => {
      const found = (await provider.list()).find((i) => i.providerInstanceId === result.providerInstanceId);
      return found?.recording;
    };
    await ec2.send(new TerminateInstancesCommand({ InstanceIds: [result.providerInstanceId] }));

    // Nothing in the store (the machine died before its window ended): judged by its end, as before.
    expect(await ended()).toMatchObject({
      status: 'partial',
      reason: 'Instance terminated before the recorder reported a result',
    });

    const metadata = {
      recordingId: 'rec-result1',
      instanceId: 'cap-result1',
      mosqueId: 'awsmosque1',
      windowStart: '2026-11-27T11:30:00.000Z',
      windowEnd: '2026-11-27T11:31:00.000Z',
      outcome: { status: 'captured', reason: null, endedBy: 'window', exitCode: 0, signal: null },
      coverage: { expectedSeconds: 60, coveredSeconds: 59.8, gaps: [], reconnects: 0 },
      measuredUntil: '2026-11-27T11:30:59.000Z',
      media: { name: '20261127T113000Z.mp4', bytes: 2_400_000 },
      segments: [
        { name: 'segments/x/run-0001-00000.ts', seconds: 30 },
        { name: 'segments/x/run-0001-00001.ts', seconds: 29.8 },
      ],
      content: {
        measuredSeconds: 59.8,
        integratedLufs: null,
        peakDbfs: null,
        longestSilenceSeconds: 0,
        silentSeconds: 0,
        frozenSeconds: 0,
        blackSeconds: 0,
        conditions: [],
      },
    };
    await store.putText(
      'awsmosque1/2026-11-27/rec-result1/metadata.json',
      JSON.stringify(metadata),
      'application/json',
    );
    // A fresh server (the first one read the ended machine once): the result the recorder left is its outcome.
    const fresh = driver();
    const recording = (await fresh.list()).find((i) => i.providerInstanceId === result.providerInstanceId)?.recording;
    expect(recording).toMatchObject({
      status: 'captured',
      reason: null,
      bytes: 2_400_000,
      mediaSeconds: 59.8,
      expectedSeconds: 60,
      coveredSeconds: 59.8,
      gaps: [],
      measuredUntil: '2026-11-27T11:30:59.000Z',
      stoppedByOperator: false,
      // What the machine's recorder measured of the content: here no sound at all, which the server warns of.
      content: metadata.content,
    });
    // The first server's reading was provisional: asked again, it finds the result too.
    expect(
      (await provider.list()).find((i) => i.providerInstanceId === result.providerInstanceId)?.recording,
    ).toMatchObject({ status: 'partial', provisional: true });
    expect(await provider.lateResult(result.providerInstanceId)).toMatchObject({
      status: 'captured',
      coveredSeconds: 59.8,
    });
  });
});
