import { DescribeInstancesCommand, DescribeVolumesCommand, type EC2Client } from '@aws-sdk/client-ec2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ec2CapacityGate, type Ec2CapacityGate } from '../../../testkit/ec2-capacity-gate';
import { fridayJobRow } from '../../../testkit/job-row';
import { startMotoAccount, type MotoAccount } from '../../../testkit/moto-account';
import { scaled } from '../../../testkit/time-scale';
import { PREFLIGHT_EVERY_MS } from '../../../server/modules/instances/capacity';
import { createTestApp, type TestApp } from '../helpers/test-app';

// PostgreSQL pass: skipped: the rows it writes are the instances', alarms' and jobs', whose PostgreSQL paths instances/, alarms/ and scheduler/ cover

/*
 * The fleet's limits on moto: AWS_CAPACITY=spot (spot first, on-demand where EC2 has no spot capacity),
 * AWS_VOLUME_SIZE_GB, AWS_MAX_INSTANCES (a launch over it refused with a fleet_capacity alarm), and the
 * pre-flight of a coming wave against the account's instance limit (moto's max-instances is 20).
 */

const isSpot = (params: URLSearchParams) => params.get('InstanceMarketOptions.MarketType') === 'spot';

describe('fleet limits: spot, volume size, instance cap and the wave pre-flight (moto)', () => {
  let account: MotoAccount | undefined;
  let ec2: EC2Client;
  let gate: Ec2CapacityGate;
  let spotFull = false;
  let t: TestApp;
  let token: string;

  beforeAll(async () => {
    account = await startMotoAccount('limits');
    ec2 = account.ec2;
    gate = await ec2CapacityGate(account.moto.url, (params) => spotFull && isSpot(params));
    t = await createTestApp({
      env: {
        CAPTURE_PROVIDER: 'aws',
        AWS_ENDPOINT_URL: gate.url,
        AWS_REGION: 'us-east-1',
        AWS_IMAGE_ID: account.imageId,
        AWS_INSTANCE_TYPES: 't3.small,t3.medium',
        AWS_CAPACITY: 'spot',
        AWS_VOLUME_SIZE_GB: '20',
        AWS_MAX_INSTANCES: '2',
        RECORDINGS_STORE: 's3://limits/captures',
        S3_ENDPOINT: account.moto.url,
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
      payload: { configs: [{ url: 'http://127.0.0.1:9/limits.m3u8', duration: 600 }] },
    });
  const describeInstance = async (id: string) =>
    (await ec2.send(new DescribeInstancesCommand({ InstanceIds: [id] }))).Reservations?.[0]?.Instances?.[0];
  const capacityAlarms = async () =>
    (await t.app.ctx.alarms.list('all', 100)).filter((alarm) => alarm.kind === 'fleet_capacity');

  it('launches a spot machine with the configured root volume, encrypted, IMDSv2 only', async () => {
    const response = await launch();
    expect(response.statusCode, response.body).toBe(200);
    const { instance_id } = response.json().data.instances[0];
    expect(gate.tried).toEqual(['t3.small@default+spot']);
    const instance = await describeInstance(instance_id);
    expect(instance?.InstanceLifecycle).toBe('spot');
    expect(instance?.MetadataOptions).toMatchObject({ HttpTokens: 'required' });
    const volumeIds = (instance?.BlockDeviceMappings ?? []).map((mapping) => mapping.Ebs?.VolumeId ?? '');
    const volumes = (await ec2.send(new DescribeVolumesCommand({ VolumeIds: volumeIds }))).Volumes ?? [];
    expect(volumes.map((volume) => [volume.Size, volume.Encrypted])).toEqual([[20, true]]);
  });

  it('falls back to on-demand when EC2 has no spot capacity for any type', async () => {
    spotFull = true;
    gate.tried.length = 0;
    const response = await launch();
    expect(response.statusCode, response.body).toBe(200);
    expect(gate.tried).toEqual(['t3.small@default+spot', 't3.medium@default+spot', 't3.small@default']);
    const instance = await describeInstance(response.json().data.instances[0].instance_id);
    expect(instance?.InstanceLifecycle).not.toBe('spot');
    expect(instance?.InstanceType).toBe('t3.small');
  });

  it('refuses a launch over AWS_MAX_INSTANCES with a clear 503 and one alarm, resolved once a launch goes through', async () => {
    gate.tried.length = 0;
    for (let attempt = 0; attempt < 2; attempt++) {
      const refused = await launch();
      expect(refused.statusCode, refused.body).toBe(503);
      expect(refused.json().detail).toMatch(/2 recorder machines already run and AWS_MAX_INSTANCES is 2/);
    }
    // Refused before EC2 was asked to run anything.
    expect(gate.tried).toEqual([]);
    const open = (await capacityAlarms()).filter((alarm) => !alarm.resolved_at);
    expect(open).toHaveLength(1);
    expect(open[0]).toMatchObject({ severity: 'critical', message: expect.stringMatching(/AWS_MAX_INSTANCES is 2/) });

    const [first] = (await t.request({ method: 'GET', url: '/api/instances/', token })).json().data;
    const stopped = await t.request({
      method: 'POST',
      url: '/api/instances/terminate',
      token,
      payload: { instance_ids: [first.id] },
    });
    expect(stopped.statusCode, stopped.body).toBe(200);
    const again = await launch();
    expect(again.statusCode, again.body).toBe(200);
    expect((await capacityAlarms()).filter((alarm) => !alarm.resolved_at)).toEqual([]);
  });

  it('alarms ahead of a wave that needs more machines than the cap allows, and resolves once it fits', async () => {
    const now = t.clock.now().getTime() + PREFLIGHT_EVERY_MS;
    const jobs = Array.from({ length: 3 }, (_, n) => fridayJobRow(`limits-job-${n}`, now + 30 * 60_000));
    await t.app.ctx.db.kysely.insertInto('scheduler_jobs').values(jobs).execute();
    // The pass at start-up ran the pre-flight: the next one is due 5 minutes later.
    t.clock.advance(PREFLIGHT_EVERY_MS);
    await t.app.ctx.instances.capacity.preflight();
    const [alarm] = (await capacityAlarms()).filter((a) => !a.resolved_at);
    expect(alarm?.message).toMatch(
      /^The recordings launching within 60 minutes need 3 machines, 5 with the 2 running \(10 vCPUs of t3\.small\), but AWS_MAX_INSTANCES is 2: 3 would not launch/,
    );

    await t.app.ctx.db.kysely.updateTable('scheduler_jobs').set({ status: 'cancelled' }).execute();
    // Asked at most every 5 minutes: still open until then.
    await t.app.ctx.instances.capacity.preflight();
    expect((await capacityAlarms()).filter((a) => !a.resolved_at)).toHaveLength(1);
    t.clock.advance(PREFLIGHT_EVERY_MS);
    await t.app.ctx.instances.capacity.preflight();
    expect((await capacityAlarms()).filter((a) => !a.resolved_at)).toEqual([]);
  });
});

describe("the wave pre-flight against the account's instance limit (moto: max-instances 20)", () => {
  let account: MotoAccount | undefined;
  let t: TestApp;

  beforeAll(async () => {
    account = await startMotoAccount('quota');
    t = await createTestApp({
      env: {
        CAPTURE_PROVIDER: 'aws',
        AWS_ENDPOINT_URL: account.moto.url,
        AWS_REGION: 'us-east-1',
        AWS_IMAGE_ID: account.imageId,
        AWS_INSTANCE_TYPE: 'c6i.large',
        RECORDINGS_STORE: 's3://quota/captures',
        S3_ENDPOINT: account.moto.url,
      },
    });
  }, scaled(60_000));

  afterAll(async () => {
    await t?.close();
    await account?.stop();
  });

  it('raises one critical alarm naming the limit and the vCPUs when the wave would not fit, none when it does', async () => {
    const now = t.clock.now().getTime() + PREFLIGHT_EVERY_MS;
    const fits = Array.from({ length: 20 }, (_, n) => fridayJobRow(`quota-${n}`, now + 40 * 60_000));
    await t.app.ctx.db.kysely.insertInto('scheduler_jobs').values(fits).execute();
    t.clock.advance(PREFLIGHT_EVERY_MS);
    await t.app.ctx.instances.capacity.preflight();
    expect((await t.app.ctx.alarms.list('all', 100)).filter((a) => a.kind === 'fleet_capacity')).toEqual([]);

    // Two more, one of them after the hour: only the one within the hour counts.
    await t.app.ctx.db.kysely
      .insertInto('scheduler_jobs')
      .values([fridayJobRow('quota-late', now + 90 * 60_000), fridayJobRow('quota-20', now + 50 * 60_000)])
      .execute();
    t.clock.advance(PREFLIGHT_EVERY_MS);
    await t.app.ctx.instances.capacity.preflight();
    const alarms = (await t.app.ctx.alarms.list('all', 100)).filter((a) => a.kind === 'fleet_capacity');
    expect(alarms).toHaveLength(1);
    expect(alarms[0]).toMatchObject({ severity: 'critical', resolved_at: null });
    expect(alarms[0].message).toMatch(
      /need 21 machines, 21 with the 0 running \(42 vCPUs of c6i\.large\), but the account allows 20 \(EC2 max-instances\): 1 would not launch/,
    );
  });
});
