/**
 * Capture start-up: the time from POST /api/instances/launch (local driver) to the first media bytes
 * (the first bytes of the first MPEG-TS piece a recorder writes), median of several runs, against bare ffmpeg
 * started with the same arguments on the same live HLS stream in the same run. The difference is what
 * the fleet adds: the request, the instance folder, and the detached recorder process starting (the
 * built recorder, as production runs it).
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildApp, type App } from '../server/app';
import { buildFfmpegArgs } from '../server/capture/ffmpeg-args';
import { LocalCaptureProvider } from '../server/capture/local/driver';
import { shippedRecorderRuntime } from '../server/capture/local/recorder-runtime';
import { DEFAULT_RECORDER_SETTINGS, INSTANCE_FILES, piecesDirOf, readJson, STATE_FORMAT_VERSION, type RecorderConfig } from '../server/capture/recorder-state';
import { loadConfig } from '../server/config';
import { startHlsSource, waitFor } from '../testkit/capture';
import { median, round, withRatio, type BenchResult } from './lib';
import { systemClock } from '../server/lib/clock';

const RUNS = 5;
const BUILT_RECORDER = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../build/recorder/recorder.mjs');
const PASSWORD = 'Bench-pass-1';

/** Resolves when a piece in `folder` holds media bytes; returns the time it took from `since`. */
async function firstMediaBytes(folder: string, since: number): Promise<number> {
  return waitFor(
    () => {
      try {
        const pieces = fs.readdirSync(folder).filter((name) => name.endsWith('.ts'));
        return pieces.some((name) => fs.statSync(path.join(folder, name)).size > 0) ? performance.now() - since : undefined;
      } catch {
        return undefined;
      }
    },
    'the first media bytes',
    30_000,
    10,
  );
}

async function bareFfmpeg(url: string, dir: string, run: number): Promise<number> {
  const folder = path.join(dir, `bare-${run}`);
  fs.mkdirSync(folder, { recursive: true });
  const config: RecorderConfig = {
    version: STATE_FORMAT_VERSION,
    instanceId: `bare-${run}`,
    name: 'bare',
    url,
    duration: 30,
    width: 640,
    height: 360,
    mosqueId: null,
    method: 'api',
    jobId: null,
    idempotencyKey: `bare-${run}`,
    recordingId: null,
    imageId: null,
    ffmpegPath: 'ffmpeg',
    // The bench's streams are on loopback.
    egress: { allowPrivate: true, trustedHosts: [] },
    windowStart: new Date().toISOString(),
    windowEnd: new Date(Date.now() + 30_000).toISOString(),
    clockOffsetMs: 0,
    outputPath: path.join(folder, 'bare.mp4'),
    logPath: path.join(dir, 'bare.log'),
    settings: DEFAULT_RECORDER_SETTINGS,
    createdAt: new Date().toISOString(),
  };
  const args = buildFfmpegArgs(config, url, { piecePattern: path.join(folder, 'run-0001-%05d.ts'), listPath: path.join(folder, 'run-0001.list') });
  const started = performance.now();
  const child = spawn('ffmpeg', args, { stdio: 'ignore' });
  try {
    return await firstMediaBytes(folder, started);
  } finally {
    child.kill('SIGKILL');
  }
}

async function throughFleet(app: App, token: string, url: string, dataDir: string): Promise<number> {
  const started = performance.now();
  const response = await app.inject({
    method: 'POST',
    url: '/api/instances/launch',
    headers: { authorization: `Bearer ${token}` },
    payload: { configs: [{ url, duration: 30, width: 640, height: 360 }], max_workers: 1 },
  });
  if (response.statusCode !== 200) throw new Error(`launch failed: ${response.statusCode} ${response.body}`);
  const id = response.json<{ data: { instances: { id: string }[] } }>().data.instances[0].id;
  // The recorder writes its pieces beside the recording (piecesDirOf), named in its instance's config.
  const config = readJson<RecorderConfig>(path.join(dataDir, 'instances', id, INSTANCE_FILES.config));
  if (!config) throw new Error(`instance ${id} has no config.json`);
  const elapsed = await firstMediaBytes(piecesDirOf(config), started);
  await app.ctx.instances.terminate([id], 'benchmark run done');
  return elapsed;
}

export async function run(): Promise<BenchResult[]> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'capture-bench-'));
  const source = await startHlsSource();
  const config = { ...loadConfig({ NODE_ENV: 'test', DATA_DIR: dataDir, LOG_LEVEL: 'silent', DEMO_STREAM: '0', ALLOW_PRIVATE_STREAM_HOSTS: '1' }), consoleDir: undefined };
  // The recorder production runs: the one `npm run build` makes (node alone, no TypeScript loader).
  const recorderRuntime = shippedRecorderRuntime(BUILT_RECORDER);
  const app = await buildApp(config, { logger: false, captureDriver: new LocalCaptureProvider({ dataDir, clock: systemClock, recorderRuntime, allowPrivateStreamHosts: true }) });
  try {
    await app.ctx.users.bootstrapSuperuser({ username: 'admin', password: PASSWORD, dataDir });
    const login = await app.inject({ method: 'POST', url: '/api/auth/login', payload: { username: 'admin', password: PASSWORD } });
    const token = login.json<{ access_token: string }>().access_token;
    const fleet: number[] = [];
    const bare: number[] = [];
    for (let i = 0; i <= RUNS; i++) {
      const ours = await throughFleet(app, token, source.url, dataDir);
      const theirs = await bareFfmpeg(source.url, dataDir, i);
      if (i > 0) {
        // The first round warms the disk cache and the HLS server.
        fleet.push(ours);
        bare.push(theirs);
      }
    }
    return [
      withRatio({
        name: `Capture: launch request to first media bytes (local driver, median of ${RUNS})`,
        figure: round(median(fleet), 0),
        unit: 'ms',
        baseline: round(median(bare), 0),
        baselineLabel: 'bare ffmpeg with the same arguments on the same live HLS stream',
      }),
    ];
  } finally {
    await app.close();
    await source.close();
    // A terminated recorder may still be joining its pieces for a moment: retry until the folder is free.
    fs.rmSync(dataDir, { recursive: true, force: true, maxRetries: 20, retryDelay: 250 });
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  console.table(await run());
}
