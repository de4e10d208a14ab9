import { DescribeInstancesCommand, DescribeSubnetsCommand, type EC2Client } from '@aws-sdk/client-ec2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MotoServer } from '../../../testkit/capture';
import { ec2CapacityGate, type Ec2CapacityGate } from '../../../testkit/ec2-capacity-gate';
import { startMotoAccount, type MotoAccount } from '../../../testkit/moto-account';
import { scaled } from '../../../testkit/time-scale';
import { createTestApp, type TestApp } from '../helpers/test-app';

// PostgreSQL pass: skipped: the rows it writes are the instances', whose PostgreSQL paths instances/ cover

/*
 * AWS_INSTANCE_TYPES and AWS_SUBNET_IDS: when EC2 has no capacity for a type in a subnet, the launch
 * tries the next pair instead of failing (or retrying the same pair). moto always has capacity, so an
 * endpoint in front of it answers InsufficientInstanceCapacity for the pairs a test names.
 */

describe('launches fall through instance types and subnets on capacity errors (moto)', () => {
  let account: MotoAccount | undefined;
  let moto: MotoServer;
  let ec2: EC2Client;
  let gate: Ec2CapacityGate;
  let t: TestApp;
  let token: string;
  let subnets: string[];

  beforeAll(async () => {
    account = await startMotoAccount('capacity');
    ({ moto, ec2 } = account);
    subnets = ((await ec2.send(new DescribeSubnetsCommand({}))).Subnets ?? [])
      .map((subnet) => subnet.SubnetId ?? '')
      .slice(0, 2);
    expect(subnets).toHaveLength(2);
    // t3.small has no capacity anywhere; t3.medium none in the first subnet.
    gate = await ec2CapacityGate(
      moto.url,
      (params) =>
        params.get('InstanceType') === 't3.small' ||
        (params.get('InstanceType') === 't3.medium' && params.get('SubnetId') === subnets[0]),
    );
    t = await createTestApp({
      env: {
        CAPTURE_PROVIDER: 'aws',
        AWS_ENDPOINT_URL: gate.url,
        AWS_REGION: 'us-east-1',
        AWS_IMAGE_ID: account.imageId,
        AWS_INSTANCE_TYPES: 't3.small,t3.medium',
        AWS_SUBNET_IDS: subnets.join(','),
        RECORDINGS_STORE: 's3://capacity/captures',
        S3_ENDPOINT: moto.url,
      },
    });
    token = await t.login();
  }, scaled(60_000));

  afterAll(async () => {
    await t?.close();
    await gate?.close();
    await account?.stop();
  });

  const launch = () =>
    t.request({
      method: 'POST',
      url: '/api/instances/launch',
      token,
      payload: { configs: [{ url: 'http://127.0.0.1:9/capacity.m3u8', duration: 600 }] },
    });

  it('tries each type in each subnet, starting at the next subnet for each launch, and lands where there is room', async () => {
    const first = await launch();
    expect(first.statusCode, first.body).toBe(200);
    const { instance_id, instance_type } = first.json().data.instances[0];
    expect(instance_type).toBe('t3.medium');
    const described = await ec2.send(new DescribeInstancesCommand({ InstanceIds: [instance_id] }));
    expect(described.Reservations?.[0]?.Instances?.[0]?.SubnetId).toBe(subnets[1]);
    expect(gate.tried).toEqual([
      `t3.small@${subnets[0]}`,
      `t3.small@${subnets[1]}`,
      `t3.medium@${subnets[0]}`,
      `t3.medium@${subnets[1]}`,
    ]);

    // The next launch starts at the second subnet: t3.medium has room there at once after t3.small.
    gate.tried.length = 0;
    const second = await launch();
    expect(second.statusCode, second.body).toBe(200);
    expect(gate.tried).toEqual([`t3.small@${subnets[1]}`, `t3.small@${subnets[0]}`, `t3.medium@${subnets[1]}`]);
  });
});
