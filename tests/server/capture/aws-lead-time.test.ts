import { DescribeInstanceAttributeCommand, DescribeInstancesCommand, type EC2Client } from '@aws-sdk/client-ec2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchResponseSchema } from '../../../contract/instances';
import { fridayOfJobId, isOneOffCapture } from '../../../contract/scheduler';
import { type MotoServer } from '../../../testkit/capture';
import { MemoryPreflightChecks } from '../../../testkit/scheduler-doubles';
import { startMotoAccount, type MotoAccount } from '../../../testkit/moto-account';
import { scaled } from '../../../testkit/time-scale';
import { SchedulerEnv, type SchedulerApp } from '../scheduler/helpers';

// PostgreSQL pass: skipped: the rows it writes are the scheduler's and instances', whose PostgreSQL paths scheduler/ and instances/ cover

/*
 * Lead time (CAPTURE_LEAD_SECONDS): a recorder is launched that long before its window, so a machine's
 * boot and installs fall before the window, not inside it. On moto, with the injected clock: a launch
 * whose start_at is 120 s ahead, and a Friday whose window opens 120 s ahead, both with a lead of 60 s.
 */

const LEAD_SECONDS = 60;
// Friday 27 November 2026: the mosque prays at 12:30 UTC, its window opens 20 minutes before.
const WINDOW_START = Date.parse('2026-11-27T12:10:00Z');
const MOSQUE = {
  id: 'lead000001',
  name: 'Lead Mosque',
  url: 'http://127.0.0.1:9/lead.m3u8',
  timezone: 'UTC',
  fridayPrayer: '12:30',
};

