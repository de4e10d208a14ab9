import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DescribeInstanceAttributeCommand, type EC2Client } from '@aws-sdk/client-ec2';
import { GetObjectCommand, ListObjectsV2Command, type S3Client } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InstanceDetails } from '../../../contract/instances';
import type { LiveReport } from '../../../recorder/protocol';
import { startHlsSource, type HlsSource } from '../../../testkit/capture';
import { contentProgramme } from '../../../testkit/content-programmes';
import { recorderNodeMissing, skipIfMissing } from '../../../testkit/prerequisites';
import { startSandboxMachine, type SandboxMachine } from '../../../testkit/sandbox-machine';
import { scaled } from '../../../testkit/time-scale';
import { waitFor } from '../../../testkit/wait';
import {
  awsContentEnv,
  contentAlarmOf,
  lastedSeconds,
  TEST_CONTENT_ALARM_SECONDS,
  TEST_CONTENT_FAULT,
  TOLD_WITHIN_SECONDS,
} from '../helpers/content-alarms';
import type { SchedulerApp, SchedulerEnv } from '../scheduler/helpers';

// PostgreSQL pass: skipped: a minute of real-time capture on moto and a sandboxed instance; the alarms it raises are rows of the alarms table, tested on PostgreSQL by the alarm suites

/*
 * Content alarms of a cloud recording while its window is open: an EC2 recorder (the user-data moto's
 * instance was launched with, run in a sandbox against a local live stream whose sound is muted from
 * 12 s to 36 s) ships live.json beside its recording in moto's S3 when the silence starts, reaches
 * CONTENT_ALARM_SECONDS and ends; the server's own reconcile loop (every 10 s on aws) reads it and
 * raises audio_silent, then resolves it, both before the window closes.
 */

const BUCKET = 'livecontent';
const MOSQUE = { id: 'cloudmute1', name: 'Cloud Mute Mosque', timezone: 'UTC', fridayPrayer: '12:30' };
/** The window opens 10 s after the launch (the sandbox boots meanwhile) and outlasts the silence's end by 30 s. */
const LEAD_MS = 10_000;
const WINDOW_SECONDS = 60;
/** The server reads the live report at its next pass: every 10 s on aws. */
const PASS_SECONDS = 10;

