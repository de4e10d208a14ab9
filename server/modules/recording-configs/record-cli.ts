/*
 * `npm run record -- --config file.json`: records the launch configurations of a generated file on
 * this machine, each at its recording_start (or at once with --now), with the same recorder the local
 * capture provider runs (recorder/recorder.ts: ffmpeg with a stall watchdog). Each recording
 * gets a folder in --output (default ./recordings) holding the video, recorder.log and state.json.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { RecordingConfig } from '../../../contract/mosques';
import { resolveFfmpeg } from '../../capture/ffmpeg-path';
import { shippedRecorderRuntime } from '../../capture/local/recorder-runtime';
import { readJson, writeJsonAtomic } from '../../../recorder/recorder-state';
import {
  DEFAULT_RECORDER_SETTINGS,
  INSTANCE_FILES,
  STATE_FORMAT_VERSION,
  type RecorderConfig,
  type RecorderState,
} from '../../../recorder/protocol';
import {
  loadRecordingFile,
  parseRecordArgs,
  planRecordings,
  RECORD_USAGE,
  RecordCliError,
  type PlannedRecording,
} from './record-file';

/** setTimeout fires at once beyond 2^31-1 ms: long waits are re-armed a day at a time. */
const MAX_TIMER_MS = 86_400_000;

const say = (line: string) => process.stdout.write(`${new Date().toISOString()} ${line}\n`);
const label = (config: RecordingConfig) => config.mosque_name ?? config.mosque_id ?? config.url;

function sleepUntil(at: Date, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    let timer: NodeJS.Timeout | undefined;
    const arm = () => {
      const left = at.getTime() - Date.now();
      if (left <= 0 || signal.aborted) return resolve();
      timer = setTimeout(arm, Math.min(left, MAX_TIMER_MS));
    };
    signal.addEventListener('abort', () => {
      clearTimeout(timer);
      resolve();
    });
    arm();
  });
}

function folderName(config: RecordingConfig, at: Date): string {
  const stamp = at.toISOString().replace(/[-:]/g, '').replace(/\..*$/, '').replace('T', '-');
  const who = (config.mosque_id ?? 'stream').replace(/[^A-Za-z0-9_-]/g, '_');
  return `${who}-${stamp}-${crypto.randomBytes(2).toString('hex')}`;
}

async function record(
  config: RecordingConfig,
  outputDir: string,
  ffmpegPath: string,
  children: Set<ChildProcess>,
): Promise<boolean> {
  const started = new Date();
  const name = folderName(config, started);
  const dir = path.resolve(outputDir, name);
  fs.mkdirSync(dir, { recursive: true });
  const recorderConfig: RecorderConfig = {
    version: STATE_FORMAT_VERSION,
    instanceId: name,
    name,
    url: config.url,
    duration: config.duration,
    width: config.width,
    height: config.height,
    mosqueId: config.mosque_id ?? null,
    method: config.method,
    jobId: null,
    idempotencyKey: name,
    recordingId: null,
    imageId: null,
    ffmpegPath,
    // As the server's recorders: internal addresses only with ALLOW_PRIVATE_STREAM_HOSTS=1.
    egress: { allowPrivate: ['1', 'true'].includes(process.env.ALLOW_PRIVATE_STREAM_HOSTS ?? ''), trustedHosts: [] },
    windowStart: started.toISOString(),
    windowEnd: new Date(started.getTime() + config.duration * 1000).toISOString(),
    clockOffsetMs: 0,
    outputPath: path.join(dir, `${name}.mp4`),
    logPath: path.join(dir, INSTANCE_FILES.log),
    settings: DEFAULT_RECORDER_SETTINGS,
    createdAt: started.toISOString(),
  };
  writeJsonAtomic(path.join(dir, INSTANCE_FILES.config), recorderConfig);
  say(
    `recording ${label(config)}: ${config.url} for ${config.duration} s at ${config.width}x${config.height} -> ${path.relative(process.cwd(), recorderConfig.outputPath)}`,
  );

  const env = { ...process.env };
  delete env.NODE_OPTIONS;
  const recorder = shippedRecorderRuntime();
  const child = spawn(process.execPath, [...recorder.nodeArgs, path.join(recorder.dir, recorder.entry), dir], {
    stdio: 'ignore',
    cwd: dir,
    env,
  });
  children.add(child);
  const exit = await new Promise<string | null>((resolve) => {
    child.once('error', (error) => resolve(error.message));
    child.once('exit', () => resolve(null));
  });
  children.delete(child);
  const state = readJson<RecorderState>(path.join(dir, INSTANCE_FILES.state));
  const outcome = state?.outcome;
  if (!outcome) {
    say(
      `failed ${label(config)}: ${exit ?? 'the recorder ended without an outcome'} (see ${path.join(dir, INSTANCE_FILES.log)})`,
    );
    return false;
  }
  say(
    `${outcome.status} ${label(config)}: ${state.mediaSeconds.toFixed(1)} s, ${state.bytes} bytes${outcome.reason ? ` (${outcome.reason})` : ''}`,
  );
  return outcome.status === 'captured';
}

async function main(argv: string[]): Promise<number> {
  const args = parseRecordArgs(argv);
  if (args.help) {
    process.stdout.write(`${RECORD_USAGE}\n`);
    return 0;
  }
  const configs = loadRecordingFile(args.config);
  const { planned, skipped } = planRecordings(configs, new Date(), args.now);
  for (const { config, reason } of skipped) say(`skipped ${label(config)}: ${reason}`);
  for (const p of planned) say(`planned ${label(p.config)} at ${p.startAt.toISOString()} (${p.note})`);
  if (args.dryRun || planned.length === 0) return planned.length === 0 && skipped.length > 0 ? 1 : 0;

  const ffmpeg = resolveFfmpeg(process.env.FFMPEG_PATH || undefined);
  if (!ffmpeg) throw new RecordCliError('ffmpeg not found: install it, put it on PATH or set FFMPEG_PATH');

  const stop = new AbortController();
  const children = new Set<ChildProcess>();
  const onSignal = (signal: NodeJS.Signals) => {
    if (!stop.signal.aborted) say(`${signal}: stopping; recordings in progress finish their files`);
    stop.abort();
    for (const child of children) child.kill('SIGTERM');
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);

  const results = await Promise.all(
    planned.map(async (p: PlannedRecording) => {
      await sleepUntil(p.startAt, stop.signal);
      if (stop.signal.aborted) return false;
      return record(p.config, args.output, ffmpeg.path, children);
    }),
  );
  const failed = results.filter((ok) => !ok).length + skipped.length;
  say(`done: ${results.length - results.filter((ok) => !ok).length} completed, ${failed} not`);
  return failed === 0 ? 0 : 1;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (error: unknown) => {
      process.stderr.write(`${error instanceof RecordCliError ? error.message : String(error)}\n`);
      if (error instanceof RecordCliError && error.showUsage) process.stderr.write(`\n${RECORD_USAGE}\n`);
      process.exit(2);
    },
  );
}
