/**
 * Capture start-up: the time from the signed-in POST /api/instances/launch to the real server (built,
 * as production runs it, local driver) to the first media bytes (the first bytes of the first MPEG-TS
 * piece a recorder writes), at the launch defaults (1280x720), median of several runs, against bare
 * ffmpeg started with the recorder's own arguments on the same live HLS stream in the same run. The
 * difference is what the fleet adds: the request, the instance folder, and the detached recorder
 * process starting (the built recorder).
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildFfmpegArgs } from '../recorder/ffmpeg-args';
import { INSTANCE_FILES, piecesDirOf, readJson, type RecorderConfig } from '../recorder/recorder-state';
import { startHlsSource, waitFor } from '../testkit/capture';
import { median, round, withRatio, type BenchResult } from './lib';
import { call, signIn, startRealServer, type RunningServer } from './servers';

const RUNS = 5;
/** How long a terminated recorder may take to stop (it joins its pieces first) before it is killed. */
const RECORDER_STOP_MS = 60_000;

/** Resolves when a piece in `folder` holds media bytes; returns the time it took from `since`. */
async function firstMediaBytes(folder: string, since: number): Promise<number> {
  return waitFor(
    () => {
      try {
        const pieces = fs.readdirSync(folder).filter((name) => name.endsWith('.ts'));
        return pieces.some((name) => fs.statSync(path.join(folder, name)).size > 0)
          ? performance.now() - since
          : undefined;
      } catch {
        return undefined;
      }
    },
    'the first media bytes',
    30_000,
    10,
  );
}

/** Bare ffmpeg with the arguments the recorder of `fleetConfig` used, writing into its own folder. */
async function bareFfmpeg(fleetConfig: RecorderConfig, dir: string, run: number): Promise<number> {
  const folder = path.join(dir, `bare-${run}`);
  fs.mkdirSync(folder, { recursive: true });
  const config: RecorderConfig = {
    ...fleetConfig,
    instanceId: `bare-${run}`,
    outputPath: path.join(folder, 'bare.mp4'),
    logPath: path.join(dir, 'bare.log'),
  };
  const args = buildFfmpegArgs(config, config.url, {
    piecePattern: path.join(folder, 'run-0001-%05d.ts'),
    listPath: path.join(folder, 'run-0001.list'),
  });
  const started = performance.now();
  const child = spawn('ffmpeg', args, { stdio: 'ignore' });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  try {
    return await firstMediaBytes(folder, started);
  } finally {
    child.kill('SIGKILL');
    await exited;
  }
}

/** One launch through the real route at the defaults; its time to first media bytes, and the recorder's config. */
async function throughFleet(
  server: RunningServer,
  token: string,
  url: string,
): Promise<{ ms: number; config: RecorderConfig }> {
  const started = performance.now();
  const launched = await call<{ data: { instances: { id: string }[] } }>(
    server.baseUrl,
    token,
    'POST',
    '/api/instances/launch',
    { configs: [{ url, duration: 30 }] },
  );
  const id = launched.data.instances[0].id;
  // The recorder writes its pieces beside the recording (piecesDirOf), named in its instance's config.
  const config = readJson<RecorderConfig>(path.join(server.dataDir, 'instances', id, INSTANCE_FILES.config));
  if (!config) throw new Error(`instance ${id} has no config.json`);
  const ms = await firstMediaBytes(piecesDirOf(config), started);
  await call(server.baseUrl, token, 'POST', '/api/instances/terminate', { instance_ids: [id] });
  return { ms, config };
}

/** The recorders' process groups (each recorder is detached, its ffmpeg in its group) from their pid files. */
function recorderGroups(dataDir: string): number[] {
  const instances = path.join(dataDir, 'instances');
  if (!fs.existsSync(instances)) return [];
  return fs
    .readdirSync(instances)
    .map((id) => path.join(instances, id, INSTANCE_FILES.pid))
    .filter((file) => fs.existsSync(file))
    .map((file) => Number.parseInt(fs.readFileSync(file, 'utf8'), 10))
    .filter((pid) => Number.isInteger(pid) && pid > 0);
}

const groupAlive = (pgid: number) => {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
};

/**
 * Waits until every recorder the run started has exited, so its folder can be removed: a terminated
 * recorder joins its pieces before it exits, and removing the folder meanwhile failed (ENOTEMPTY).
 * One still running after RECORDER_STOP_MS is killed, and the benchmark fails naming it.
 */
async function recordersStopped(dataDir: string): Promise<void> {
  const groups = recorderGroups(dataDir);
  try {
    await waitFor(() => groups.every((pgid) => !groupAlive(pgid)), 'the recorders to stop', RECORDER_STOP_MS, 100);
  } catch (error) {
    for (const pgid of groups.filter(groupAlive)) process.kill(-pgid, 'SIGKILL');
    throw error;
  }
}

export async function run(): Promise<BenchResult[]> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'capture-bench-'));
  const source = await startHlsSource();
  let server: RunningServer | undefined;
  try {
    server = await startRealServer(dataDir, { ALLOW_PRIVATE_STREAM_HOSTS: '1' });
    const token = await signIn(server.baseUrl);
    const fleet: number[] = [];
    const bare: number[] = [];
    for (let i = 0; i <= RUNS; i++) {
      const ours = await throughFleet(server, token, source.url);
      const theirs = await bareFfmpeg(ours.config, dataDir, i);
      if (i > 0) {
        // The first round warms the disk cache and the HLS server.
        fleet.push(ours.ms);
        bare.push(theirs);
      }
    }
    return [
      withRatio({
        name: `Capture: signed-in launch request over HTTP to first media bytes (built server, local driver, 1280x720 default, median of ${RUNS})`,
        figure: round(median(fleet), 0),
        unit: 'ms',
        baseline: round(median(bare), 0),
        baselineLabel: "bare ffmpeg with the recorder's arguments on the same live HLS stream",
      }),
    ];
  } finally {
    try {
      await recordersStopped(dataDir);
    } finally {
      await server?.stop();
      await source.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  console.table(await run());
}