describe('content alarms of a cloud recording (EC2 recorder on moto)', () => {
  const noRecorderNode = recorderNodeMissing();
  const sandbox = fs.mkdtempSync(path.join(os.tmpdir(), 'capture-live-content-'));
  let machine: SandboxMachine | undefined;
  let source: HlsSource | undefined;
  let ec2: EC2Client;
  let s3: S3Client;
  let env: SchedulerEnv;
  let dispose: (() => Promise<void>) | undefined;
  let s: SchedulerApp;
  let realTime: NodeJS.Timeout | undefined;

  beforeAll(async () => {
    if (noRecorderNode) return;
    // Encoded now, so the source goes on the air at once, just before the launch.
    contentProgramme({ fault: 'silent', ...TEST_CONTENT_FAULT });
    let account;
    ({ account, env, dispose } = await awsContentEnv(BUCKET, {
      mosques: [{ ...MOSQUE, url: 'http://127.0.0.1:9/unused.m3u8' }],
    }));
    ({ ec2, s3 } = account);
    // The machine keeps real time: so does the server.
    realTime = setInterval(() => env.clock.set(new Date()), 100);
    s = await env.build({ realLauncher: true });
  }, scaled(60_000));

  afterAll(async () => {
    machine?.kill();
    clearInterval(realTime);
    await dispose?.();
    await source?.close();
    fs.rmSync(sandbox, { recursive: true, force: true });
  });

  it(
    'raises audio_silent once the silence lasted the threshold and resolves it when the sound is back, while recording',
    { timeout: scaled(180_000) },
    async ({ skip }) => {
      skipIfMissing(skip, noRecorderNode);
      const { ctx } = s.app;
      source = await startHlsSource({ programme: contentProgramme({ fault: 'silent', ...TEST_CONTENT_FAULT }) });
      const start = new Date(Date.now() + LEAD_MS);
      const launched = await ctx.capture.launch(
        { url: source.url, duration: WINDOW_SECONDS, width: 320, height: 180, mosque_id: MOSQUE.id, method: 'api' },
        {
          windowStart: start.toISOString(),
          windowEnd: new Date(start.getTime() + WINDOW_SECONDS * 1000).toISOString(),
          idempotencyKey: 'cloud-mute-1',
        },
      );
      const attribute = await ec2.send(
        new DescribeInstanceAttributeCommand({ InstanceId: launched.providerInstanceId, Attribute: 'userData' }),
      );
      machine = startSandboxMachine(Buffer.from(attribute.UserData?.Value ?? '', 'base64').toString(), sandbox);
      const recording = async () => (await ctx.recordings.findRowByInstance(launched.launchId))!;
      const alarm = () => contentAlarmOf(ctx.alarms, MOSQUE.id, 'audio_silent');

      const raised = await waitFor(alarm, 'audio_silent raised', 90_000);
      expect(raised.message).toMatch(/^Mosque cloudmute1: audio silent for \d+ s \(since \d\d:\d\d:\d\d UTC\)$/);
      // Shipped by the recorder at the state write that found the threshold reached, not at its next
      // 30 s report: the alarm says as much as a local recorder's would.
      expect(lastedSeconds(raised)).toBeGreaterThanOrEqual(TEST_CONTENT_ALARM_SECONDS);
      expect(lastedSeconds(raised)).toBeLessThan(TEST_CONTENT_ALARM_SECONDS + TOLD_WITHIN_SECONDS);
      // Raised while the window is open; the live reports bring the recording's progress too.
      expect((await recording()).status).toBe('recording');
      // The instance details show the silence going on (written with the recording's progress, within 5 s).
      const token = await s.login();
      const liveContent = async () =>
        (await s.request({ method: 'GET', url: `/api/instances/${launched.launchId}`, token })).json<{
          data: InstanceDetails;
        }>().data.live_content;
      await waitFor(
        async () => (await liveContent())?.conditions.some((condition) => condition.kind === 'audio_silent'),
        'the silence in the instance details',
        20_000,
      );
      await waitFor(async () => Number((await recording()).bytes) > 0, 'the recording to show progress', 20_000);

      const resolved = await waitFor(
        async () => {
          const found = await alarm();
          return found?.resolved_at ? found : undefined;
        },
        'audio_silent resolved',
        90_000,
      );
      // The sound came back 24 s after the silence began; the recorder told it at once, the server at its next pass.
      const since = /since (\d\d:\d\d:\d\d) UTC/.exec(raised.message)?.[1];
      const soundBack = Date.parse(`${raised.raised_at.slice(0, 10)}T${since}Z`) + 24_000;
      expect(Date.parse(resolved.resolved_at ?? '') - soundBack).toBeLessThan(
        (1 + TOLD_WITHIN_SECONDS + PASS_SECONDS) * 1000,
      );
      expect((await recording()).status).toBe('recording');
      // The details follow: no condition, and the strip of the readings settled so far (15 s after each one's end).
      const settled = await waitFor(
        async () => {
          const content = await liveContent();
          return content?.conditions.length === 0 && content.windows.length > 0 && content;
        },
        'the sound back in the instance details, with the readings settled so far',
        20_000,
      );
      // Readings of 10 s from the window's start (the recorder started before it: the first may precede it).
      expect(settled.windows.every((w) => (Date.parse(w.start) - start.getTime()) % 10_000 === 0)).toBe(true);

      // The live report sits beside the recording, under the prefix its POST policy allows, and names its launch.
      const row = await recording();
      const prefix = `captures/${(row.file_path ?? '').slice(0, (row.file_path ?? '').lastIndexOf('/') + 1)}`;
      const object = await s3.send(new GetObjectCommand({ Bucket: BUCKET, Key: `${prefix}live.json` }));
      const report = JSON.parse((await object.Body?.transformToString()) ?? '') as LiveReport;
      expect(report.content?.conditions).toEqual([]);
      // With its window (a report left standing is judged against it) and its coverage so far (the stall alarm's).
      expect(report).toMatchObject({
        windowStart: start.toISOString(),
        windowEnd: new Date(start.getTime() + WINDOW_SECONDS * 1000).toISOString(),
      });
      expect(report.coverage?.expectedSeconds).toBeGreaterThan(0);
      expect(report.coverage?.coveredSeconds).toBeGreaterThan(0);
      const keys = ((await s3.send(new ListObjectsV2Command({ Bucket: BUCKET }))).Contents ?? []).map((o) => o.Key);
      expect(keys.filter((key) => !key?.startsWith(prefix) && !key?.startsWith('captures/runtime/'))).toEqual([]);
    },
  );
});
