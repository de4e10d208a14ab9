import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { EgressPolicy } from '../recorder/egress-guard';
import {
  DEFAULT_RECORDER_SETTINGS,
  INSTANCE_FILES,
  readJson,
  type RecorderConfig,
  type RecorderSettings,
  type RecorderState,
} from '../recorder/recorder-state';
import { waitFor } from './wait';

const RECORDER = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../recorder/recorder.ts');
const TSX = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;

/**
 * One recorder process on an instance folder of its own, as the local driver runs it (from the
 * sources, through tsx), without a server: a test kills it and starts it again on the same folder
 * when it likes, as the fleet's relaunch does.
 */
export interface RecorderProcess {
  dir: string;
  config: RecorderConfig;
  /** Starts the recorder (again) on the folder. */
  start(): void;
  /** SIGKILL, as a crash: nothing is flushed. */
  kill(): Promise<void>;
  /** SIGTERM: the operator's stop. */
  terminate(): void;
  state(): RecorderState | undefined;
  /** Waits for the recorder to write its outcome and exit. */
  finished(timeoutMs: number): Promise<RecorderState>;
  log(): string;
  remove(): void;
}

export interface RecorderProcessOptions {
  url: string;
  seconds: number;
  width: number;
  height: number;
  sourceAsIs?: boolean;
  /** false: the recorder does not measure the content (a baseline for its cost). */
  measureContent?: boolean;
  settings?: Partial<RecorderSettings>;
  /** Where the recorder may connect; default anywhere (test streams live on loopback). */
  egress?: EgressPolicy;
  ytDlpPath?: string;
  /** ffprobe to use (a test may count its runs); default on PATH. */
  ffprobePath?: string;
  /** A built recorder (scripts/build-server.ts) that node runs alone, as the built server does; default the sources through tsx. */
  built?: string;
  /** A cgroup folder (v1 or v2) the recorder joins before it starts, so that every process of its tree is counted there. */
  cgroup?: string;
  /** Options for node before the recorder, e.g. the local driver's heap limit (RECORDER_HEAP_LIMIT). */
  nodeArgs?: string[];
}

/** Runs `command` inside `cgroup` from its first instruction: the shell joins it, then becomes the command. */
const IN_CGROUP = 'echo $$ > "$0/cgroup.procs" && exec "$@"';

export function recorderProcess(options: RecorderProcessOptions): RecorderProcess {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'capture-recorder-'));
  const now = Date.now();
  const config: RecorderConfig = {
    version: 1,
    instanceId: `cap-${path.basename(dir).slice(-8)}`,
    name: 'fidelity',
    url: options.url,
    duration: options.seconds,
    width: options.width,
    height: options.height,
    mosqueId: null,
    method: 'api',
    jobId: null,
    idempotencyKey: dir,
    recordingId: null,
    imageId: null,
    ffmpegPath: process.env.FFMPEG_PATH ?? 'ffmpeg',
    ...(options.ffprobePath ? { ffprobePath: options.ffprobePath } : {}),
    ytDlpPath: options.ytDlpPath ?? null,
    egress: options.egress ?? { allowPrivate: true, trustedHosts: [] },
    windowStart: new Date(now).toISOString(),
    windowEnd: new Date(now + options.seconds * 1000).toISOString(),
    clockOffsetMs: 0,
    outputPath: path.join(dir, 'recording.mp4'),
    logPath: path.join(dir, INSTANCE_FILES.log),
    settings: { ...DEFAULT_RECORDER_SETTINGS, ...options.settings },
    sourceAsIs: options.sourceAsIs ?? false,
    ...(options.measureContent === false ? { measureContent: false } : {}),
    createdAt: new Date(now).toISOString(),
  };
  fs.writeFileSync(path.join(dir, INSTANCE_FILES.config), JSON.stringify(config));
  let child: ChildProcess | null = null;
  const exited = () => !child || child.exitCode !== null || child.signalCode !== null;
  const state = () => readJson<RecorderState>(path.join(dir, INSTANCE_FILES.state));
  return {
    dir,
    config,
    start: () => {
      if (!exited()) throw new Error('the recorder is running');
      const entry = options.built ? [options.built] : ['--import', TSX, RECORDER];
      const command = [process.execPath, ...(options.nodeArgs ?? []), ...entry, dir];
      child = options.cgroup
        ? spawn('/bin/sh', ['-c', IN_CGROUP, options.cgroup, ...command], { stdio: 'ignore' })
        : spawn(command[0], command.slice(1), { stdio: 'ignore' });
    },
    kill: async () => {
      const running = child;
      if (!running || exited()) return;
      await new Promise<void>((resolve) => {
        running.once('exit', () => resolve());
        running.kill('SIGKILL');
      });
    },
    terminate: () => child?.kill('SIGTERM'),
    state,
    finished: async (timeoutMs) => {
      await waitFor(() => exited() && state()?.outcome, 'the recorder to finish', timeoutMs, 250);
      return state() as RecorderState;
    },
    log: () => {
      try {
        return fs.readFileSync(config.logPath, 'utf8');
      } catch {
        return '';
      }
    },
    remove: () => fs.rmSync(dir, { recursive: true, force: true }),
  };
}
