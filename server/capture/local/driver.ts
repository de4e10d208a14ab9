import { countOf } from '../../../contract/plural';
import { spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { InstanceState } from '../../../contract/instances';
import type { Clock } from '../../lib/clock';
import { executable, probeFfmpegOften, resolveFfmpeg, resolveFfprobe } from '../ffmpeg-path';
import { isSafeId, newId } from '../ids';
import { lowerPriority } from '../../lib/process-priority';
import {
  ProviderError,
  recordingWindow,
  type CaptureProvider,
  type CreateImageRequest,
  type LaunchConfig,
  type LaunchedInstance,
  type LaunchOptions,
  type ProviderHealth,
  type ProviderImage,
  type ProviderInstance,
  type RecorderMemory,
} from '../provider';
import { piecesDirOf, readJson, readPidFile, writeJsonAtomic, writePidFile } from '../../../recorder/recorder-state';
import {
  DEFAULT_RECORDER_SETTINGS,
  INSTANCE_FILES,
  STATE_FORMAT_VERSION,
  type RecorderConfig,
  type RecorderSettings,
  type RecorderState,
  type StopRequest,
} from '../../../recorder/protocol';
import type { DeliveryRequest } from '../../storage/delivery';
import type { RecorderDelivery } from '../../../recorder/protocol';
import { LocalImageStore } from './images';
import { localWindow } from '../../../recorder/recorder-window';
import { processAlive, recorderEnvironment, residentBytes, signal, tailLines } from './processes';
import { copyRuntime, runtimeIn, shippedRecorderRuntime, type RecorderRuntime } from './recorder-runtime';
import {
  claimRelaunch,
  markCrashed,
  MAX_RELAUNCHES,
  recordRelaunch,
  relaunchCount,
  stopOrphanFfmpeg,
} from './supervisor';

/**
 * A recorder that has not quit this long after a stop request is killed with its process group. It
 * needs a while after ffmpeg quits: it measures and joins the pieces of a window that may be hours long.
 */
const STOP_KILL_AFTER_MS = 5 * 60_000;
const INSTANCE_TYPE = 'local';

export interface LocalProviderOptions {
  dataDir: string;
  clock: Clock;
  /** The machine, as the servers sharing a database name it (SERVER_HOST_NAME); default the hostname. */
  hostName?: string;
  /** FFMPEG_PATH, when set. */
  ffmpegPath?: string;
  /** STALL_TIMEOUT_SECONDS, when set: overrides the image's setting. */
  stallTimeoutSeconds?: number;
  /** CONTENT_ALARM_SECONDS, passed on to each recorder: it writes its state when a condition reaches it, and samples the picture by it. */
  contentAlarmSeconds?: number;
  /** FFPROBE_PATH, when set; else ffprobe beside ffmpeg, else on PATH. */
  ffprobePath?: string;
  /** YTDLP_PATH, when set; else yt-dlp on PATH. */
  ytDlpPath?: string;
  /** CAPTURE_LEAD_SECONDS (default 0: a process starts at once). */
  leadSeconds?: number;
  /** ALLOW_PRIVATE_STREAM_HOSTS: recorders may reach internal addresses (their egress guard checks nothing). */
  allowPrivateStreamHosts?: boolean;
  /** Overrides of the recorder's settings for every launch (retry waits, piece length). */
  recorderSettings?: Partial<RecorderSettings>;
  /** How a recorder delivers to the recordings store (an s3 store); absent or null: its files stay in DATA_DIR/recordings. */
  delivery?: (request: Omit<DeliveryRequest, 'via'>) => Promise<RecorderDelivery | null>;
  /**
   * RECORDER_NICENESS: how much nicer than the server each recorder runs (its ffmpeg and ffprobe inherit
   * it); absent or 0, the server's own. At a peak that uses every core (100 copy recordings on two),
   * each recorder otherwise gets about the server's share of the CPU: one among a hundred, it took 8.7 s
   * at p99 to answer the console's GET. Niced, the recorders still use all the CPU the server leaves.
   */
  niceness?: number;
  /** The recorder launches start when no image is named: the one this server ships unless given (tests). */
  recorderRuntime?: RecorderRuntime;
}

/**
 * The local driver: each instance is a detached recorder process (own process group, survives a
 * server restart) described by the files of DATA_DIR/instances/<id>/. `list()` reads those files and
 * checks the pids every time; nothing about a live recorder is kept in memory.
 */
export class LocalCaptureProvider implements CaptureProvider {
  readonly kind = 'local' as const;
  readonly reconcileIntervalMs = 1000;
  /** Its recorder processes are relaunched here (supervisor.ts), in the same folder, so they carry on their pieces. */
  readonly supervisesRecorders = true;
  readonly leadSeconds: number;
  readonly scope: string;
  readonly images: LocalImageStore;
  private readonly instancesDir: string;
  private readonly recordingsDir: string;
  /** Ended instances never change again, so their last reading is kept. */
  private readonly ended = new Map<string, ProviderInstance>();
  private readonly shippedRuntime: RecorderRuntime;

  constructor(private readonly options: LocalProviderOptions) {
    this.scope = `local:${options.hostName ?? os.hostname()}:${path.resolve(options.dataDir)}`;
    this.leadSeconds = options.leadSeconds ?? 0;
    this.instancesDir = path.join(options.dataDir, 'instances');
    this.recordingsDir = path.join(options.dataDir, 'recordings');
    this.images = new LocalImageStore(path.join(options.dataDir, 'images'), options.clock);
    this.shippedRuntime = options.recorderRuntime ?? shippedRecorderRuntime();
  }

  async launch(config: LaunchConfig, options: LaunchOptions = {}): Promise<LaunchedInstance> {
    const launchId = options.launchId ?? newId('cap');
    if (!isSafeId(launchId)) throw new ProviderError('invalid', `Invalid instance id ${launchId}`);
    const key = options.idempotencyKey ?? options.jobId ?? launchId;
    // The launch that owns the key may be this very one, driven again after a crash cut it short: its
    // folder (and maybe its recorder) exists, and a second recorder must never start beside it.
    const claimed = this.claim(key, launchId);
    const earlier = this.inspect(claimed);
    if (earlier) return { ...this.launched(claimed, earlier), existing: true };

    const ffmpeg = resolveFfmpeg(this.options.ffmpegPath);
    if (!ffmpeg) throw new ProviderError('unavailable', 'ffmpeg was not found: set FFMPEG_PATH or install ffmpeg');
    if (!executable(ffmpeg.path))
      throw new ProviderError('unavailable', `ffmpeg at ${ffmpeg.path} (${ffmpeg.source}) is not an executable file`);
    const image = options.imageId ? this.images.get(options.imageId) : this.images.latestAvailable();
    if (options.imageId && image?.state !== 'available')
      throw new ProviderError('invalid', `AMI ${options.imageId} is not available`);

    const runtime = image ? runtimeIn(this.images.runtimeDirOf(image.imageId)) : this.shippedRuntime;
    // An image frozen before the recorder was split into its current files cannot record a window.
    if (!runtime) {
      throw new ProviderError(
        'invalid',
        `AMI ${image?.imageId} holds an older recorder: create a new image from a current instance`,
      );
    }
    const dir = path.join(this.instancesDir, launchId);
    copyRuntime(runtime, path.join(dir, INSTANCE_FILES.runtime));

    const settings: RecorderSettings = {
      ...DEFAULT_RECORDER_SETTINGS,
      ...(image ? this.images.settingsOf(image.imageId) : {}),
      ...(this.options.stallTimeoutSeconds ? { stallTimeoutSeconds: this.options.stallTimeoutSeconds } : {}),
      ...(options.stallTimeoutSeconds ? { stallTimeoutSeconds: options.stallTimeoutSeconds } : {}),
      ...this.options.recorderSettings,
    };
    const launchedAt = this.options.clock.now();
    const window = recordingWindow(config, options, launchedAt);
    const outputPath = this.reserveOutputFile(config.mosque_id, launchId);
    const delivery = await this.issueDelivery({
      recordingId: options.recordingId ?? launchId,
      mosqueId: config.mosque_id,
      ...window,
      fileName: path.basename(outputPath),
    });
    const recorderConfig: RecorderConfig = {
      version: STATE_FORMAT_VERSION,
      instanceId: launchId,
      name: options.name ?? `capture-${config.mosque_id ?? 'adhoc'}-${launchId.slice(-6)}`,
      url: config.url,
      duration: config.duration,
      width: config.width,
      height: config.height,
      mosqueId: config.mosque_id,
      method: config.method,
      jobId: options.jobId ?? null,
      idempotencyKey: key,
      recordingId: options.recordingId ?? null,
      imageId: image?.imageId ?? null,
      ffmpegPath: ffmpeg.path,
      ffprobePath: resolveFfprobe(ffmpeg.path, this.options.ffprobePath) ?? null,
      ytDlpPath: this.options.ytDlpPath ?? null,
      egress: { allowPrivate: this.options.allowPrivateStreamHosts ?? false, trustedHosts: options.trustedHosts ?? [] },
      ...window,
      // The recorder runs on this machine's clock; the window is in the server's (a test's may be set).
      clockOffsetMs: launchedAt.getTime() - Date.now(),
      outputPath,
      logPath: path.join(dir, INSTANCE_FILES.log),
      settings,
      ...(this.options.contentAlarmSeconds ? { contentAlarmSeconds: this.options.contentAlarmSeconds } : {}),
      delivery,
      ...(options.continuing ? { continuing: options.continuing } : {}),
      createdAt: this.options.clock.now().toISOString(),
    };
    writeJsonAtomic(path.join(dir, INSTANCE_FILES.config), recorderConfig);
    await this.spawnRecorder(dir);
    return {
      launchId,
      providerInstanceId: launchId,
      name: recorderConfig.name,
      state: 'pending',
      instanceType: INSTANCE_TYPE,
      imageId: recorderConfig.imageId,
      filePath: delivery?.mediaKey ?? outputPath,
      existing: false,
    };
  }

  private async issueDelivery(request: Omit<DeliveryRequest, 'via'>): Promise<RecorderDelivery | null> {
    try {
      return (await this.options.delivery?.(request)) ?? null;
    } catch (error) {
      throw new ProviderError(
        'unavailable',
        `Could not prepare the upload to the recordings store: ${(error as Error).message}`,
      );
    }
  }

  private async spawnRecorder(dir: string): Promise<void> {
    const child = this.spawnRecorderSync(dir);
    await new Promise<void>((resolve, reject) => {
      if (child.pid) resolve();
      child.once('spawn', resolve);
      child.once('error', (error) =>
        reject(new ProviderError('failed', `Could not start the recorder: ${error.message}`)),
      );
    });
  }

  /** Starts the recorder of a folder, detached in its own process group, and notes its pid. */
  private spawnRecorderSync(dir: string): ChildProcess {
    const env = recorderEnvironment(process.env);
    // The instance's own copy says how it starts: the built recorder with node alone, the sources through tsx.
    const runtime = runtimeIn(path.join(dir, INSTANCE_FILES.runtime));
    if (!runtime)
      throw new ProviderError(
        'failed',
        `The recorder's files are missing from ${path.join(dir, INSTANCE_FILES.runtime)}`,
      );
    const child = spawn(process.execPath, [...runtime.nodeArgs, path.join(runtime.dir, runtime.entry), dir], {
      detached: true,
      stdio: 'ignore',
      cwd: dir,
      env,
    });
    child.on('error', () => undefined); // reported by the caller that waits for it, or by the next inspection
    if (!child.pid) throw new ProviderError('failed', 'Could not start the recorder');
    if (this.options.niceness) lowerPriority(child.pid, this.options.niceness);
    writePidFile(dir, child.pid);
    child.unref();
    return child;
  }

  async terminate(instanceId: string, options: { reason?: string } = {}): Promise<void> {
    const current = this.inspect(instanceId);
    if (!current) throw new ProviderError('not_found', `Instance ${instanceId} not found`);
    if (current.state !== 'pending' && current.state !== 'running') {
      throw new ProviderError('conflict', `Instance ${instanceId} is not running (it is ${current.state})`);
    }
    const dir = path.join(this.instancesDir, instanceId);
    const request: StopRequest = {
      reason: options.reason ?? 'Terminated by operator',
      requestedAt: new Date().toISOString(),
    };
    writeJsonAtomic(path.join(dir, INSTANCE_FILES.stop), request);
    const pid = this.recorderPid(dir);
    if (pid && processAlive(pid, dir)) {
      signal(pid, 'SIGTERM');
      return;
    }
    // The recorder is gone but ffmpeg may still run: SIGTERM makes ffmpeg finish its piece.
    const state = readJson<RecorderState>(path.join(dir, INSTANCE_FILES.state));
    const config = readJson<RecorderConfig>(path.join(dir, INSTANCE_FILES.config));
    if (state?.ffmpegPid && config && processAlive(state.ffmpegPid, piecesDirOf(config)))
      signal(state.ffmpegPid, 'SIGTERM');
  }

  async list(): Promise<ProviderInstance[]> {
    let names: string[];
    try {
      names = fs.readdirSync(this.instancesDir);
    } catch {
      return [];
    }
    const instances: ProviderInstance[] = [];
    for (const name of names) {
      if (!isSafeId(name)) continue;
      const instance = this.ended.get(name) ?? this.inspect(name);
      if (instance) instances.push(instance);
    }
    return instances;
  }

  recorderMemory(): RecorderMemory[] {
    let names: string[];
    try {
      names = fs.readdirSync(this.instancesDir);
    } catch {
      return [];
    }
    const measured: RecorderMemory[] = [];
    for (const name of names) {
      if (!isSafeId(name) || this.ended.has(name)) continue;
      const dir = path.join(this.instancesDir, name);
      const pid = this.recorderPid(dir);
      const bytes = pid && processAlive(pid, dir) ? residentBytes(pid) : undefined;
      if (bytes !== undefined) measured.push({ instanceId: name, residentBytes: bytes });
    }
    return measured;
  }

  async logs(instanceId: string, lines: number): Promise<string[]> {
    const dir = path.join(this.instancesDir, instanceId);
    if (!isSafeId(instanceId) || !fs.existsSync(path.join(dir, INSTANCE_FILES.config))) {
      throw new ProviderError('not_found', `Instance ${instanceId} not found`);
    }
    return tailLines(path.join(dir, INSTANCE_FILES.log), lines);
  }

  async createImage(request: CreateImageRequest): Promise<ProviderImage> {
    const dir = path.join(this.instancesDir, request.instanceId);
    const config = isSafeId(request.instanceId)
      ? readJson<RecorderConfig>(path.join(dir, INSTANCE_FILES.config))
      : undefined;
    if (!config) throw new ProviderError('not_found', `Instance ${request.instanceId} not found`);
    return this.images.create(request, {
      runtimeDir: path.join(dir, INSTANCE_FILES.runtime),
      settings: config.settings,
    });
  }

  async listImages(): Promise<ProviderImage[]> {
    return this.images.list();
  }

  async deleteImage(imageId: string): Promise<void> {
    this.images.delete(imageId);
  }

  async health(): Promise<ProviderHealth> {
    const started = performance.now();
    const ffmpeg = resolveFfmpeg(this.options.ffmpegPath);
    const done = (status: ProviderHealth['status'], detail: string): ProviderHealth => ({
      provider: 'local',
      status,
      detail,
      latencyMs: Math.round(performance.now() - started),
    });
    if (!ffmpeg) return done('down', 'ffmpeg was not found: set FFMPEG_PATH or install ffmpeg');
    const probe = await probeFfmpegOften(ffmpeg.path);
    if (!probe.ok) return done('down', `ffmpeg at ${ffmpeg.path} does not run: ${probe.error}`);
    try {
      fs.mkdirSync(this.recordingsDir, { recursive: true });
      fs.accessSync(this.recordingsDir, fs.constants.W_OK);
    } catch (error) {
      return done('down', `Recordings folder is not writable: ${(error as Error).message}`);
    }
    const active = (await this.list()).filter((i) => i.state === 'pending' || i.state === 'running').length;
    return done(
      'operational',
      `${probe.version} at ${ffmpeg.path} (${ffmpeg.source}); ${countOf(active, 'recorder')} active`,
    );
  }

  async close(): Promise<void> {
    await this.images.settle();
  }

  /** Reads one instance from its files and pids; marks a recorder that died without finishing. */
  private inspect(instanceId: string): ProviderInstance | undefined {
    if (!isSafeId(instanceId)) return undefined;
    const dir = path.join(this.instancesDir, instanceId);
    const config = readJson<RecorderConfig>(path.join(dir, INSTANCE_FILES.config));
    if (!config) return undefined; // a launch still writing its folder, or not an instance
    const pid = this.recorderPid(dir);
    // Liveness first, state second: a recorder writes its outcome before it exits, so a dead one
    // whose state has no outcome really died without finishing.
    const alive = processAlive(pid, dir);
    let state = readJson<RecorderState>(path.join(dir, INSTANCE_FILES.state));
    const stop = readJson<StopRequest>(path.join(dir, INSTANCE_FILES.stop));

    if (!state?.outcome && !alive) {
      // No start grace: a launch writes its config and starts its recorder in one synchronous step, so
      // a config without a live recorder is never a launch of this process still under way.
      // Died (started again to carry on, or to join its pieces after a stop), or never started (a server
      // killed between writing the folder and starting its recorder, and nobody asked it to stop since):
      // the recorder is started in its folder, as long as it has not failed too often.
      const startable = state !== undefined || !stop;
      if (startable && relaunchCount(dir) < MAX_RELAUNCHES && !claimRelaunch(dir, pid)) {
        // Another server sharing this folder is starting it again: it is theirs to report.
        return this.view(config, state, stop ? 'stopping' : state?.phase === 'running' ? 'running' : 'pending', true);
      }
      if (startable && relaunchCount(dir) < MAX_RELAUNCHES && this.relaunch(dir, config, state, pid)) {
        return this.view(config, state, stop ? 'stopping' : state?.phase === 'running' ? 'running' : 'pending', true);
      }
      state = markCrashed(dir, config, state, pid, stop);
    }
    if (state?.outcome) {
      const final = this.view(config, state, state.stopCause === 'operator' ? 'terminated' : 'stopped', false);
      this.ended.set(instanceId, final);
      return final;
    }
    if (stop && pid && Date.now() - Date.parse(stop.requestedAt) > STOP_KILL_AFTER_MS) signal(-pid, 'SIGKILL');
    const phase = state?.phase ?? 'pending';
    const live: InstanceState = stop || phase === 'stopping' ? 'stopping' : phase === 'running' ? 'running' : 'pending';
    return this.view(config, state, live, true);
  }

  /**
   * A recorder that died inside its window (killed, out of memory, a machine restart) is started again
   * in its folder and carries on; after its window it is started to join and report what it recorded.
   */
  private relaunch(
    dir: string,
    config: RecorderConfig,
    state: RecorderState | undefined,
    pid: number | undefined,
  ): boolean {
    stopOrphanFfmpeg(config, state);
    const windowOpen = Date.now() < localWindow(config).end;
    recordRelaunch(dir, pid, windowOpen);
    try {
      this.spawnRecorderSync(dir);
      return true;
    } catch (error) {
      fs.appendFileSync(
        path.join(dir, INSTANCE_FILES.log),
        `${new Date().toISOString()} server: could not start the recorder again: ${(error as Error).message}\n`,
      );
      return false;
    }
  }

  private view(
    config: RecorderConfig,
    state: RecorderState | undefined,
    instanceState: InstanceState,
    active: boolean,
  ): ProviderInstance {
    const outcome = state?.outcome;
    return {
      providerInstanceId: config.instanceId,
      launchId: config.instanceId,
      name: config.name,
      state: instanceState,
      stateReason: outcome?.reason ?? null,
      instanceType: INSTANCE_TYPE,
      config: {
        url: config.url,
        duration: config.duration,
        width: config.width,
        height: config.height,
        mosque_id: config.mosqueId,
        method: config.method,
      },
      jobId: config.jobId,
      imageId: config.imageId,
      mediaFlowing: Boolean(state?.firstMediaAt),
      recording: {
        status: active || !outcome ? 'recording' : outcome.status,
        bytes: state?.bytes ?? 0,
        mediaSeconds: state ? state.mediaSeconds : null,
        // In an s3 store the recording is its key there; the local file is only where it is joined.
        filePath: config.delivery?.mediaKey ?? config.outputPath,
        reason: outcome?.reason ?? null,
        expectedSeconds: state?.coverage?.expectedSeconds ?? null,
        coveredSeconds: state?.coverage?.coveredSeconds ?? null,
        gaps: state?.coverage?.gaps ?? [],
        reconnects: state?.coverage?.reconnects ?? 0,
        // The recorder measures its coverage as it saves its state: a hole reaching this is still open.
        measuredUntil:
          state?.measuredUntil ??
          (state ? new Date(Date.parse(state.updatedAt) + (config.clockOffsetMs ?? 0)).toISOString() : undefined),
        relaunches: state?.relaunches ?? 0,
        resumePoint: state?.resumePoint ?? null,
        content: state?.content ?? null,
        stoppedByOperator: state?.stopCause === 'operator',
      },
    };
  }

  private launched(launchId: string, instance: ProviderInstance): Omit<LaunchedInstance, 'existing'> {
    return {
      launchId,
      providerInstanceId: instance.providerInstanceId,
      name: instance.name,
      state: instance.state,
      instanceType: INSTANCE_TYPE,
      imageId: instance.imageId,
      filePath: instance.recording?.filePath ?? null,
    };
  }

  private recorderPid(dir: string): number | undefined {
    return readPidFile(path.join(dir, INSTANCE_FILES.pid));
  }

  /** Records which launch owns an idempotency key (first writer wins); returns the owner. */
  private claim(key: string, launchId: string): string {
    const keys = path.join(this.instancesDir, '.keys');
    fs.mkdirSync(keys, { recursive: true });
    const file = path.join(keys, crypto.createHash('sha256').update(key).digest('hex').slice(0, 40));
    try {
      fs.writeFileSync(file, launchId, { flag: 'wx' });
      return launchId;
    } catch {
      return fs.readFileSync(file, 'utf8').trim() || launchId;
    }
  }

  /** DATA_DIR/recordings/<mosque or adhoc>/<timestamp>.mp4, created empty so two launches never share a name. */
  private reserveOutputFile(mosqueId: string | null, launchId: string): string {
    const folder = path.join(this.recordingsDir, mosqueId ?? 'adhoc');
    fs.mkdirSync(folder, { recursive: true });
    const stamp = this.options.clock
      .now()
      .toISOString()
      .replace(/[-:]/g, '')
      .replace(/\.\d+Z$/, 'Z');
    for (const name of [`${stamp}.mp4`, `${stamp}-${launchId.slice(-6)}.mp4`, `${stamp}-${launchId}.mp4`]) {
      const file = path.join(folder, name);
      try {
        fs.closeSync(fs.openSync(file, 'wx'));
        return file;
      } catch {
        // taken: try the next name
      }
    }
    throw new ProviderError('failed', `Could not reserve a recording file in ${folder}`);
  }
}
