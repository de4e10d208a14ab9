import { type EC2Client, TerminateInstancesCommand } from '@aws-sdk/client-ec2';
import { PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LATE_RESULT_MS } from '../../../server/modules/recordings/service';
import { waitFor, type MotoServer } from '../../../testkit/capture';
import { MemoryPreflightChecks } from '../../../testkit/scheduler-doubles';
import { SchedulerEnv, type SchedulerApp } from '../scheduler/helpers';
import { startMotoAccount, type MotoAccount } from '../../../testkit/moto-account';
import { scaled } from '../../../testkit/time-scale';

/*
 * A late result (issue 24): an EC2 recorder whose machine ended before its metadata.json was in the
 * store is judged from what EC2 tells (terminated: partial), provisionally. Its result reaching the
 * bucket 5 minutes after the window turns it captured: the recording, its alarm and its Friday. A
 * result that never comes leaves the provisional outcome standing once 30 minutes have passed.
 * Against moto (EC2 and S3), on the server's own reconcile loop.
 */

const BUCKET = 'late-results';
const FRIDAY = '2026-11-06';
const MOSQUES = ['late000001', 'never00001'].map((id) => ({
  id,
  name: `Mosque ${id}`,
  url: `http://127.0.0.1:9/${id}.m3u8`,
  timezone: 'UTC',
  fridayPrayer: '12:30',
}));

describe('a recorder result that reaches the store after the window', () => {
  let account: MotoAccount | undefined;
  let moto: MotoServer;
  let ec2: EC2Client;
  let s3: S3Client;
  let env: SchedulerEnv;
  let s: SchedulerApp;

  beforeAll(async () => {
    account = await startMotoAccount(BUCKET);
    ({ moto, ec2, s3 } = account);
    env = await SchedulerEnv.create({
      start: `${FRIDAY}T11:00:00Z`,
      mosques: MOSQUES,
      env: {
        CAPTURE_PROVIDER: 'aws',
        AWS_ENDPOINT_URL: moto.url,
        AWS_REGION: 'us-east-1',
        AWS_IMAGE_ID: account.imageId,
        AWS_INSTANCE_TYPE: 't3.small',
        RECORDINGS_STORE: `s3://${BUCKET}/captures`,
        S3_ENDPOINT: moto.url,
      },
    });
    s = await env.build({ realLauncher: true, preflight: new MemoryPreflightChecks() });
  }, scaled(60_000));

  afterAll(async () => {
    await env?.dispose();
    await account?.stop();
  });

  it(
    'turns a provisional partial into captured, resolves its alarm and revises its Friday; one that never comes stands',
    { timeout: scaled(120_000) },
    async () => {
      const { ctx } = s.app;
      await s.request({ method: 'POST', url: '/api/scheduler/schedule-friday', token: await s.login(), payload: {} });
      env.clock.set(`${FRIDAY}T12:10:00Z`);
      await s.runDue();
      const jobs = (await ctx.scheduler.jobs('all')).filter((job) => job.kind === 'recording');
      expect(jobs.map((job) => job.status)).toEqual(['launched', 'launched']);
      const jobOf = (mosqueId: string) => jobs.find((job) => job.mosque_id === mosqueId) as (typeof jobs)[number];
      const windowEnd = Date.parse(jobOf('late000001').recording_end ?? '');

      // Both machines end after the window with no result in the store: judged partial from EC2's word.
      env.clock.set(new Date(windowEnd + 1000));
      const machines = await Promise.all(
        jobs.map(async (job) => (await ctx.instances.resolve(job.instance_id ?? '')).provider_instance_id ?? ''),
      );
      await ec2.send(new TerminateInstancesCommand({ InstanceIds: machines }));
      const recordingOf = (mosqueId: string) => ctx.recordings.findRowByInstance(jobOf(mosqueId).instance_id ?? '');
      await waitFor(async () => {
        await ctx.instances.reconcile();
        return (await Promise.all(MOSQUES.map((m) => recordingOf(m.id)))).every((row) => row?.status === 'partial');
      }, 'both recordings judged');
      const late = (await recordingOf('late000001'))!;
      expect(late.provisional_until).toBe(new Date(windowEnd + LATE_RESULT_MS).toISOString());
      await s.runDue();
      const friday = async (mosqueId: string) =>
        (await ctx.scheduler.fridays(FRIDAY)).fridays.find((row) => row.mosque_id === mosqueId);
      // The Friday judges by coverage, of which EC2's word gives none.
      expect(await friday('late000001')).toMatchObject({ status: 'failed', covered_seconds: 0 });
      const outcomeAlarm = async () =>
        (await ctx.alarms.list('all', 50)).find(
          (a) => a.kind === 'capture_partial' && a.instance_id === late.instance_id,
        );
      expect((await outcomeAlarm())?.resolved_at).toBeNull();

      // Five minutes later the recorder's result is in the bucket (keys below the store's prefix): the whole window, with its file.
      env.clock.set(new Date(windowEnd + 5 * 60_000));
      const prefix = (late.file_path ?? '').slice(0, (late.file_path ?? '').lastIndexOf('/') + 1);
      const expected = (windowEnd - Date.parse(jobOf('late000001').recording_start ?? '')) / 1000;
      const mediaName = (late.file_path ?? '').slice(prefix.length);
      await s3.send(
        new PutObjectCommand({
          Bucket: BUCKET,
          Key: `captures/${late.file_path}`,
          Body: Buffer.alloc(4096, 1),
          ContentType: 'video/mp4',
        }),
      );
      const metadata = {
        recordingId: late.id,
        windowStart: jobOf('late000001').recording_start,
        windowEnd: new Date(windowEnd).toISOString(),
        outcome: { status: 'captured', reason: null, endedBy: 'window_end' },
        coverage: { expectedSeconds: expected, coveredSeconds: expected, gaps: [], reconnects: 0 },
        media: { name: mediaName, bytes: 4096 },
        segments: [{ name: 'segments/00000.ts', seconds: expected }],
      };
      await s3.send(
        new PutObjectCommand({
          Bucket: BUCKET,
          Key: `captures/${prefix}metadata.json`,
          Body: JSON.stringify(metadata),
          ContentType: 'application/json',
        }),
      );

      // The server's own loop (every 10 s on aws) reads the store again and revises everything that told partial.
      const revised = await waitFor(
        async () => {
          const row = await recordingOf('late000001');
          return row?.status === 'captured' ? row : undefined;
        },
        'the late result to be applied',
        40_000,
      );
      expect(revised).toMatchObject({ reason: null, bytes: 4096, covered_seconds: expected, provisional_until: null });
      expect((await outcomeAlarm())?.resolved_at).not.toBeNull();
      await waitFor(async () => (await friday('late000001'))?.status === 'captured', 'the Friday to follow');
      expect(await friday('late000001')).toMatchObject({ status: 'captured', covered_seconds: expected, reason: null });
      const library = await ctx.recordingsLibrary.details(late.id);
      expect(library).toMatchObject({ status: 'captured', media_available: true, friday: FRIDAY });

      // The other result never comes: 30 minutes after the window its provisional partial stands.
      expect((await recordingOf('never00001'))?.provisional_until).not.toBeNull();
      env.clock.set(new Date(windowEnd + LATE_RESULT_MS + 1000));
      const standing = await waitFor(
        async () => {
          const row = await recordingOf('never00001');
          return row?.provisional_until === null ? row : undefined;
        },
        'the wait for the other result to end',
        40_000,
      );
      expect(standing.status).toBe('partial');
      expect(await friday('never00001')).toMatchObject({ status: 'failed' });
    },
  );
});
