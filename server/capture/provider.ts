import type { AmiState } from '../../contract/ami';
import type { ContentSummary } from '../../recorder/protocol';
import type {
  CaptureProviderKind,
  InstanceState,
  LaunchConfig,
  RecordingGap,
  RecordingStatus,
} from '../../contract/instances';

import type { ContinuingFrom, ResumePoint } from '../../recorder/recorder-state';

export type { LaunchConfig } from '../../contract/instances';
export type { ContinuingFrom, ResumePoint } from '../../recorder/recorder-state';

/**
 * The only way the rest of the server starts, stops and inspects recorders (docs/architecture.md, "Capture").
 * Two drivers implement it (local processes, EC2); the fleet in modules/instances wraps the configured
 * driver with the same interface and records every launch, so the scheduler and monitoring use
 * `ctx.capture` without knowing which is behind it.
 */
export interface CaptureProvider {
  readonly kind: CaptureProviderKind;
  /**
   * What this driver can see: `local:<host>:<data dir>` or `aws:<region>`. Instances and images of
   * another scope (another server's recorders, another region) are left alone, never marked vanished.
   */
  readonly scope: string;
  /** How often the fleet should reconcile its table from `list()`. */
  readonly reconcileIntervalMs: number;
  /**
   * True when the driver itself starts again a recorder that dies inside its window (the local driver
   * watches its processes). When false (EC2 and other remote fleets, where the server only learns of
   * an end by listing), the fleet's reconcile pass relaunches it (modules/instances/relaunch.ts).
   */
  readonly supervisesRecorders: boolean;
  /**
   * Seconds a recorder needs from its launch until it can record (CAPTURE_LEAD_SECONDS: boot and
   * installs on EC2). Scheduled and future launches start this long before their window, and a
   * recorder that dies is not replaced when less than this is left of its window.
   */
  readonly leadSeconds: number;
  launch(config: LaunchConfig, options?: LaunchOptions): Promise<LaunchedInstance>;
  /**
   * Asks the recorder to stop and finish its file; the instance goes stopping, then terminated.
   * `launchId` names the recording on an instance that several share (only its recorder stops).
   */
  terminate(instanceId: string, options?: { reason?: string; launchId?: string }): Promise<void>;
  /** Every instance the provider knows (active and ended), read from the provider itself, not from memory. */
  list(): Promise<ProviderInstance[]>;
  /** The last `lines` lines of the instance's log, oldest first. */
  logs(instanceId: string, lines: number): Promise<string[]>;
  createImage(request: CreateImageRequest): Promise<ProviderImage>;
  listImages(): Promise<ProviderImage[]>;
  deleteImage(imageId: string): Promise<void>;
  health(): Promise<ProviderHealth>;
  /**
   * The recorder's own result for an ended instance whose reading was provisional (see
   * ProviderRecording.provisional), when it has reached the store since; undefined while it has not.
   */
  lateResult?(instanceId: string, launchId?: string): Promise<ProviderRecording | undefined>;
  /**
   * What the account lets this fleet run, for the pre-flight of a wave (modules/instances/capacity.ts);
   * absent on drivers without such a limit (local processes).
   */
  accountLimits?(): Promise<AccountLimits>;
  /** Stops background work; recorders keep running (a restarted server re-adopts them). */
  close?(): Promise<void>;
  /**
   * The resident memory of each of its recorders running on this machine, measured now (the local
   * driver; a remote fleet's recorders are not measured from here).
   */
  recorderMemory?(): RecorderMemory[];
}

export interface RecorderMemory {
  instanceId: string;
  residentBytes: number;
}

export interface AccountLimits {
  /** Machines the account may run at once, as the provider reports it; null when it does not say. */
  maxInstances: number | null;
  /** Where maxInstances comes from, for the alarm ("EC2 max-instances"). */
  source: string;
  /** Machines pending or running in the account now (every one counts against its limit, ours or not). */
  running: number;
  /** The type a launch tries first, and its vCPUs (null when unknown). */
  instanceType: string;
  vcpusPerMachine: number | null;
}

export interface LaunchOptions {
  /** Same key, same instance: a retried launch never starts a second recorder. Defaults to jobId, else launchId. */
  idempotencyKey?: string;
  /** The scheduler job that asked for this recording, if any. */
  jobId?: string | null;
  /** The fleet's id for the instance; drivers name and tag their resources with it. Generated when absent. */
  launchId?: string;
  /** The fleet's id for the recording this launch makes (tagged on EC2). */
  recordingId?: string;
  name?: string;
  /** Image to start from; default: the configured image, else the latest available one. */
  imageId?: string;
  /** The recorder replaces one that died inside its window (relaunch.ts): it carries on where that one's delivery ended. */
  continues?: boolean;
  /**
   * The recorder continues on this host a recording whose server was lost with its host
   * (instances/continuation.ts): where that one's recorder stopped, as its server last reported.
   */
  continuing?: ContinuingFrom;
  /** Seconds without media progress before the watchdog ends a connection (default: the driver's). */
  stallTimeoutSeconds?: number;
  /**
   * The recording window (ISO UTC): the recorder keeps trying until windowEnd. The scheduler passes its
   * job's recording_start and recording_end; without them the window is launch time + duration.
   */
  windowStart?: string;
  windowEnd?: string;
  /** `host:port` pairs the recorder may reach though internal: the server's own demo stream. */
  trustedHosts?: string[];
}

