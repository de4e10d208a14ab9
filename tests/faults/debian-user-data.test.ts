import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  DescribeImagesCommand,
  DescribeInstanceAttributeCommand,
  EC2Client,
  TerminateInstancesCommand,
} from '@aws-sdk/client-ec2';
import { CreateBucketCommand, GetObjectCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { awsStore } from '../../server/capture';
import { AwsCaptureProvider } from '../../server/capture/aws/driver';
import { systemClock as clock } from '../../server/lib/clock';
import { S3RecordingStore } from '../../server/storage/s3-store';
import { ffprobe, startHlsSource, startMoto, type HlsSource, type MotoServer } from '../../testkit/capture';
import { scaled } from '../../testkit/time-scale';
import { waitFor } from '../../testkit/wait';
import {
  debianMachine,
  debianRootUnavailable,
  pristineDebianRoot,
  runInDebian,
  type DebianMachine,
} from '../../testkit/debian-root';

/*
 * The install path of a cloud recorder, on a clean Debian: the user-data the aws driver launches an
 * instance with (against moto), run as root in a fresh minimal Debian root (debootstrap, chroot), with
 * nothing but Debian's base system. It installs ffmpeg and curl from Debian's packages, Node from the
 * npm registry (nodejs.org is not reachable from everywhere), yt-dlp (GitHub, else Debian's package),
 * fetches the recorder by its pre-signed link and records a local live stream into moto's S3; once a
 * few pieces are there the test stops the recorder (as an operator would: the window is long, so that
 * however long the install takes on a busy machine the recorder still has its window), and the machine
 * finishes the recording (joined file, metadata.json) and powers off. Making the root the first time takes ~10 minutes (debootstrap from Debian's mirror), so the test
 * runs only with CAPTURE_DEBIAN_ROOT_TEST=1; without root or debootstrap, or if the root cannot be
 * made, it skips with the reason.
 */

const BUCKET = 'debian';
/** Longer than any install: the test ends the recording itself once pieces arrive. */
const WINDOW_SECONDS = 3600;
const PIECES = 4;

describe('the recorder user-data on a clean Debian', () => {
  const saved = { ...process.env };
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'capture-debian-'));
  let skipReason: string | null =
    process.env.CAPTURE_DEBIAN_ROOT_TEST === '1'
      ? debianRootUnavailable()
      : 'set CAPTURE_DEBIAN_ROOT_TEST=1 to run it (it makes a Debian root: ~10 minutes the first time)';
  let pristine = '';
  let machine: DebianMachine | undefined;
  let moto: MotoServer;
  let source: HlsSource;

  beforeAll(async () => {
    if (skipReason) return;
    const started = Date.now();
    try {
      const made = await pristineDebianRoot();
      pristine = made.dir;
      if (made.madeNow) console.info(`made the Debian root in ${Math.round((Date.now() - started) / 1000)} s`);
    } catch (error) {
      skipReason = `the Debian root could not be made: ${(error as Error).message}`;
      return;
    }
    Object.assign(process.env, {
      AWS_ACCESS_KEY_ID: 'testing',
      AWS_SECRET_ACCESS_KEY: 'testing',
      AWS_EC2_METADATA_DISABLED: 'true',
    });
    [moto, source] = await Promise.all([startMoto(), startHlsSource()]);
  }, scaled(1_800_000));

  afterAll(async () => {
    machine?.remove();
    await source?.close();
    await moto?.stop();
    process.env = saved;
    fs.rmSync(work, { recursive: true, force: true });
  });

  it(
    'installs what it needs, records a live stream into the bucket and powers off',
    { timeout: scaled(3_600_000) },
    async ({ skip }) => {
      if (skipReason) skip(skipReason);
      const ec2 = new EC2Client({ region: 'us-east-1', endpoint: moto.url });
      const s3 = new S3Client({ region: 'us-east-1', endpoint: moto.url, forcePathStyle: true });
      await s3.send(new CreateBucketCommand({ Bucket: BUCKET }));
      const imageId = (await ec2.send(new DescribeImagesCommand({ Owners: ['amazon'] }))).Images?.[0]?.ImageId ?? '';
      const store = new S3RecordingStore({
        bucket: BUCKET,
        prefix: 'captures/',
        region: 'us-east-1',
        endpoint: moto.url,
      });
      // The test stream is on the host's loopback, which the root shares.
      const driver = new AwsCaptureProvider({
        region: 'us-east-1',
        endpoint: moto.url,
        imageId,
        instanceType: 't3.small',
        clock,
        allowPrivateStreamHosts: true,
        store: awsStore(store, clock),
      });
      const start = new Date();
      const launched = await driver.launch(
        { url: source.url, duration: WINDOW_SECONDS, width: 320, height: 180, mosque_id: 'debian0001', method: 'api' },
        {
          recordingId: 'rec-debian1',
          windowStart: start.toISOString(),
          windowEnd: new Date(start.getTime() + WINDOW_SECONDS * 1000).toISOString(),
        },
      );
      const attribute = await ec2.send(
        new DescribeInstanceAttributeCommand({ InstanceId: launched.providerInstanceId, Attribute: 'userData' }),
      );
      const userData = Buffer.from(attribute.UserData?.Value ?? '', 'base64').toString();

      const prefix = `captures/${(launched.filePath ?? '').slice(0, (launched.filePath ?? '').lastIndexOf('/') + 1)}`;
      const keys = async () =>
        ((await s3.send(new ListObjectsV2Command({ Bucket: BUCKET, Prefix: prefix }))).Contents ?? []).map(
          (o) => o.Key ?? '',
        );

      const debian = debianMachine(pristine, work);
      machine = debian;
      const began = Date.now();
      const ran = runInDebian(debian, userData);
      let ended = false;
      void ran.then(() => (ended = true));
      await waitFor(
        async () => ended || (await keys()).filter((key) => key.includes('/segments/')).length >= PIECES,
        'the recorder to deliver pieces',
        WINDOW_SECONDS * 1000,
        1000,
      );
      const installed = Math.round((Date.now() - began) / 1000);
      // The operator's stop: the recorder (in the root's mount namespace, the host's process namespace) gets SIGTERM.
      const pidFile = path.join(debian.root, 'var/lib/capture/instance/recorder.pid');
      if (!ended && fs.existsSync(pidFile)) process.kill(Number(fs.readFileSync(pidFile, 'utf8')), 'SIGTERM');
      const { code, output } = await ran;
      const consoleText = debian.consoleText();
      console.info(
        `the user-data delivered ${PIECES} pieces ${installed} s after it started in the Debian root, and ended ${Math.round((Date.now() - began) / 1000)} s after`,
      );
      expect(code, `${output}\n${consoleText}`).toBe(0);
      expect(consoleText).toContain('capture: installing ffmpeg curl ca-certificates');
      expect(consoleText).toContain('capture: installing Node 22');
      expect(consoleText).not.toMatch(
        /could not install|yt-dlp is missing|could not download the recorder runtime|does not match its sha256/,
      );
      expect(fs.existsSync(path.join(debian.root, 'opt/capture-recorder/node/bin/node'))).toBe(true);
      expect(debian.shutdownCalls()).toBe('-h now\n');

      const delivered = await keys();
      expect(delivered.filter((key) => key.includes('/segments/')).length).toBeGreaterThanOrEqual(PIECES);
      expect(delivered).toContain(`${prefix}metadata.json`);
      await ec2.send(new TerminateInstancesCommand({ InstanceIds: [launched.providerInstanceId] }));
      // Judged from the metadata.json the recorder left: stopped by the operator, with what it recorded.
      const recording = (await driver.list()).find(
        (i) => i.providerInstanceId === launched.providerInstanceId,
      )?.recording;
      expect(recording, consoleText).toMatchObject({ status: 'partial', stoppedByOperator: true });
      expect(recording?.coveredSeconds).toBeGreaterThan(PIECES - 1);
      const file = path.join(work, 'joined.mp4');
      const object = await s3.send(new GetObjectCommand({ Bucket: BUCKET, Key: `captures/${launched.filePath}` }));
      fs.writeFileSync(file, Buffer.from(await object.Body!.transformToByteArray()));
      expect((await ffprobe(file)).duration).toBeGreaterThan(PIECES - 1);
      ec2.destroy();
      s3.destroy();
    },
  );
});
