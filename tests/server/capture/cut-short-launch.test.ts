import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchConfigSchema } from '../../../contract/instances';
import { LocalCaptureProvider } from '../../../server/capture/local/driver';
import { systemClock } from '../../../server/lib/clock';
import { alive, instancePids, killRecorders, startHlsSource, waitFor, type HlsSource } from '../../../testkit/capture';
import { scaled } from '../../../testkit/time-scale';

/** Recorder processes whose command line names this instance folder (the pid file may lie). */
function recordersOf(instanceDir: string): number[] {
  return fs
    .readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .filter((pid) => {
      try {
        const args = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
        return /recorder\.(mjs|ts)$/.test(args.at(-2) ?? '') && args.at(-1) === instanceDir;
      } catch {
        return false;
      }
    })
    .map(Number)
    .filter((pid) => alive(pid));
}

/**
 * A server killed between writing a launch's folder and starting its recorder leaves a folder with
 * its config and nothing running. The launch is driven again (same id, same key) by the next server:
 * that must not start a second recorder beside one already there, and a folder whose recorder never
 * started must get one, or the Friday is lost (seen: five retries all answered "no recording").
 */
describe('a launch cut short by a server crash', () => {
  let dataDir: string;
  let source: HlsSource;
  let driver: LocalCaptureProvider;
  const config = () =>
    launchConfigSchema.parse({ url: source.url, duration: 60, width: 320, height: 180, mosque_id: null });

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'capture-cut-short-'));
    source = await startHlsSource();
    driver = new LocalCaptureProvider({ dataDir, clock: systemClock, allowPrivateStreamHosts: true });
  });
  afterAll(async () => {
    killRecorders(dataDir);
    await source?.close();
    fs.rmSync(dataDir, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 });
  });

  it(
    'driven again with its recorder running, it returns that recorder and starts no second one',
    { timeout: scaled(30_000) },
    async () => {
      const first = await driver.launch(config(), {
        launchId: 'cap-again00001',
        jobId: 'job-again',
        idempotencyKey: 'job-again',
      });
      const dir = path.join(dataDir, 'instances', first.launchId);
      const { recorder } = instancePids(dataDir, first.launchId);
      expect(alive(recorder)).toBe(true);

      const again = await driver.launch(config(), {
        launchId: first.launchId,
        jobId: 'job-again',
        idempotencyKey: 'job-again',
      });
      expect(again).toMatchObject({ launchId: first.launchId, existing: true });
      expect(instancePids(dataDir, first.launchId).recorder).toBe(recorder);
      expect(recordersOf(dir)).toEqual([recorder]);
    },
  );

  it(
    'a folder whose recorder never started gets one from the next server at once, and it records',
    { timeout: scaled(60_000) },
    async () => {
      const launched = await driver.launch(config(), {
        launchId: 'cap-never00001',
        jobId: 'job-never',
        idempotencyKey: 'job-never',
      });
      const dir = path.join(dataDir, 'instances', launched.launchId);
      // As the crash left it a moment ago: the config written, no recorder, no pid file, no state.
      process.kill(-(instancePids(dataDir, launched.launchId).recorder ?? 0), 'SIGKILL');
      await waitFor(() => recordersOf(dir).length === 0, 'the recorder to be gone', 5000);
      for (const file of ['recorder.pid', 'state.json']) fs.rmSync(path.join(dir, file), { force: true });

      // The next server drives the launch again under its own id: the recorder starts now, not after a grace.
      const next = new LocalCaptureProvider({ dataDir, clock: systemClock, allowPrivateStreamHosts: true });
      const again = await next.launch(config(), {
        launchId: launched.launchId,
        jobId: 'job-never',
        idempotencyKey: 'job-never',
      });
      expect(again).toMatchObject({ launchId: launched.launchId, existing: true });
      const started = instancePids(dataDir, launched.launchId).recorder;
      expect(alive(started)).toBe(true);
      const media = await waitFor(
        async () => {
          const instance = (await next.list()).find((item) => item.providerInstanceId === launched.launchId);
          return instance?.mediaFlowing ? instance : undefined;
        },
        'media from the started recorder',
        30_000,
      );
      expect(media.state).toBe('running');
      expect(fs.readFileSync(path.join(dir, 'recorder.log'), 'utf8')).toMatch(/starting it again/);
      expect(recordersOf(dir)).toEqual([started]);
    },
  );
});
