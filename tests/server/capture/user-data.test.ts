import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CreateBucketCommand, GetObjectCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RecorderRuntimeLinks } from '../../../server/capture/aws/recorder-bundle';
import { RECORDER_HEAP_LIMIT } from '../../../server/capture/local/recorder-runtime';
import {
  buildUserData,
  remoteRecorderConfig,
  RESULT_MARKER,
  USER_DATA_LIMIT,
  type UserDataPaths,
} from '../../../server/capture/aws/user-data';
import { DEFAULT_RECORDER_SETTINGS, STATE_FORMAT_VERSION, type RecorderState } from '../../../recorder/recorder-state';
import { recorderDelivery } from '../../../server/storage/delivery';
import { S3RecordingStore } from '../../../server/storage/s3-store';
import { ffprobe, startHlsSource, startMoto, type HlsSource, type MotoServer } from '../../../testkit/capture';
import { missing, recorderNodeMissing, skipIfMissing, ytDlpMissing } from '../../../testkit/prerequisites';
import { scaled } from '../../../testkit/time-scale';
import { pause } from '../../../testkit/wait';

/** The command line of the process a pid file names, '' while there is none. */
function commandOf(pidFile: string): string {
  try {
    const pid = fs.readFileSync(pidFile, 'utf8').trim();
    return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
  } catch {
    return '';
  }
}

const STUB = (name: string) =>
  `#!/bin/sh\necho "$*" >> "$(dirname "$0")/${name}.calls"\n${name === 'apt-get' ? 'exit 1' : 'exit 0'}\n`;

/**
 * The EC2 recorder's boot script, run here with bash in a sandbox: its folders in a temporary
 * directory, `shutdown` (and `apt-get`, which a machine with ffmpeg, Node and yt-dlp never needs) as
 * stubs on PATH, a local live stream, and moto's S3 as the bucket it delivers to.
 */