/** The window a launch records: the scheduler's, else from its start_at (or `now`) for the requested duration. */
export function recordingWindow(
  config: LaunchConfig,
  options: LaunchOptions,
  now: Date,
): { windowStart: string; windowEnd: string } {
  if (options.windowStart && options.windowEnd)
    return { windowStart: options.windowStart, windowEnd: options.windowEnd };
  const start = config.start_at ? new Date(config.start_at) : now;
  return {
    windowStart: start.toISOString(),
    windowEnd: new Date(start.getTime() + config.duration * 1000).toISOString(),
  };
}

export interface LaunchedInstance {
  launchId: string;
  providerInstanceId: string;
  name: string;
  state: InstanceState;
  instanceType: string;
  imageId: string | null;
  /** Where the recording file is written, when it is on this machine. */
  filePath: string | null;
  /** True when the idempotency key named an instance launched before: nothing new was started. */
  existing: boolean;
}

export interface ProviderRecording {
  status: RecordingStatus;
  bytes: number;
  /** Seconds of media written so far, when known. */
  mediaSeconds: number | null;
  filePath: string | null;
  reason: string | null;
  /** The window's length, what the media covers of it, its holes and reconnections, when known. */
  expectedSeconds?: number | null;
  coveredSeconds?: number | null;
  gaps?: RecordingGap[];
  reconnects?: number;
  /**
   * The instant (ISO UTC) its coverage and gaps are measured up to (its end, or the reading's time
   * while it records). A relaunched recording joins its runs' coverage by it; absent, the time the
   * server read it is assumed.
   */
  measuredUntil?: string;
  /** Times the recorder was started again after it died inside its window. */
  relaunches?: number;
  /** An HLS capture's last segment kept (local recorders): where another host's recorder would go on. */
  resumePoint?: ResumePoint | null;
  /** What the recorder measured of the content: the conditions going on, loudness, silence. */
  content?: ContentSummary | null;
  /** Ended by an operator's terminate: what is missing was asked for, not a fault to alarm about. */
  stoppedByOperator?: boolean;
  /**
   * Judged without the recorder's own result (an ended machine whose result was not in the store):
   * the driver's `lateResult` may still bring it.
   */
  provisional?: boolean;
}

export interface ProviderInstance {
  providerInstanceId: string;
  /** The fleet's id, when the instance carries it (local folder name, EC2 tag). */
  launchId: string | null;
  name: string;
  state: InstanceState;
  stateReason: string | null;
  instanceType: string;
  /** What it records, so an instance the fleet has no row for (an orphan) can be adopted. */
  config: LaunchConfig | null;
  jobId: string | null;
  imageId: string | null;
  /** True once media has flowed (local) or the machine is up (aws). */
  mediaFlowing: boolean;
  recording: ProviderRecording | null;
}

export interface CreateImageRequest {
  /** Provider instance id of the source instance. */
  instanceId: string;
  name: string;
  description: string;
  version: string;
  tags: Record<string, string>;
}

export interface ProviderImage {
  imageId: string;
  name: string;
  description: string;
  version: string;
  state: AmiState;
  sizeGb: number;
  createdAt: string;
  tags: Record<string, string>;
  sourceInstanceId: string | null;
}

export type HealthStatus = 'operational' | 'degraded' | 'down';

export interface ProviderHealth {
  provider: CaptureProviderKind;
  status: HealthStatus;
  detail: string;
  latencyMs: number;
}

/** A provider failure with a reason fit for the operator; the HTTP layer maps `kind` to a status. */
export class ProviderError extends Error {
  constructor(
    readonly kind: 'not_found' | 'conflict' | 'invalid' | 'unavailable' | 'failed',
    message: string,
  ) {
    super(message);
    this.name = 'ProviderError';
  }
}

/**
 * A launch refused because the fleet is at its cap (AWS_MAX_INSTANCES): 503, like any launch EC2 has no
 * room for (the scheduler retries it), and the fleet raises its fleet_capacity alarm.
 */
export class InstanceCapError extends ProviderError {
  constructor(
    readonly max: number,
    readonly running: number,
  ) {
    super(
      'unavailable',
      `Launch refused: ${running} recorder machines already run and AWS_MAX_INSTANCES is ${max}; raise AWS_MAX_INSTANCES or wait for machines to end`,
    );
    this.name = 'InstanceCapError';
  }
}
