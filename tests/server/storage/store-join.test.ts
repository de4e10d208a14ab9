import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CreateBucketCommand, GetObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildFfmpegArgs } from '../../../recorder/ffmpeg-args';
import { StoreShipper } from '../../../recorder/recorder-delivery';
import { PieceStore, probeSeconds } from '../../../recorder/recorder-pieces';
import { DEFAULT_RECORDER_SETTINGS, type RecorderConfig } from '../../../recorder/recorder-state';
import { RecordingsRepository } from '../../../server/modules/recordings/repository';
import { FFPROBE, ffprobe, startHlsSource, startMoto, type HlsSource, type MotoServer } from '../../../testkit/capture';
import { pause, waitFor } from '../../../testkit/wait';
import { createTestApp, type TestApp } from '../helpers/test-app';
import { scaled } from '../../../testkit/time-scale';

// PostgreSQL pass: skipped: joining recorded runs from the store in real time; its rows are proven on PostgreSQL by recordings/library.test.ts

/*
 * A recording the fleet relaunched once: two EC2 runs, each a real ffmpeg on a live HLS stream whose
 * pieces the recorder's own shipper delivers to moto's S3 as they close, with the recorder down in
 * between; the last machine's file holds its own run only. The server joins both runs' segments into
 * that file, with coverage and gaps from the segments; a join that fails (its disk) raises an alarm
 * and succeeds on a later pass.
 */
