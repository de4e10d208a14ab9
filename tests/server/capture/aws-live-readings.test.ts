import { DescribeInstancesCommand, type EC2Client } from '@aws-sdk/client-ec2';
import { PutObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InstanceDetails } from '../../../contract/instances';
import type { ContentWindow, LiveReport } from '../../../recorder/protocol';
import { scaled } from '../../../testkit/time-scale';
import { awsContentEnv } from '../helpers/content-alarms';
import type { SchedulerApp, SchedulerEnv } from '../scheduler/helpers';

/*
 * What the server makes of a cloud recording's live report while its window is open, with live.json
 * written into moto's S3 as an EC2 recorder ships it and the server's clock moved by hand: the
 * recording's live loudness in the instance details, a report that stops arriving, and the stall alarm
 * from the report's gaps. On PostgreSQL too: the live content is a column of its own.
 */

const BUCKET = 'livereadings';
const MOSQUE = { id: 'livemosq01', name: 'Live Readings Mosque', timezone: 'UTC', fridayPrayer: '12:30' };
const START = '2026-11-27T12:00:00.000Z';
const WINDOW_SECONDS = 3600;

const at = (second: number) => new Date(Date.parse(START) + second * 1000).toISOString();

/** The 10 s readings of a speaker from `from` s into the window, `count` of them, the last `silent` ones silent. */
function readings(from: number, count: number, silent = 0): ContentWindow[] {
  return Array.from({ length: count }, (_, i) => {
    const quiet = i >= count - silent;
    return {
      start: at(from + i * 10),
      measured: 10,
      loudness: quiet ? null : -20 + (i % 3),
      blocks: quiet ? 0 : 100,
      momentaryMax: quiet ? -75 : -14,
      silent: quiet ? 10 : 0,
      frozen: 0,
      black: 0,
      video: true,
    };
  });
}