describe.each(['presigned-post', 'role'] as const)('user-data delivering with %s', (via) => {
  // Without them here the script would install them: it is to find nothing to install.
  const lacking = missing(recorderNodeMissing(), ytDlpMissing());
  let moto: MotoServer;
  let source: HlsSource;
  let s3: S3Client;
  let store: S3RecordingStore;
  const sandbox = fs.mkdtempSync(path.join(os.tmpdir(), 'user-data-'));
  const paths: UserDataPaths = {
    workDir: path.join(sandbox, 'work'),
    runtimeDir: path.join(sandbox, 'opt'),
    console: path.join(sandbox, 'console.log'),
  };
  const stubs = path.join(sandbox, 'stubs');

  beforeAll(async () => {
    if (lacking) return;
    Object.assign(process.env, {
      AWS_ACCESS_KEY_ID: 'testing',
      AWS_SECRET_ACCESS_KEY: 'testing',
      AWS_EC2_METADATA_DISABLED: 'true',
    });
    [moto, source] = await Promise.all([startMoto(), startHlsSource()]);
    s3 = new S3Client({ region: 'us-east-1', endpoint: moto.url, forcePathStyle: true });
    await s3.send(new CreateBucketCommand({ Bucket: 'sermons' }));
    store = new S3RecordingStore({ bucket: 'sermons', prefix: 'captures/', region: 'us-east-1', endpoint: moto.url });
    fs.mkdirSync(stubs);
    for (const name of ['shutdown', 'apt-get']) fs.writeFileSync(path.join(stubs, name), STUB(name), { mode: 0o755 });
  }, scaled(60_000));

  afterAll(async () => {
    await source?.close();
    await moto?.stop();
    fs.rmSync(sandbox, { recursive: true, force: true });
  });

  it(
    'installs nothing here, records, delivers segments and the joined file to the bucket, and powers off',
    { timeout: scaled(120_000) },
    async ({ skip }) => {
      skipIfMissing(skip, lacking);
      const now = new Date();
      const config = remoteRecorderConfig(
        {
          version: STATE_FORMAT_VERSION,
          instanceId: 'cap-userdata1',
          name: 'capture-userdata',
          url: source.url,
          duration: 12,
          width: 320,
          height: 180,
          mosqueId: 'cloudmosq1',
          method: 'api',
          jobId: null,
          idempotencyKey: 'k',
          recordingId: 'rec-cloud1',
          imageId: null,
          // The test stream is on loopback.
          egress: { allowPrivate: true, trustedHosts: [] },
          settings: DEFAULT_RECORDER_SETTINGS,
          windowStart: now.toISOString(),
          windowEnd: new Date(now.getTime() + 12_000).toISOString(),
          clockOffsetMs: 0,
          createdAt: now.toISOString(),
        },
        '20261123T090000Z.mp4',
        paths,
      );
      const delivery = await recorderDelivery(
        store,
        {
          recordingId: 'rec-cloud1',
          mosqueId: 'cloudmosq1',
          windowStart: config.windowStart,
          windowEnd: config.windowEnd,
          fileName: '20261123T090000Z.mp4',
          via,
        },
        now,
      );
      expect(delivery?.kind).toBe(via === 'role' ? 's3' : 'presigned-post');
      const runtime = await new RecorderRuntimeLinks(store).link(600);
      const script = buildUserData({ ...config, delivery }, { runtime, paths });
      expect(Buffer.byteLength(script)).toBeLessThan(USER_DATA_LIMIT);
      fs.writeFileSync(path.join(sandbox, 'user-data.sh'), script);

      // Only a role run has credentials in its environment (the standard chain, as an instance role's would be).
      const credentials =
        via === 'role'
          ? { AWS_ACCESS_KEY_ID: 'testing', AWS_SECRET_ACCESS_KEY: 'testing', AWS_EC2_METADATA_DISABLED: 'true' }
          : {};
      const child = spawn('bash', [path.join(sandbox, 'user-data.sh')], {
        env: {
          PATH: [stubs, path.dirname(process.execPath), process.env.PATH].join(path.delimiter),
          HOME: sandbox,
          ...credentials,
        },
        stdio: 'ignore',
      });
      const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
      const prefix = 'captures/cloudmosq1/';
      const keys = async () =>
        ((await s3.send(new ListObjectsV2Command({ Bucket: 'sermons', Prefix: prefix }))).Contents ?? [])
          .map((o) => o.Key ?? '')
          .sort();

      let segmentsWhileRecording = 0;
      let recorderCommand = '';
      let running = true;
      void exited.then(() => (running = false));
      // Polled while the recorder runs: the segments ship as the live stream plays, in real time.
      while (running && (segmentsWhileRecording < 2 || !recorderCommand)) {
        await pause(500);
        if (running) segmentsWhileRecording = (await keys()).filter((k) => k.includes('/segments/')).length;
        recorderCommand ||= commandOf(path.join(paths.workDir, 'instance', 'recorder.pid'));
      }
      // Started as the local driver starts its recorders: a hostile stream's strings cannot grow its heap unbounded.
      expect(recorderCommand).toContain(RECORDER_HEAP_LIMIT);
      expect(segmentsWhileRecording, fs.readFileSync(paths.console, 'utf8')).toBeGreaterThanOrEqual(2);
      expect(await exited).toBe(0);

      const consoleText = fs.readFileSync(paths.console, 'utf8');
      const result = JSON.parse(
        consoleText.slice(consoleText.indexOf(RESULT_MARKER) + RESULT_MARKER.length).split('\n')[0],
      ) as RecorderState;
      expect(result.outcome?.status, consoleText).toBe('captured');
      expect(fs.readFileSync(path.join(stubs, 'shutdown.calls'), 'utf8')).toBe('-h now\n');
      expect(fs.existsSync(path.join(stubs, 'apt-get.calls'))).toBe(false);

      const recording = `${prefix}${new Date(config.windowStart).toISOString().slice(0, 10)}/rec-cloud1/`;
      const all = await keys();
      expect(all.filter((k) => k.startsWith(`${recording}segments/`)).length).toBeGreaterThanOrEqual(3);
      expect(all).toContain(`${recording}metadata.json`);
      const object = await s3.send(
        new GetObjectCommand({ Bucket: 'sermons', Key: `${recording}20261123T090000Z.mp4` }),
      );
      const file = path.join(sandbox, 'joined.mp4');
      fs.writeFileSync(file, Buffer.from(await object.Body!.transformToByteArray()));
      expect(await ffprobe(file)).toMatchObject({ width: 320, height: 180 });
      expect((await ffprobe(file)).duration).toBeGreaterThanOrEqual(11);
    },
  );
});