describe('joining the runs of a relaunched recording from the store', () => {
  let t: TestApp;
  let source: HlsSource;
  let moto: MotoServer;
  let s3: S3Client;
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'store-join-'));
  const prefix = 'joinmo0001/2026-11-23/rec-join00000001/';
  const mediaKey = `${prefix}20261123T090000Z.mp4`;
  const env = { AWS_ACCESS_KEY_ID: 'testing', AWS_SECRET_ACCESS_KEY: 'testing', AWS_EC2_METADATA_DISABLED: 'true' };

  /** One recorder run: ffmpeg with the recorder's arguments for `seconds`, its pieces shipped as they close. */
  const record = async (name: string, seconds: number) => {
    const launchedAt = new Date().toISOString();
    const folder = path.join(work, name);
    const delivery = {
      kind: 's3' as const,
      bucket: 'sermons',
      region: 'us-east-1',
      endpoint: moto.url,
      keyPrefix: `captures/${prefix}`,
      mediaKey,
      expiresAt: new Date(Date.now() + 600_000).toISOString(),
    };
    const shipper = new StoreShipper(delivery, () => undefined, 0, path.join(work, `${name}.delivered`), launchedAt);
    const pieces = new PieceStore(folder, shipper);
    pieces.prepare();
    const config = {
      width: 320,
      height: 180,
      settings: { ...DEFAULT_RECORDER_SETTINGS, segmentSeconds: 2 },
    } as RecorderConfig;
    const ffmpeg = spawn('ffmpeg', buildFfmpegArgs(config, source.url, pieces.outputFor(1)), { stdio: 'ignore' });
    const collecting = setInterval(() => pieces.collectClosed(1), 300);
    // Real time: a live stream is read for this long, and the pieces' times are the wall clock's.
    await pause(seconds * 1000);
    ffmpeg.kill('SIGINT');
    await new Promise((resolve) => ffmpeg.once('exit', resolve));
    clearInterval(collecting);
    pieces.collectClosed(1);
    pieces.measureAll();
    expect(await shipper.drain(Date.now() + 30_000)).toBe(0);
    return {
      pieces,
      seconds: pieces.measured().reduce((sum, p) => sum + p.seconds, 0),
      count: pieces.measured().length,
    };
  };

  const row = () =>
    t.app.ctx.db.kysely
      .selectFrom('recordings')
      .selectAll()
      .where('id', '=', 'rec-join00000001')
      .executeTakeFirstOrThrow();
  const alarms = async () =>
    (await t.app.ctx.alarms.list('all', 100)).filter(
      (a) => a.instance_id === 'cap-join00000001' && a.message.includes('last recorder'),
    );
  const object = async (key: string) =>
    Buffer.from(
      await (await s3.send(new GetObjectCommand({ Bucket: 'sermons', Key: key }))).Body!.transformToByteArray(),
    );

  beforeAll(async () => {
    Object.assign(process.env, env);
    [moto, source] = await Promise.all([startMoto(), startHlsSource()]);
    s3 = new S3Client({ region: 'us-east-1', endpoint: moto.url, forcePathStyle: true });
    await s3.send(new CreateBucketCommand({ Bucket: 'sermons' }));
    t = await createTestApp({ env: { RECORDINGS_STORE: 's3://sermons/captures', S3_ENDPOINT: moto.url } });
    await t.app.ready(); // starts the reconcile loop, which starts the joins
  }, scaled(60_000));

  afterAll(async () => {
    await t?.close();
    await source?.close();
    await moto?.stop();
    fs.rmSync(work, { recursive: true, force: true });
  });

  it(
    'joins every run into the file the recording points at, with the gap between them',
    { timeout: scaled(120_000) },
    async () => {
      // The window opened a little before the first recorder read the stream (it starts behind the live edge).
      const windowStart = new Date(Date.now() - 5000);
      const first = await record('first', 9);
      const downAt = new Date();
      // Real time: the recorder is down while the live stream moves on; the join must find this gap where it was.
      await pause(8000);
      const relaunchedAt = new Date();
      const second = await record('second', 9);
      const windowEnd = new Date(Date.now() + 1000);
      // The last machine's own join: its run only, with its metadata.
      const lastFile = path.join(work, 'last.mp4');
      expect(await second.pieces.join('ffmpeg', lastFile)).toBeNull();
      await s3.send(
        new PutObjectCommand({ Bucket: 'sermons', Key: `captures/${mediaKey}`, Body: fs.readFileSync(lastFile) }),
      );
      await s3.send(
        new PutObjectCommand({
          Bucket: 'sermons',
          Key: `captures/${prefix}metadata.json`,
          Body: JSON.stringify({ instanceId: 'cap-join00000001', media: { name: 'x' }, coverage: null }),
        }),
      );
      const lastSeconds = (await probeSeconds(FFPROBE, lastFile)) ?? 0;

      // The join's work folder cannot be made (a file is in the way): the pass fails and says so.
      const joinsDir = path.join(t.config.dataDir, 'store-joins');
      fs.writeFileSync(joinsDir, 'in the way');
      const db = t.app.ctx.db.kysely;
      const iso = (d: Date) => d.toISOString();
      await db
        .insertInto('instances')
        .values({
          id: 'cap-join00000001',
          provider: 'aws',
          provider_instance_id: 'i-0second',
          name: 'capture-join',
          state: 'terminated',
          instance_type: 't3.small',
          mosque_id: null,
          url: source.url,
          method: 'api',
          duration: 60,
          width: 320,
          height: 180,
          image_id: 'ami-1',
          launch_time: iso(windowStart),
          running_at: iso(windowStart),
          ended_at: iso(windowEnd),
          state_reason: null,
          job_id: null,
          updated_at: iso(windowEnd),
          window_start: iso(windowStart),
          window_end: iso(windowEnd),
        })
        .execute();
      const knownGap = { start: iso(downAt), end: iso(relaunchedAt), reason: 'Recorder was down' };
      await db
        .insertInto('recordings')
        .values({
          id: 'rec-join00000001',
          instance_id: 'cap-join00000001',
          mosque_id: null,
          url: source.url,
          status: 'partial',
          started_at: iso(windowStart),
          ended_at: iso(windowEnd),
          bytes: fs.statSync(lastFile).size,
          duration_seconds: lastSeconds,
          file_path: mediaKey,
          reason: 'Recorded 17 s of 28 s',
          expected_seconds: 28,
          covered_seconds: 17,
          gaps: JSON.stringify([knownGap]),
          runs: JSON.stringify([{ from: iso(windowStart) }]),
          updated_at: iso(windowEnd),
        })
        .execute();
      const raised = await waitFor(
        async () => (await alarms()).find((a) => a.resolved_at === null),
        'the join alarm',
        20_000,
      );
      expect(raised).toMatchObject({ kind: 'capture_partial', instance_id: 'cap-join00000001' });
      expect(raised.message).toMatch(/holds only the last recorder's media.*(ENOTDIR|EEXIST|not a directory)/);
      expect((await row()).store_joined_at).toBeNull();

      // The disk is fixed and a stopped join left its folder half-filled: the next try after the back-off joins.
      fs.rmSync(joinsDir);
      fs.mkdirSync(path.join(joinsDir, 'rec-join00000001'), { recursive: true });
      fs.writeFileSync(path.join(joinsDir, 'rec-join00000001', 'run-0001-00000.ts'), 'half a piece');
      t.clock.advance(11_000);
      const joined = await waitFor(async () => ((await row()).store_joined_at ? row() : undefined), 'the join', 60_000);
      expect((await alarms()).every((a) => a.resolved_at !== null)).toBe(true);

      const file = path.join(work, 'joined.mp4');
      fs.writeFileSync(file, await object(`captures/${mediaKey}`));
      const probe = await ffprobe(file);
      const segmentSeconds = first.seconds + second.seconds;
      expect(probe).toMatchObject({ width: 320, height: 180 });
      expect(Math.abs(probe.duration - segmentSeconds)).toBeLessThan(3);
      // The first run is in the file too: whatever its ffmpeg got of the stream (on a busy machine its 9 s
      // of wall time held 4.5 s of media once), less a piece's rounding.
      expect(first.seconds).toBeGreaterThan(2);
      expect(probe.duration).toBeGreaterThan(lastSeconds + first.seconds - 1);
      expect(Number(joined.bytes)).toBe(fs.statSync(file).size);
      expect(Math.abs(Number(joined.duration_seconds) - probe.duration)).toBeLessThan(0.5);
      expect(Math.abs(Number(joined.covered_seconds) - segmentSeconds)).toBeLessThan(3);

      // The gap is where the recorder was down (within a few seconds), with the reason the recording gave it.
      const gaps = JSON.parse(joined.gaps) as { start: string; end: string; reason: string }[];
      const between = gaps.find((g) => g.reason === 'Recorder was down');
      expect(between).toBeDefined();
      expect(Math.abs(Date.parse(between!.start) - downAt.getTime())).toBeLessThan(4000);
      // Its end is the relaunched recorder's first media: its start (node, ffmpeg) is slower on a busy machine.
      expect(Math.abs(Date.parse(between!.end) - relaunchedAt.getTime())).toBeLessThan(scaled(5000));
      expect(joined.status).toBe('partial');
      expect(joined.reason).toMatch(/^Recorded .* \(the recorder was relaunched 1 time\)$/);

      const metadata = JSON.parse((await object(`captures/${prefix}metadata.json`)).toString()) as Record<
        string,
        unknown
      >;
      expect(metadata).toMatchObject({
        instanceId: 'cap-join00000001',
        joinedBy: 'server',
        media: { name: '20261123T090000Z.mp4', bytes: fs.statSync(file).size },
      });
      expect(metadata.segments).toHaveLength(first.count + second.count);
      expect((metadata.coverage as { gaps: unknown[] }).gaps).toEqual(gaps);

      // Joined once: later passes leave the recording alone.
      const updatedAt = joined.updated_at;
      const passes = vi.spyOn(RecordingsRepository.prototype, 'awaitingStoreJoin');
      t.clock.advance(60_000);
      // Passes run one at a time: the second one's start means the first ran whole, past the back-off.
      await waitFor(() => passes.mock.calls.length >= 2, 'a whole join pass after the back-off', 20_000, 50);
      expect((await row()).updated_at).toBe(updatedAt);
    },
  );
});