describe("a cloud recording's live report, read by the server while its window is open (moto)", () => {
  let s3: S3Client;
  let ec2: EC2Client;
  let env: SchedulerEnv;
  let dispose: (() => Promise<void>) | undefined;
  let s: SchedulerApp;
  let token: string;

  beforeAll(async () => {
    let account;
    ({ account, env, dispose } = await awsContentEnv(BUCKET, {
      start: START,
      mosques: [{ ...MOSQUE, url: 'https://streams.example.org/live.m3u8' }],
    }));
    ({ s3, ec2 } = account);
    s = await env.build({ realLauncher: true });
    token = await s.login();
  }, scaled(60_000));

  afterAll(async () => {
    await dispose?.();
  });

  /** Launches a recording of the mosque (its window from START, an hour); its live report is written by `ship`. */
  async function launch(key: string, window = { windowStart: START, windowEnd: at(WINDOW_SECONDS) }) {
    const { ctx } = s.app;
    const launched = await ctx.capture.launch(
      {
        url: 'https://streams.example.org/live.m3u8',
        duration: WINDOW_SECONDS,
        width: 320,
        height: 180,
        mosque_id: MOSQUE.id,
        method: 'api',
      },
      { ...window, idempotencyKey: key },
    );
    const row = (await ctx.recordings.findRowByInstance(launched.launchId))!;
    // The launch key the recorder's configuration carries, as the driver tagged its machine with it.
    const described = await ec2.send(new DescribeInstancesCommand({ InstanceIds: [launched.providerInstanceId] }));
    const launchKey = described.Reservations?.[0]?.Instances?.[0]?.Tags?.find(
      (t) => t.Key === 'idempotency-key',
    )?.Value;
    const prefix = `captures/${(row.file_path ?? '').slice(0, (row.file_path ?? '').lastIndexOf('/') + 1)}`;
    const ship = async (report: Omit<LiveReport, 'launchKey'>) =>
      s3.send(
        new PutObjectCommand({
          Bucket: BUCKET,
          Key: `${prefix}live.json`,
          Body: JSON.stringify({ launchKey, ...window, ...report }),
          ContentType: 'application/json',
        }),
      );
    /** The server's pass over its instances at `second` s into the window. */
    const pass = async (second: number) => {
      env.clock.set(at(second));
      await ctx.instances.reconcile();
    };
    const details = async () =>
      (await s.request({ method: 'GET', url: `/api/instances/${launched.launchId}`, token })).json<{
        data: InstanceDetails;
      }>().data;
    const alarms = async () =>
      (await ctx.alarms.list('all', 200))
        .filter((alarm) => alarm.instance_id === launched.launchId)
        .map((alarm) => ({ kind: alarm.kind, message: alarm.message, open: alarm.resolved_at === null }))
        .sort((a, b) => a.kind.localeCompare(b.kind));
    const gaps = async () => (await ctx.recordings.findRowByInstance(launched.launchId))?.gaps;
    return { launched, ship, pass, details, alarms, gaps };
  }

  /** What a recorder measured: `conditions` going on, on top of a speaker's totals. */
  const measured = (conditions: NonNullable<LiveReport['content']>['conditions']) => ({
    measuredSeconds: 300,
    integratedLufs: -20,
    peakDbfs: -3,
    longestSilenceSeconds: 20,
    silentSeconds: 20,
    frozenSeconds: 0,
    blackSeconds: 0,
    conditions,
  });

  it(
    "serves the recording's latest loudness and conditions in the instance details",
    { timeout: scaled(60_000) },
    async () => {
      const { ship, pass, details } = await launch('live-details-1');
      await pass(5);
      // No report shipped yet: nothing measured to show.
      expect((await details()).live_content).toBeNull();

      await ship({
        measuredUntil: at(330),
        bytes: 4_000_000,
        mediaSeconds: 330,
        content: {
          measuredSeconds: 330,
          integratedLufs: -19.6,
          peakDbfs: -2.5,
          longestSilenceSeconds: 28,
          silentSeconds: 28,
          frozenSeconds: 0,
          blackSeconds: 0,
          conditions: [{ kind: 'audio_silent', since: at(302), seconds: 28 }],
          recent: readings(0, 30, 2),
        },
      });
      await pass(335);
      const shown = (await details()).live_content;
      expect(shown).toMatchObject({
        measured_seconds: 330,
        integrated_lufs: -19.6,
        peak_dbfs: -2.5,
        longest_silence_seconds: 28,
        conditions: [{ kind: 'audio_silent', since: at(302), seconds: 28 }],
      });
      expect(shown?.windows).toHaveLength(30);
      expect(shown?.windows.at(-1)).toEqual({
        start: at(290),
        measured_seconds: 10,
        loudness_lufs: null,
        momentary_max_lufs: -75,
        silent_seconds: 10,
        frozen_seconds: 0,
        black_seconds: 0,
      });
      expect(shown?.windows[0]).toMatchObject({ start: at(0), loudness_lufs: -20, silent_seconds: 0 });
      expect((await details()).recording).toMatchObject({ status: 'recording', bytes: 4_000_000 });
    },
  );

  it(
    'a report that stops arriving while the window is open: its content alarm resolves and one stall alarm says so',
    { timeout: scaled(60_000) },
    async () => {
      const { ship, pass, details, alarms, gaps } = await launch('live-stale-1');
      const progress = { bytes: 5_000_000, mediaSeconds: 400 };
      await ship({
        measuredUntil: at(400),
        ...progress,
        content: measured([{ kind: 'audio_silent', since: at(380), seconds: 20 }]),
      });
      await pass(402);
      expect(await alarms()).toEqual([
        { kind: 'audio_silent', message: expect.stringMatching(/audio silent for 20 s/), open: true },
      ]);
      // Three periods of 30 s without a new report: a recorder that lost one upload is not judged.
      await pass(490);
      expect(await alarms()).toEqual([expect.objectContaining({ kind: 'audio_silent', open: true })]);

      // 95 s: the recorder stopped reporting. Its silence is no longer known to go on; it is down since 12:06:40.
      await pass(495);
      const down =
        'Mosque livemosq01: nothing recorded since 12:06:40 UTC: the recorder is down (The recorder stopped reporting: its last live report was written at 12:06:40 UTC)';
      expect(await alarms()).toEqual([
        { kind: 'audio_silent', message: expect.any(String), open: false },
        { kind: 'stall', message: down, open: true },
      ]);
      expect((await details()).live_content).toBeNull();
      expect(JSON.parse((await gaps()) ?? '[]')).toEqual([
        expect.objectContaining({ start: at(400), end: at(495), cause: 'recorder_down' }),
      ]);
      // Its passes go on: the same alarm, raised once.
      await pass(520);
      expect((await alarms()).filter((alarm) => alarm.kind === 'stall')).toEqual([
        { kind: 'stall', message: down, open: true },
      ]);

      // It reports again (the sound back meanwhile): the stall resolves, nothing is raised anew.
      await ship({ measuredUntil: at(525), ...progress, content: measured([]) });
      await pass(526);
      expect(await alarms()).toEqual([
        { kind: 'audio_silent', message: expect.any(String), open: false },
        { kind: 'stall', message: down, open: false },
      ]);
      expect((await details()).live_content?.conditions).toEqual([]);
      expect(await gaps()).toBe('[]');
    },
  );

  it('a report not refreshed after its window closed (the recorder joins and delivers) is no stall', async () => {
    const { ship, pass, alarms } = await launch('live-closed-1', { windowStart: at(530), windowEnd: at(600) });
    await ship({ measuredUntil: at(599), bytes: 900_000, mediaSeconds: 69, content: measured([]) });
    await pass(600);
    await pass(800);
    expect(await alarms()).toEqual([]);
  });

  it(
    "raises the stall alarm while the window is open from the report's gaps, resolved when media flows: once",
    { timeout: scaled(60_000) },
    async () => {
      const { launched, ship, pass, alarms, gaps } = await launch('live-stall-1');
      const stalled = (start: number, end: number) => ({
        start: at(start),
        end: at(end),
        cause: 'stream_stalled' as const,
        reason: 'The stream published no new segment for 20 s',
        content_lost_seconds: end - start,
      });
      const report = (second: number, holes: ReturnType<typeof stalled>[]) =>
        ship({
          measuredUntil: at(second),
          bytes: second * 10_000,
          mediaSeconds: second,
          coverage: {
            expectedSeconds: second,
            coveredSeconds: second - holes.reduce((sum, hole) => sum + hole.content_lost_seconds, 0),
            gaps: holes,
            reconnects: holes.length,
          },
          content: measured([]),
        });
      await report(900, []);
      await pass(901);
      // A hole of 30 s going on: not a stall yet, but the recording shows it.
      await report(950, [stalled(920, 950)]);
      await pass(951);
      expect(await alarms()).toEqual([]);
      expect(JSON.parse((await gaps()) ?? '[]')).toEqual([stalled(920, 950)]);

      // 61 s: the recorder shipped it at once; the server's next pass raises it.
      await report(981, [stalled(920, 981)]);
      await pass(985);
      const stall = {
        kind: 'stall',
        message:
          'Mosque livemosq01: nothing recorded since 12:15:20 UTC: the stream stalled (The stream published no new segment for 20 s)',
      };
      expect(await alarms()).toEqual([{ ...stall, open: true }]);
      await pass(990);
      expect(await alarms()).toEqual([{ ...stall, open: true }]);

      // Media again from 995: the hole is closed at the report, the stall resolved.
      await report(1000, [stalled(920, 995)]);
      await pass(1001);
      expect(await alarms()).toEqual([{ ...stall, open: false }]);
      const row = await s.app.ctx.recordings.findRowByInstance(launched.launchId);
      expect(row).toMatchObject({ status: 'recording', covered_seconds: 925, expected_seconds: 1000 });

      // A second stall in the same recording is told by its outcome, as a local recorder's (one alarm per recording).
      await report(1100, [stalled(920, 995), stalled(1030, 1100)]);
      await pass(1101);
      expect(await alarms()).toEqual([{ ...stall, open: false }]);
    },
  );
});
