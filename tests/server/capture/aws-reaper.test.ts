import { DescribeInstancesCommand, type EC2Client, RunInstancesCommand } from '@aws-sdk/client-ec2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MotoServer } from '../../../testkit/capture';
import { startMotoAccount, type MotoAccount } from '../../../testkit/moto-account';
import { scaled } from '../../../testkit/time-scale';
import { createTestApp, type TestApp } from '../helpers/test-app';

// PostgreSQL pass: skipped: the rows it writes are the instances' and alarms', whose PostgreSQL paths instances/ and alarms/ cover

/*
 * The reaper (CAPTURE_GRACE_SECONDS, 60 s here): a machine still running past its window plus the
 * grace is terminated by the next reconcile pass, and so is a machine tagged as ours that the server
 * has no row for, once seen for the grace. Each is logged and alarmed once. On moto, whose instances
 * run nothing: they stay running until terminated, as one whose user-data never ran.
 */

const GRACE_SECONDS = 60;

describe('the reaper ends machines that outlive their window (moto)', () => {
  let account: MotoAccount | undefined;
  let moto: MotoServer;
  let ec2: EC2Client;
  let imageId: string;
  let t: TestApp;
  let token: string;

  beforeAll(async () => {
    account = await startMotoAccount('reaper');
    ({ moto, ec2 } = account);
    imageId = account.imageId;
    t = await createTestApp({
      env: {
        CAPTURE_PROVIDER: 'aws',
        CAPTURE_GRACE_SECONDS: String(GRACE_SECONDS),
        AWS_ENDPOINT_URL: moto.url,
        AWS_REGION: 'us-east-1',
        AWS_IMAGE_ID: imageId,
        RECORDINGS_STORE: 's3://reaper/captures',
        S3_ENDPOINT: moto.url,
      },
    });
    token = await t.login();
  }, scaled(60_000));

  afterAll(async () => {
    await t?.close();
    await account?.stop();
  });

  const stateOf = async (instanceId: string) =>
    (await ec2.send(new DescribeInstancesCommand({ InstanceIds: [instanceId] }))).Reservations?.[0]?.Instances?.[0]
      ?.State?.Name;
  const reapedAlarms = async () =>
    (await t.app.ctx.alarms.list('all', 100)).filter((alarm) => alarm.kind === 'instance_reaped');
  const pass = async (seconds: number) => {
    t.clock.advance(seconds * 1000);
    await t.app.ctx.instances.reconcile();
  };

  it('terminates a machine still running its grace after the window ended, once, with one alarm', async () => {
    const response = await t.request({
      method: 'POST',
      url: '/api/instances/launch',
      token,
      payload: { configs: [{ url: 'http://127.0.0.1:9/reap.m3u8', duration: 120 }] },
    });
    expect(response.statusCode, response.body).toBe(200);
    const launched = response.json<{ data: { instances: { id: string; instance_id: string }[] } }>().data.instances[0];
    await pass(0);
    expect(await stateOf(launched.instance_id)).toBe('running');

    await pass(120 + GRACE_SECONDS - 1); // the window's end plus just under the grace
    expect(await stateOf(launched.instance_id)).toBe('running');
    expect(await reapedAlarms()).toEqual([]);

    await pass(2);
    expect(['shutting-down', 'terminated']).toContain(await stateOf(launched.instance_id));
    const row = await t.app.ctx.instances.resolve(launched.id);
    expect(row.state_reason).toMatch(/^Terminated by the server: still running \d+ s after its window ended$/);
    await pass(10);
    await pass(10);
    expect(await reapedAlarms()).toEqual([
      expect.objectContaining({ instance_id: launched.id, severity: 'warning', resolved_at: null }),
    ]);
    expect((await t.app.ctx.instances.resolve(launched.id)).state).toBe('terminated');
  });

  it('terminates a machine tagged as ours that the server has no row for, once seen for the grace', async () => {
    const run = await ec2.send(
      new RunInstancesCommand({
        ImageId: imageId,
        MinCount: 1,
        MaxCount: 1,
        TagSpecifications: [
          { ResourceType: 'instance', Tags: [{ Key: 'managed-by', Value: 'capture-command-center' }] },
        ],
      }),
    );
    const stray = run.Instances?.[0]?.InstanceId ?? '';
    const other = await ec2.send(new RunInstancesCommand({ ImageId: imageId, MinCount: 1, MaxCount: 1 }));
    const notOurs = other.Instances?.[0]?.InstanceId ?? '';
    const before = (await reapedAlarms()).length;

    await pass(0);
    await pass(GRACE_SECONDS - 1);
    expect(await stateOf(stray)).toBe('running');
    await pass(2);
    expect(['shutting-down', 'terminated']).toContain(await stateOf(stray));
    expect(await stateOf(notOurs)).toBe('running');
    await pass(10);
    const alarms = await reapedAlarms();
    expect(alarms).toHaveLength(before + 1);
    expect(alarms.find((alarm) => alarm.message.includes(stray))?.message).toMatch(
      /tagged as ours but unknown to it for \d+ s/,
    );
  });
});