describe('recorders launched the lead time before their window (moto)', () => {
  let account: MotoAccount | undefined;
  let moto: MotoServer;
  let ec2: EC2Client;
  let env: SchedulerEnv;
  let s: SchedulerApp;
  let token: string;

  beforeAll(async () => {
    account = await startMotoAccount('lead-time');
    ({ moto, ec2 } = account);
    env = await SchedulerEnv.create({
      start: new Date(WINDOW_START - 120_000).toISOString(),
      mosques: [MOSQUE],
      env: {
        CAPTURE_PROVIDER: 'aws',
        CAPTURE_LEAD_SECONDS: String(LEAD_SECONDS),
        AWS_ENDPOINT_URL: moto.url,
        AWS_REGION: 'us-east-1',
        AWS_IMAGE_ID: account.imageId,
        RECORDINGS_STORE: 's3://lead-time/captures',
        S3_ENDPOINT: moto.url,
      },
    });
    s = await env.build({ realLauncher: true, preflight: new MemoryPreflightChecks() });
    token = await s.login();
  }, scaled(60_000));

  afterAll(async () => {
    await env?.dispose();
    await account?.stop();
  });

  const instancesOfLaunch = async (launchId: string) => {
    const result = await ec2.send(
      new DescribeInstancesCommand({ Filters: [{ Name: 'tag:launch-id', Values: [launchId] }] }),
    );
    return (result.Reservations ?? []).flatMap((r) => r.Instances ?? []);
  };
  const windowOfUserData = async (instanceId: string) => {
    const attribute = await ec2.send(
      new DescribeInstanceAttributeCommand({ InstanceId: instanceId, Attribute: 'userData' }),
    );
    const text = Buffer.from(attribute.UserData?.Value ?? '', 'base64').toString();
    return { start: /"windowStart":\s*"([^"]+)"/.exec(text)?.[1], end: /"windowEnd":\s*"([^"]+)"/.exec(text)?.[1] };
  };
  const ec2Count = async () =>
    ((await ec2.send(new DescribeInstancesCommand({}))).Reservations ?? []).flatMap((r) => r.Instances ?? []).length;

  /** Moves the clock and runs what fell due. */
  const at = async (ms: number) => {
    env.clock.set(new Date(ms));
    await s.runDue();
  };

  it('launches a Friday recording 60 s ahead of its window', async () => {
    const scheduled = await s.request({ method: 'POST', url: '/api/scheduler/schedule-friday', token, payload: {} });
    expect(scheduled.statusCode, scheduled.body).toBe(200);
    const friday = (await s.app.ctx.scheduler.jobs('all')).find((j) => j.mosque_id === MOSQUE.id);
    expect(friday?.next_run_time).toBe(new Date(WINDOW_START - LEAD_SECONDS * 1000).toISOString());

    await at(WINDOW_START - 70_000);
    expect((await s.app.ctx.scheduler.jobs('all')).find((j) => j.id === friday?.id)?.status).toBe('scheduled');

    await at(WINDOW_START - LEAD_SECONDS * 1000);
    const job = (await s.app.ctx.scheduler.jobs('all')).find((j) => j.id === friday?.id);
    expect(job?.status, JSON.stringify(job)).toBe('launched');
    const row = await s.app.ctx.instances.resolve(job?.instance_id ?? '');
    const ahead = (WINDOW_START - Date.parse(row.launch_time)) / 1000;
    expect(ahead).toBeGreaterThanOrEqual(50);
    expect(ahead).toBeLessThanOrEqual(70);
    expect(row.window_start).toBe(new Date(WINDOW_START).toISOString());
    const [instance] = await instancesOfLaunch(row.id);
    expect((await windowOfUserData(instance.InstanceId ?? '')).start).toBe(new Date(WINDOW_START).toISOString());
  });

  it('launches a start_at recording 60 s ahead of its window, which opens at start_at', async () => {
    const startAt = env.clock.now().getTime() + 120_000;
    const response = await s.request({
      method: 'POST',
      url: '/api/instances/launch',
      token,
      payload: {
        configs: [
          { url: 'http://127.0.0.1:9/start-at.m3u8', duration: 600, start_at: new Date(startAt).toISOString() },
        ],
      },
    });
    expect(response.statusCode, response.body).toBe(200);
    const { data } = launchResponseSchema.parse(response.json());
    expect(data.instances).toEqual([]);
    expect(data.scheduled).toEqual([
      expect.objectContaining({
        index: 0,
        launch_at: new Date(startAt - LEAD_SECONDS * 1000).toISOString(),
        window_start: new Date(startAt).toISOString(),
        window_end: new Date(startAt + 600_000).toISOString(),
      }),
    ]);
    const before = await ec2Count();
    // The scheduler lists it as any job until it launches.
    for (const url of ['/api/scheduler/upcoming', '/api/scheduler/jobs']) {
      const listed = await s.request({ method: 'GET', url, token });
      expect(listed.statusCode, listed.body).toBe(200);
      expect(listed.body).toContain(data.scheduled[0].job_id);
    }
    const fridays = await s.request({ method: 'GET', url: '/api/scheduler/fridays', token });
    expect(fridays.statusCode, fridays.body).toBe(200);

    await at(startAt - 70_000);
    expect(await ec2Count()).toBe(before);
    const jobId = data.scheduled[0].job_id;
    expect((await s.app.ctx.scheduler.jobs('all')).find((j) => j.id === jobId)).toMatchObject({
      status: 'scheduled',
      func: 'record_one_off',
    });
    // Its id says it is no Friday's: the console files it, its recording and its alarms under its own day.
    expect(fridayOfJobId(jobId)).toBeNull();
    expect(isOneOffCapture({ job_id: jobId, instance_id: null })).toBe(true);

    await at(startAt - LEAD_SECONDS * 1000);
    const job = (await s.app.ctx.scheduler.jobs('all')).find((j) => j.id === jobId);
    expect(job?.status, JSON.stringify(job)).toBe('launched');
    const row = await s.app.ctx.instances.resolve(job?.instance_id ?? '');
    const ahead = (startAt - Date.parse(row.launch_time)) / 1000;
    expect(ahead).toBeGreaterThanOrEqual(50);
    expect(ahead).toBeLessThanOrEqual(70);
    expect(row.window_start).toBe(new Date(startAt).toISOString());
    expect((await s.app.ctx.recordings.findRowByInstance(row.id))?.started_at).toBe(new Date(startAt).toISOString());
    const [instance] = await instancesOfLaunch(row.id);
    expect(instance?.InstanceId).toBe(row.provider_instance_id);
    expect(await windowOfUserData(instance.InstanceId ?? '')).toEqual({
      start: new Date(startAt).toISOString(),
      end: new Date(startAt + 600_000).toISOString(),
    });
  });

  it('refuses a start_at in the past or more than 14 days ahead, launching nothing', async () => {
    const now = env.clock.now().getTime();
    for (const startAt of [now - 3_600_000, now + 15 * 86_400_000]) {
      const response = await s.request({
        method: 'POST',
        url: '/api/instances/launch',
        token,
        payload: {
          configs: [
            { url: 'http://127.0.0.1:9/ok.m3u8', duration: 60 },
            { url: 'http://127.0.0.1:9/bad.m3u8', duration: 60, start_at: new Date(startAt).toISOString() },
          ],
        },
      });
      expect(response.statusCode, response.body).toBe(400);
      expect(response.json().detail).toMatch(/configs\[1\]\.start_at/);
    }
  });
});
