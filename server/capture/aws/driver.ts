import crypto from 'node:crypto';
import type * as Ec2Sdk from '@aws-sdk/client-ec2';
import type { EC2Client, Image, Instance as Ec2Instance, Tag } from '@aws-sdk/client-ec2';
import type { AmiState } from '../../../contract/ami';
import type { InstanceState } from '../../../contract/instances';
import type { Clock } from '../../lib/clock';
import { mapLimited } from '../../lib/map-limited';
import { newId } from '../ids';
import {
  type AccountLimits,
  InstanceCapError,
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
  type ProviderRecording,
} from '../provider';
import {
  DEFAULT_RECORDER_SETTINGS,
  INSTANCE_FILES,
  STATE_FORMAT_VERSION,
  type RecorderState,
} from '../../../recorder/protocol';
import { latestImage } from '../versions';
import { encryptedRoot, METADATA_OPTIONS, SPOT_MARKET } from './run-settings';
import { awsError, isCapacityError, withoutCapacityRetries } from './errors';
import { LiveReports, type LiveReportWarn, type ReadIfChanged } from './live-report';
import type { DeliveryRequest } from '../../storage/delivery';
import type { RecorderDelivery } from '../../../recorder/protocol';
import type { RecorderConfig } from '../../../recorder/protocol';
import type { RecorderRuntimeLink } from './recorder-bundle';
import { placeFor, placeKeys, joinUntilFor, SHARED_TAG, slotsOf, slotTagValue, type SlotTag } from './shared-instance';
import {
  buildUserData,
  INSTANCE_PATHS,
  remoteRecorderConfig,
  resultMarker,
  slotScript,
  type UserDataPaths,
} from './user-data';

/** Boot (30-60 s) and the user-data's installs (a minute or two), with room to spare. */
export const DEFAULT_AWS_LEAD_SECONDS = 300;
export const MANAGED_BY = { key: 'managed-by', value: 'capture-command-center' } as const;
const TAG = {
  name: 'Name',
  mosque: 'mosque_id',
  recording: 'recording-id',
  launch: 'launch-id',
  job: 'job-id',
  key: 'idempotency-key',
  urlHash: 'capture-url-sha256',
  version: 'version',
  source: 'source-instance',
  file: 'capture-file',
} as const;

const STATES: Record<string, InstanceState> = {
  pending: 'pending',
  running: 'running',
  'shutting-down': 'stopping',
  stopping: 'stopping',
  stopped: 'stopped',
  terminated: 'terminated',
};

export interface AwsProviderOptions {
  region: string;
  endpoint?: string;
  imageId?: string;
  instanceType: string;
  /** AWS_INSTANCE_TYPES: the types tried in turn when EC2 has no capacity for one (default: instanceType alone). */
  instanceTypes?: string[];
  /** AWS_SUBNET_IDS: each launch starts at the next (spreading AZs) and tries the others on a capacity error. */
  subnetIds?: string[];
  securityGroupId?: string;
  clock: Clock;
  /** CAPTURE_LEAD_SECONDS (default DEFAULT_AWS_LEAD_SECONDS). */
  leadSeconds?: number;
  /** AWS_EXTRA_TAGS: the operator's tags, on instances and volumes beside the server's own. */
  extraTags?: Record<string, string>;
  /** AWS_MAX_INSTANCES: no new machine while this many of ours are pending or running (unset: no cap). */
  maxInstances?: number;
  /** AWS_CAPACITY: spot first (every pair), then on-demand; default on-demand only. */
  capacity?: 'on-demand' | 'spot';
  /** AWS_VOLUME_SIZE_GB: every machine's root volume; default the image's size. */
  volumeSizeGb?: number;
  stallTimeoutSeconds?: number;
  /**
   * CONTENT_ALARM_SECONDS, passed on to each recorder: it samples the picture by it, and (with a store)
   * ships its live report (live-report.ts) at once when a condition starts, ends or lasts this long,
   * else every LIVE_REPORT_SECONDS.
   */
  contentAlarmSeconds?: number;
  /** ALLOW_PRIVATE_STREAM_HOSTS: recorders may reach internal addresses (their egress guard checks nothing). */
  allowPrivateStreamHosts?: boolean;
  /** Attempts per call, retries included (the SDK backs off on throttling); default the SDK's (AWS_MAX_ATTEMPTS, else 3). */
  maxAttempts?: number;
  /** AWS_INSTANCE_PROFILE: recorders run with this role and upload with it; unset, each gets a POST policy. */
  instanceProfile?: string;
  /** RECORDINGS_PER_INSTANCE (default 1): recordings opening close together share an instance, up to this many (needs the store). */
  recordingsPerInstance?: number;
  /** Where instances work (default INSTANCE_PATHS); a test that runs instances in a sandbox moves them there. */
  instancePaths?: UserDataPaths;
  /**
   * An s3 recordings store: how recorders deliver to it, fetch their runtime (a pre-signed link), and
   * where the result of a machine launched at `launchedAt` is read back (undefined: none yet).
   */
  store?: {
    delivery: (request: DeliveryRequest) => Promise<RecorderDelivery | null>;
    runtimeLink: (seconds: number) => Promise<RecorderRuntimeLink>;
    /** A pre-signed link to read one object of the store (a key below its prefix). */
    readLink: (key: string, seconds: number) => Promise<string>;
    result: (mediaKey: string, launchedAt: Date) => Promise<ProviderRecording | undefined>;
    /** Puts a text object (a key below its prefix); with `onlyIfAbsent`, false when one was there. */
    put: (key: string, text: string, onlyIfAbsent?: boolean) => Promise<boolean>;
    /** Reads a small object unless its ETag is still the one given: the recorders' live reports. */
    readIfChanged: ReadIfChanged;
  };
  /** Where a live report that cannot be read or parsed is told (the server's log; default a process warning). */
  log?: { warn: LiveReportWarn };
}

/**
 * Between two live reports of a recorder whose content did not change: 120 PUTs per recording-hour
 * (docs/operations/content-assurance.md), its progress never more than this old on the console.
 */
export const LIVE_REPORT_SECONDS = 30;
/**
 * A live report older than this while its window is open: its recorder stopped reporting. Three
 * periods: a report that failed to upload is shipped again at the recorder's next state write (5 s),
 * and the server reads it at its next pass (10 s), so a live recorder is never judged silent.
 */
export const LIVE_REPORT_STALE_MS = 3 * LIVE_REPORT_SECONDS * 1000;
/** Instances viewed at once in a pass (their live reports read, an ended one's result): well under the SDK's 50 sockets. */
const VIEW_CONCURRENCY = 16;

/** What a recorder of one launch is: its config (without delivery yet), the recording and its key. */
interface RecorderLaunch {
  config: Omit<RecorderConfig, 'ffmpegPath' | 'outputPath' | 'logPath'>;
  fileName: string;
  recordingId: string;
  launchId: string;
  key: string;
  name: string;
  imageId: string;
  continues: boolean;
}

/** A replacement machine fetches its predecessor's ledger as it boots: an hour is plenty. */
const LEDGER_LINK_SECONDS = 3600;
const tagsOf = (tags: Tag[] | undefined): Record<string, string> =>
  Object.fromEntries((tags ?? []).filter((t) => t.Key).map((t) => [t.Key as string, t.Value ?? '']));
const toTags = (record: Record<string, string>): Tag[] =>
  Object.entries(record).map(([Key, Value]) => ({ Key, Value }));
const RECORDING: ProviderRecording = {
  status: 'recording',
  bytes: 0,
  mediaSeconds: null,
  filePath: null,
  reason: null,
};
const hash = (text: string) => crypto.createHash('sha256').update(text).digest('hex');

/**
 * The aws driver: one EC2 instance per recording, booted from the recorder image with user-data that
 * runs the recorder. Everything it creates carries managed-by=capture-command-center, and state is
 * read back from EC2 by that tag (DescribeInstances), so instances launched by any server are found.
 */
/** The EC2 SDK module and one client of it. */
interface Ec2 {
  sdk: typeof Ec2Sdk;
  client: EC2Client;
}

export class AwsCaptureProvider implements CaptureProvider {
  readonly kind = 'aws' as const;
  /** EC2 rate-limits Describe calls: reconcile every 10 s rather than every second. */
  readonly reconcileIntervalMs = 10_000;
  /** A machine that dies takes its recorder with it: the fleet's reconcile pass launches a new one. */
  readonly supervisesRecorders = false;
  readonly leadSeconds: number;
  readonly scope: string;
  /** The SDK and its client, loaded on the first EC2 call: a server on the local driver never loads them. */
  private ec2: Promise<Ec2> | undefined;
  /** Results of ended instances (read once from their console output; they never change). */
  private readonly endedResults = new Map<string, ProviderRecording>();
  /** Launches so far: each starts at the next subnet. */
  private launchCount = 0;
  /** Each recorder image as DescribeImages told it (its root device), asked once per image. */
  private readonly images = new Map<string, Promise<Image | undefined>>();
  /** The launch that last joined or opened a shared instance; the next one waits for it. */
  private sharing: Promise<unknown> = Promise.resolve();
  /** With AWS_MAX_INSTANCES, the last new machine's count-and-run: the next one counts after it. */
  private capped: Promise<unknown> = Promise.resolve();
  /** The running recordings' live reports, read at each pass (with a store). */
  private readonly liveReports: LiveReports | undefined;
  /** The media keys of the recordings whose live report this pass read: the others' are forgotten. */
  private readonly livePass = new Set<string>();

  constructor(private readonly options: AwsProviderOptions) {
    this.scope = `aws:${options.region}`;
    this.leadSeconds = options.leadSeconds ?? DEFAULT_AWS_LEAD_SECONDS;
    const log = options.log;
    this.liveReports =
      options.store &&
      new LiveReports(
        options.store.readIfChanged,
        (detail, message) => (log ? log.warn(detail, message) : process.emitWarning(message)),
        options.clock,
        LIVE_REPORT_STALE_MS,
      );
  }

  private connect(): Promise<Ec2> {
    const settings = {
      region: this.options.region,
      endpoint: this.options.endpoint,
      ...(this.options.maxAttempts ? { maxAttempts: this.options.maxAttempts } : {}),
    };
    this.ec2 ??= import('@aws-sdk/client-ec2').then(async (sdk) => {
      // The SDK's own retries, except of a place without capacity (runInstance tries the next one).
      const plain = new sdk.EC2Client(settings);
      const retryStrategy = withoutCapacityRetries(await plain.config.retryStrategy());
      plain.destroy();
      return { sdk, client: new sdk.EC2Client({ ...settings, retryStrategy }) };
    });
    return this.ec2;
  }

  private async call<T>(action: string, run: (ec2: Ec2) => Promise<T>): Promise<T> {
    try {
      return await run(await this.connect());
    } catch (error) {
      throw awsError(error, action);
    }
  }

  async launch(config: LaunchConfig, options: LaunchOptions = {}): Promise<LaunchedInstance> {
    const launchId = options.launchId ?? newId('cap');
    const key = hash(options.idempotencyKey ?? options.jobId ?? launchId).slice(0, 48);
    const earlier = await this.findByTag(TAG.key, key);
    if (earlier) return { ...this.launched(earlier, launchId), existing: true };

    const imageId = options.imageId ?? this.options.imageId ?? latestImage(await this.listImages())?.imageId;
    if (!imageId)
      throw new ProviderError('unavailable', 'No recorder image to launch: set AWS_IMAGE_ID or create an AMI first');
    const name = options.name ?? `capture-${config.mosque_id ?? 'adhoc'}-${launchId.slice(-6)}`;
    const now = this.options.clock.now();
    const window = recordingWindow(config, options, now);
    // Named by its window's start: a machine relaunched for the same recording delivers the same file.
    const stamp = window.windowStart.replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z');
    const recorder: RecorderLaunch = {
      config: {
        version: STATE_FORMAT_VERSION,
        instanceId: launchId,
        name,
        url: config.url,
        duration: config.duration,
        width: config.width,
        height: config.height,
        mosqueId: config.mosque_id,
        method: config.method,
        jobId: options.jobId ?? null,
        idempotencyKey: key,
        recordingId: options.recordingId ?? null,
        imageId,
        settings: {
          ...DEFAULT_RECORDER_SETTINGS,
          ...(this.options.stallTimeoutSeconds ? { stallTimeoutSeconds: this.options.stallTimeoutSeconds } : {}),
          ...(options.stallTimeoutSeconds ? { stallTimeoutSeconds: options.stallTimeoutSeconds } : {}),
        },
        ...(this.options.contentAlarmSeconds ? { contentAlarmSeconds: this.options.contentAlarmSeconds } : {}),
        ...window,
        // The demo stream is on the server's loopback, never reachable from EC2: no trusted hosts there.
        egress: { allowPrivate: this.options.allowPrivateStreamHosts ?? false, trustedHosts: [] },
        // EC2 machines keep their own time (NTP); the window is taken as it is.
        clockOffsetMs: 0,
        ...(this.options.store ? { liveReport: { everySeconds: LIVE_REPORT_SECONDS } } : {}),
        createdAt: now.toISOString(),
      },
      fileName: `${stamp}.mp4`,
      recordingId: options.recordingId ?? launchId,
      launchId,
      key,
      name,
      imageId,
      continues: options.continues ?? false,
    };
    const tags: Record<string, string> = {
      ...this.options.extraTags,
      [TAG.name]: name,
      [MANAGED_BY.key]: MANAGED_BY.value,
      [TAG.mosque]: config.mosque_id ?? '',
      [TAG.recording]: recorder.recordingId,
      [TAG.launch]: launchId,
      [TAG.key]: key,
      // Never the URL itself: stream URLs carry tokens, and tags are readable by anyone who may list instances.
      [TAG.urlHash]: hash(config.url).slice(0, 32),
      ...(options.jobId ? { [TAG.job]: options.jobId.slice(0, 256) } : {}),
    };
    if ((this.options.recordingsPerInstance ?? 1) > 1 && this.options.store) {
      // One launch at a time joins or opens a shared instance, so this server's launches fill each one in turn.
      const turn = this.sharing.then(() => this.launchShared(recorder, tags));
      this.sharing = turn.catch(() => undefined);
      return turn;
    }
    const prepared = await this.prepareRecorder(recorder, 1);
    // Where its result is read back (metadata.json beside the file): ids and dates only, well under 256 characters.
    if (prepared.filePath) tags[TAG.file] = prepared.filePath;
    return this.runInstance(
      recorder,
      tags,
      buildUserData(prepared.config, { runtime: prepared.runtime, ledger: prepared.ledger }),
      prepared.filePath,
    );
  }

  /**
   * Runs one instance for `recorder` with `userData`. With AWS_MAX_INSTANCES, this server's new machines
   * are counted and started one at a time, so a wave of launches cannot overshoot the cap between them.
   */
  private runInstance(
    recorder: RecorderLaunch,
    tags: Record<string, string>,
    userData: string,
    filePath: string | null,
  ): Promise<LaunchedInstance> {
    const max = this.options.maxInstances;
    if (!max) return this.runInstanceNow(recorder, tags, userData, filePath);
    const turn = this.capped.then(async () => {
      const running = await this.describe([
        { Name: `tag:${MANAGED_BY.key}`, Values: [MANAGED_BY.value] },
        { Name: 'instance-state-name', Values: ['pending', 'running'] },
      ]);
      if (running.length >= max) throw new InstanceCapError(max, running.length);
      return this.runInstanceNow(recorder, tags, userData, filePath);
    });
    this.capped = turn.catch(() => undefined);
    return turn;
  }

  private async runInstanceNow(
    recorder: RecorderLaunch,
    tags: Record<string, string>,
    userData: string,
    filePath: string | null,
  ): Promise<LaunchedInstance> {
    const profile = this.options.instanceProfile;
    const root = encryptedRoot(await this.image(recorder.imageId), this.options.volumeSizeGb);
    const { sdk, client } = await this.connect();
    const places = this.places();
    let result: Ec2Sdk.RunInstancesCommandOutput | undefined;
    for (const [index, place] of places.entries()) {
      try {
        result = await client.send(
          new sdk.RunInstancesCommand({
            ImageId: recorder.imageId,
            InstanceType: place.type as never,
            MinCount: 1,
            MaxCount: 1,
            // A token of its own per place: a token EC2 saw with other parameters would be refused.
            ClientToken: index === 0 ? `ccc-${recorder.key}` : `ccc-${recorder.key}-${index}`,
            UserData: Buffer.from(userData).toString('base64'),
            InstanceInitiatedShutdownBehavior: 'terminate',
            MetadataOptions: METADATA_OPTIONS,
            BlockDeviceMappings: root,
            ...(place.spot ? { InstanceMarketOptions: SPOT_MARKET } : {}),
            ...(profile
              ? { IamInstanceProfile: profile.startsWith('arn:') ? { Arn: profile } : { Name: profile } }
              : {}),
            ...(place.subnet ? { SubnetId: place.subnet } : {}),
            ...(this.options.securityGroupId ? { SecurityGroupIds: [this.options.securityGroupId] } : {}),
            TagSpecifications: [
              { ResourceType: 'instance', Tags: toTags(tags) },
              {
                ResourceType: 'volume',
                Tags: toTags({
                  ...this.options.extraTags,
                  [MANAGED_BY.key]: MANAGED_BY.value,
                  [TAG.launch]: recorder.launchId,
                }),
              },
            ],
          }),
        );
        break;
      } catch (error) {
        // No room for this type there: the next pair, unless it was the last.
        if (!isCapacityError(error) || index === places.length - 1) throw awsError(error, 'RunInstances');
      }
    }
    const instance = result?.Instances?.[0];
    if (!instance?.InstanceId) throw new ProviderError('failed', 'AWS EC2 RunInstances returned no instance');
    return { ...this.launched(instance, recorder.launchId), filePath, existing: false };
  }

  /**
   * RECORDINGS_PER_INSTANCE > 1 (shared-instance.ts): the place this launch already took (a retry),
   * else the next free place on a live instance whose first window opens close to this one's, else a
   * new instance with this recording in its first place.
   */
  private async launchShared(recorder: RecorderLaunch, tags: Record<string, string>): Promise<LaunchedInstance> {
    const open = await this.describe([
      { Name: `tag:${MANAGED_BY.key}`, Values: [MANAGED_BY.value] },
      { Name: 'tag-key', Values: [SHARED_TAG.slots] },
      { Name: 'instance-state-name', Values: ['pending', 'running'] },
    ]);
    for (const instance of open) {
      const taken = slotsOf(tagsOf(instance.Tags)).find((slot) => slot.key === recorder.key);
      if (taken)
        return {
          ...this.launched(instance, taken.launchId),
          launchId: taken.launchId,
          name: recorder.name,
          filePath: taken.file,
          existing: true,
        };
    }
    const now = this.options.clock.now();
    const windowStart = new Date(recorder.config.windowStart);
    for (const instance of open) {
      const instanceTags = tagsOf(instance.Tags);
      const capacity = Number(instanceTags[SHARED_TAG.slots]);
      for (
        let slot = placeFor(instance, instanceTags, { windowStart, imageId: recorder.imageId, now });
        slot && slot <= capacity;
        slot++
      ) {
        const joined = await this.join(instance, instanceTags, slot, recorder);
        if (joined) return joined;
      }
    }
    const slots = this.options.recordingsPerInstance ?? 1;
    const joinUntil = joinUntilFor(windowStart, now);
    const prepared = await this.prepareRecorder(recorder, 1, joinUntil);
    const [stopLink, nextLink] = await this.links(prepared.linkSeconds, [
      placeKeys(recorder.launchId, 1).stop,
      placeKeys(recorder.launchId, 2).script,
    ]);
    const first = {
      key: recorder.key,
      launchId: recorder.launchId,
      recordingId: recorder.recordingId,
      windowEnd: new Date(recorder.config.windowEnd),
      file: prepared.filePath ?? '',
    };
    const sharedTags = {
      ...tags,
      ...(prepared.filePath ? { [TAG.file]: prepared.filePath } : {}),
      [SHARED_TAG.slots]: String(slots),
      [SHARED_TAG.joinUntil]: joinUntil.toISOString(),
      [SHARED_TAG.windowStart]: windowStart.toISOString(),
      [SHARED_TAG.slot(1)]: slotTagValue(first),
    };
    const userData = buildUserData(prepared.config, {
      runtime: prepared.runtime,
      ledger: prepared.ledger,
      shared: { slots, joinUntil, nextLink, slot: 1, stopLink },
    });
    return this.runInstance(recorder, sharedTags, userData, prepared.filePath);
  }

  /**
   * Takes place `slot` of a shared instance for `recorder`: its script goes into the store only if no
   * other launch put one there first (undefined then: the caller tries the next place), then the
   * instance is tagged with the place. Were tagging to fail, the recorder is asked to stop at once.
   */
  private async join(
    instance: Ec2Instance,
    instanceTags: Record<string, string>,
    slot: number,
    recorder: RecorderLaunch,
  ): Promise<LaunchedInstance | undefined> {
    const store = this.options.store!;
    const first = instanceTags[TAG.launch] ?? '';
    const capacity = Number(instanceTags[SHARED_TAG.slots]);
    const keys = placeKeys(first, slot);
    const prepared = await this.prepareRecorder(recorder, slot, new Date(instanceTags[SHARED_TAG.joinUntil] ?? 0));
    const [stopLink, nextLink] = await this.links(prepared.linkSeconds, [
      keys.stop,
      ...(slot < capacity ? [placeKeys(first, slot + 1).script] : []),
    ]);
    const script = slotScript(prepared.config, {
      ledger: prepared.ledger,
      shared: { slot, stopLink },
      nextLink: nextLink ?? null,
    });
    if (!(await store.put(keys.script, script, true))) return undefined;
    const place = {
      key: recorder.key,
      launchId: recorder.launchId,
      recordingId: recorder.recordingId,
      windowEnd: new Date(recorder.config.windowEnd),
      file: prepared.filePath ?? '',
    };
    try {
      await this.tag(instance.InstanceId ?? '', { [SHARED_TAG.slot(slot)]: slotTagValue(place) });
    } catch (error) {
      await store.put(keys.stop, 'The launch could not record its place on the instance').catch(() => undefined);
      throw error;
    }
    return {
      ...this.launched(instance, recorder.launchId),
      launchId: recorder.launchId,
      name: recorder.name,
      filePath: prepared.filePath,
      existing: false,
    };
  }

  private async tag(instanceId: string, tags: Record<string, string>): Promise<void> {
    await this.call('CreateTags', ({ sdk, client }) =>
      client.send(new sdk.CreateTagsCommand({ Resources: [instanceId], Tags: toTags(tags) })),
    );
  }

  private links(seconds: number, keys: string[]): Promise<string[]> {
    return Promise.all(keys.map((key) => this.options.store!.readLink(key, seconds)));
  }

  /**
   * A recorder's config for place `slot` and what its script needs: with an s3 store it delivers there
   * (with the instance's role, or a POST policy for its recording) and fetches the runtime by a
   * pre-signed link (and, replacing a recorder that died, the segment ledger that one shipped); else it
   * runs the image's runtime and its recording stays on the instance. Links live until the delivery
   * expires, and at least until `joinUntil` (a shared instance looks for new places until then).
   */
  private async prepareRecorder(recorder: RecorderLaunch, slot: number, joinUntil?: Date) {
    const store = this.options.store;
    try {
      const config = remoteRecorderConfig(
        recorder.config,
        recorder.fileName,
        this.options.instancePaths ?? INSTANCE_PATHS,
        slot,
      );
      const via = this.options.instanceProfile ? 'role' : 'presigned-post';
      const { windowStart, windowEnd, mosqueId } = config;
      const delivery = store
        ? await store.delivery({
            recordingId: recorder.recordingId,
            mosqueId,
            windowStart,
            windowEnd,
            fileName: recorder.fileName,
            via,
          })
        : null;
      const now = this.options.clock.now().getTime();
      const seconds = delivery ? Math.ceil((Date.parse(delivery.expiresAt) - now) / 1000) : 0;
      const linkSeconds = Math.max(seconds, joinUntil ? Math.ceil((joinUntil.getTime() - now) / 1000) + 600 : 0);
      const runtime = store && delivery ? await store.runtimeLink(seconds) : null;
      const prefix = delivery ? delivery.mediaKey.slice(0, delivery.mediaKey.lastIndexOf('/') + 1) : '';
      const ledger =
        store && delivery && recorder.continues
          ? await store.readLink(`${prefix}${INSTANCE_FILES.ledger}`, LEDGER_LINK_SECONDS)
          : null;
      return { config: { ...config, delivery }, runtime, ledger, filePath: delivery?.mediaKey ?? null, linkSeconds };
    } catch (error) {
      throw new ProviderError('unavailable', `Could not prepare the recorder: ${(error as Error).message}`);
    }
  }

  /**
   * Ends the instance; on a shared one, only the recorder of `launchId`: a stop object for its place
   * (the instance polls for it) and a tag, and the instance itself once none of its recorders goes on.
   */
  async terminate(instanceId: string, options: { launchId?: string } = {}): Promise<void> {
    const [instance] =
      options.launchId && this.options.store
        ? await this.describe([{ Name: 'instance-id', Values: [instanceId] }])
        : [];
    const tags = tagsOf(instance?.Tags);
    const slots = slotsOf(tags);
    const place = slots.find((slot) => slot.launchId === options.launchId);
    if (instance && place) {
      await this.options.store!.put(
        placeKeys(tags[TAG.launch] ?? '', place.slot).stop,
        `Stopped by the operator at ${this.options.clock.now().toISOString()}`,
      );
      await this.tag(instanceId, { [SHARED_TAG.stop(place.slot)]: this.options.clock.now().toISOString() });
      const goingOn = await Promise.all(
        slots
          .filter((slot) => slot !== place && !tags[SHARED_TAG.stop(slot.slot)])
          .map(async (slot) => !(await this.placeResult(instance, slot))),
      );
      if (goingOn.some(Boolean)) return;
    }
    await this.call('TerminateInstances', ({ sdk, client }) =>
      client.send(new sdk.TerminateInstancesCommand({ InstanceIds: [instanceId] })),
    );
  }

  async list(): Promise<ProviderInstance[]> {
    this.livePass.clear();
    const found = await this.describe([{ Name: `tag:${MANAGED_BY.key}`, Values: [MANAGED_BY.value] }]);
    // Each running recording's live report is a GET: a thousand of them one after the other would outlast the pass.
    const views = await mapLimited(found, VIEW_CONCURRENCY, async (ec2) => {
      const tags = tagsOf(ec2.Tags);
      if (!tags[SHARED_TAG.slots]) return [await this.view(ec2)];
      const places: ProviderInstance[] = [];
      for (const slot of slotsOf(tags)) places.push(await this.placeView(ec2, tags, slot));
      return places;
    });
    this.liveReports?.keepOnly(this.livePass);
    return views.flat();
  }

  async logs(instanceId: string, lines: number): Promise<string[]> {
    const output = await this.call('GetConsoleOutput', ({ sdk, client }) =>
      client.send(new sdk.GetConsoleOutputCommand({ InstanceId: instanceId })),
    );
    const text = output.Output ? Buffer.from(output.Output, 'base64').toString('utf8') : '';
    const all = text.split(/\r?\n/);
    if (all.at(-1) === '') all.pop();
    return all.slice(-lines);
  }

  async createImage(request: CreateImageRequest): Promise<ProviderImage> {
    const tags = {
      ...request.tags,
      [MANAGED_BY.key]: MANAGED_BY.value,
      [TAG.version]: request.version,
      [TAG.source]: request.instanceId,
      [TAG.name]: request.name,
    };
    const result = await this.call('CreateImage', ({ sdk, client }) =>
      client.send(
        new sdk.CreateImageCommand({
          InstanceId: request.instanceId,
          Name: request.name,
          Description: request.description,
          // The operator is warned that the instance is rebooted: a consistent file system is worth it.
          NoReboot: false,
          TagSpecifications: [{ ResourceType: 'image', Tags: toTags(tags) }],
        }),
      ),
    );
    if (!result.ImageId) throw new ProviderError('failed', 'AWS EC2 CreateImage returned no image id');
    return {
      imageId: result.ImageId,
      name: request.name,
      description: request.description,
      version: request.version,
      state: 'pending',
      sizeGb: 0,
      createdAt: this.options.clock.now().toISOString(),
      tags,
      sourceInstanceId: request.instanceId,
    };
  }

  async listImages(): Promise<ProviderImage[]> {
    const result = await this.call('DescribeImages', ({ sdk, client }) =>
      client.send(
        new sdk.DescribeImagesCommand({
          Owners: ['self'],
          Filters: [{ Name: `tag:${MANAGED_BY.key}`, Values: [MANAGED_BY.value] }],
        }),
      ),
    );
    return (result.Images ?? [])
      .filter((image) => image.ImageId && image.State !== 'deregistered')
      .map((image) => this.toImage(image));
  }

  async deleteImage(imageId: string): Promise<void> {
    const result = await this.call('DescribeImages', ({ sdk, client }) =>
      client.send(new sdk.DescribeImagesCommand({ ImageIds: [imageId], Owners: ['self'] })),
    );
    const image = result.Images?.[0];
    if (!image) throw new ProviderError('not_found', `AMI ${imageId} not found`);
    if (image.State === 'pending')
      throw new ProviderError('conflict', `AMI ${imageId} is still being created; delete it once it is available`);
    const snapshots = (image.BlockDeviceMappings ?? [])
      .map((m) => m.Ebs?.SnapshotId)
      .filter((id): id is string => Boolean(id));
    await this.call('DeregisterImage', ({ sdk, client }) =>
      client.send(new sdk.DeregisterImageCommand({ ImageId: imageId })),
    );
    for (const snapshotId of snapshots) {
      await this.call('DeleteSnapshot', ({ sdk, client }) =>
        client.send(new sdk.DeleteSnapshotCommand({ SnapshotId: snapshotId })),
      );
    }
  }

  async health(): Promise<ProviderHealth> {
    const started = performance.now();
    const done = (status: ProviderHealth['status'], detail: string): ProviderHealth => ({
      provider: 'aws',
      status,
      detail,
      latencyMs: Math.round(performance.now() - started),
    });
    try {
      const { sdk, client } = await this.connect();
      await client.send(
        new sdk.DescribeInstancesCommand({
          MaxResults: 5,
          Filters: [{ Name: `tag:${MANAGED_BY.key}`, Values: [MANAGED_BY.value] }],
        }),
      );
      return done('operational', `EC2 ${this.options.region} reachable`);
    } catch (error) {
      const failure = awsError(error, 'DescribeInstances');
      return done(/throttled|unavailable right now/.test(failure.message) ? 'degraded' : 'down', failure.message);
    }
  }

  /** The image launches start from, as one sentence; throws what is wrong with it (the aws_image health check). */
  async describeRecorderImage(): Promise<string> {
    const configured = this.options.imageId;
    if (!configured) {
      const latest = latestImage(await this.listImages());
      if (!latest)
        throw new ProviderError('unavailable', 'No recorder image to launch: set AWS_IMAGE_ID or create an AMI first');
      return `Latest recorder image ${latest.imageId} (${latest.name}, version ${latest.version})`;
    }
    const image = await this.call('DescribeImages', ({ sdk, client }) =>
      client.send(new sdk.DescribeImagesCommand({ ImageIds: [configured] })),
    ).then((result) => result.Images?.[0]);
    if (!image)
      throw new ProviderError('not_found', `AWS_IMAGE_ID ${configured} does not exist in ${this.options.region}`);
    if (image.State !== 'available')
      throw new ProviderError(
        'unavailable',
        `AWS_IMAGE_ID ${configured} is ${image.State ?? 'in an unknown state'}, not available`,
      );
    return `AWS_IMAGE_ID ${configured} (${image.Name ?? 'unnamed'}) is available`;
  }

  /**
   * The account's instance limit as EC2 tells it (DescribeAccountAttributes max-instances), the machines
   * running in the account, and the vCPUs of the first instance type. Service Quotas' vCPU quota is not
   * read: the server has no Service Quotas client, and moto, the tests' EC2, does not serve it.
   */
  async accountLimits(): Promise<AccountLimits> {
    const instanceType = this.options.instanceTypes?.[0] ?? this.options.instanceType;
    const [attributes, running, types] = await Promise.all([
      this.call('DescribeAccountAttributes', ({ sdk, client }) =>
        client.send(new sdk.DescribeAccountAttributesCommand({})),
      ),
      this.describe([{ Name: 'instance-state-name', Values: ['pending', 'running'] }]),
      this.call('DescribeInstanceTypes', ({ sdk, client }) =>
        client.send(new sdk.DescribeInstanceTypesCommand({ InstanceTypes: [instanceType as never] })),
      ),
    ]);
    const value = attributes.AccountAttributes?.find((a) => a.AttributeName === 'max-instances')?.AttributeValues?.[0]
      ?.AttributeValue;
    return {
      maxInstances: value && Number.isFinite(Number(value)) ? Number(value) : null,
      source: 'EC2 max-instances',
      running: running.length,
      instanceType,
      vcpusPerMachine: types.InstanceTypes?.[0]?.VCpuInfo?.DefaultVCpus ?? null,
    };
  }

  /**
   * Where a launch may go, in the order tried: each instance type in each subnet, the subnets starting
   * at the next one in turn (launches spread over the AZs). No subnets: EC2's default. With
   * AWS_CAPACITY=spot every pair is tried as spot first, then every pair on-demand.
   */
  private places(): { type: string; subnet: string | undefined; spot: boolean }[] {
    const types = this.options.instanceTypes?.length ? this.options.instanceTypes : [this.options.instanceType];
    const subnets = this.options.subnetIds ?? [];
    const first = subnets.length ? this.launchCount++ % subnets.length : 0;
    const turn = subnets.length ? [...subnets.slice(first), ...subnets.slice(0, first)] : [undefined];
    const pairs = types.flatMap((type) => turn.map((subnet) => ({ type, subnet })));
    const markets = this.options.capacity === 'spot' ? [true, false] : [false];
    return markets.flatMap((spot) => pairs.map((pair) => ({ ...pair, spot })));
  }

  /** The image's description, for its root device; a failed look-up is asked again next time. */
  private image(imageId: string): Promise<Image | undefined> {
    let known = this.images.get(imageId);
    if (!known) {
      known = this.call('DescribeImages', ({ sdk, client }) =>
        client.send(new sdk.DescribeImagesCommand({ ImageIds: [imageId] })),
      ).then((result) => result.Images?.[0]);
      known.catch(() => this.images.delete(imageId));
      this.images.set(imageId, known);
    }
    return known;
  }

  private async describe(filters: { Name: string; Values: string[] }[]): Promise<Ec2Instance[]> {
    const instances: Ec2Instance[] = [];
    let nextToken: string | undefined;
    do {
      const page = await this.call('DescribeInstances', ({ sdk, client }) =>
        client.send(new sdk.DescribeInstancesCommand({ Filters: filters, NextToken: nextToken })),
      );
      for (const reservation of page.Reservations ?? []) instances.push(...(reservation.Instances ?? []));
      nextToken = page.NextToken;
    } while (nextToken);
    return instances;
  }

  private async findByTag(key: string, value: string): Promise<Ec2Instance | undefined> {
    const found = await this.describe([
      { Name: `tag:${MANAGED_BY.key}`, Values: [MANAGED_BY.value] },
      { Name: `tag:${key}`, Values: [value] },
    ]);
    return found[0];
  }

  private launched(instance: Ec2Instance, launchId: string): Omit<LaunchedInstance, 'existing'> {
    const tags = tagsOf(instance.Tags);
    return {
      launchId: tags[TAG.launch] ?? launchId,
      providerInstanceId: instance.InstanceId ?? '',
      name: tags[TAG.name] ?? instance.InstanceId ?? '',
      state: STATES[instance.State?.Name ?? ''] ?? 'pending',
      instanceType: instance.InstanceType ?? this.options.instanceType,
      imageId: instance.ImageId ?? null,
      filePath: null,
    };
  }

  /** The instance as the fleet sees it; running, with the live report of its recording (a shared instance's `slot`). */
  private async view(instance: Ec2Instance, slot?: SlotTag): Promise<ProviderInstance> {
    const tags = tagsOf(instance.Tags);
    const state = STATES[instance.State?.Name ?? ''] ?? 'pending';
    const ended = state === 'stopped' || state === 'terminated';
    const id = instance.InstanceId ?? '';
    return {
      providerInstanceId: id,
      launchId: tags[TAG.launch] ?? null,
      name: tags[TAG.name] ?? id,
      state,
      stateReason: ended ? (instance.StateReason?.Message ?? instance.StateTransitionReason ?? null) : null,
      instanceType: instance.InstanceType ?? this.options.instanceType,
      // No tag holds the stream URL: an instance without its row cannot be adopted (the reaper ends it).
      config: null,
      jobId: tags[TAG.job] ?? null,
      imageId: instance.ImageId ?? null,
      mediaFlowing: state === 'running',
      recording: ended
        ? await this.endedRecording(id, instance, tags[TAG.file], resultMarker())
        : state === 'running'
          ? await this.liveRecording(slot?.file ?? tags[TAG.file], slot?.key ?? tags[TAG.key])
          : RECORDING,
    };
  }

  /** A running recording with what its recorder's live report tells: its progress and content (none yet: just recording). */
  private async liveRecording(file: string | undefined, launchKey: string | undefined): Promise<ProviderRecording> {
    if (!file || !launchKey || !this.liveReports) return RECORDING;
    this.livePass.add(file);
    return { ...RECORDING, ...(await this.liveReports.reading(file, launchKey)) };
  }

  /**
   * One recording of a shared instance: ended with its result once that is in the store (its window
   * over, or stopped by the operator) while the others go on; else as the instance is.
   */
  private async placeView(
    instance: Ec2Instance,
    tags: Record<string, string>,
    slot: SlotTag,
  ): Promise<ProviderInstance> {
    const view = await this.view(instance, slot);
    const id = view.providerInstanceId;
    const own = {
      ...view,
      launchId: slot.launchId,
      ...(slot.slot === 1 ? {} : { name: `${view.name} #${slot.slot}`, config: null, jobId: null }),
    };
    if (view.state === 'stopped' || view.state === 'terminated') {
      return {
        ...own,
        recording: await this.endedRecording(`${id}#${slot.slot}`, instance, slot.file, resultMarker(slot.slot)),
      };
    }
    const stopped = Boolean(tags[SHARED_TAG.stop(slot.slot)]);
    const result =
      stopped || this.options.clock.now() >= slot.windowEnd
        ? await this.placeResult(instance, slot).catch(() => undefined)
        : undefined;
    if (result)
      return {
        ...own,
        state: 'terminated',
        stateReason: 'The recording ended; the instance goes on with the others',
        recording: result,
      };
    return { ...own, state: stopped ? 'stopping' : view.state };
  }

  /** The result a place's recorder left in the store, kept once found. */
  private async placeResult(instance: Ec2Instance, slot: SlotTag): Promise<ProviderRecording | undefined> {
    const key = `${instance.InstanceId}#${slot.slot}`;
    const known = this.endedResults.get(key);
    if (known) return known;
    const result = await this.options.store?.result(slot.file, instance.LaunchTime ?? new Date(0));
    if (result) this.endedResults.set(key, result);
    return result;
  }

  /**
   * The result of an ended instance, read once: the metadata.json its recorder left in the store, else
   * the recorder's CAPTURE_RESULT line in its console output. A store that could not be read is asked
   * again on the next pass. Without the store's result the reading is provisional: lateResult() reads
   * the store again for the fleet, which keeps asking for a while after the window.
   */
  private async endedRecording(
    cacheKey: string,
    instance: Ec2Instance,
    file: string | undefined,
    marker: string,
  ): Promise<ProviderRecording> {
    const known = this.endedResults.get(cacheKey);
    if (known) return known;
    let stored: ProviderRecording | undefined;
    let storeRead = true;
    try {
      stored = await this.storedRecording(instance, file);
    } catch {
      storeRead = false;
    }
    const recording = stored ?? {
      ...(await this.consoleRecording(instance, marker)),
      provisional: this.options.store !== undefined,
    };
    if (storeRead) this.endedResults.set(cacheKey, recording);
    return recording;
  }

  /** The result the instance's recorder left in the store since the instance launched; undefined when there is none. */
  private async storedRecording(
    instance: Ec2Instance,
    file: string | undefined,
  ): Promise<ProviderRecording | undefined> {
    if (!file || !this.options.store) return undefined;
    return this.options.store.result(file, instance.LaunchTime ?? new Date(0));
  }

  async lateResult(instanceId: string, launchId?: string): Promise<ProviderRecording | undefined> {
    const [instance] = await this.describe([{ Name: 'instance-id', Values: [instanceId] }]);
    const tags = tagsOf(instance?.Tags);
    const place = slotsOf(tags).find((slot) => slot.launchId === launchId);
    const stored = instance ? await this.storedRecording(instance, place?.file ?? tags[TAG.file]) : undefined;
    if (stored) this.endedResults.set(place ? `${instanceId}#${place.slot}` : instanceId, stored);
    return stored;
  }

  /** The recorder's CAPTURE_RESULT line from the console of an ended instance, else what its end tells. */
  private async consoleRecording(instance: Ec2Instance, marker: string): Promise<ProviderRecording> {
    let result: RecorderState | undefined;
    try {
      const lines = await this.logs(instance.InstanceId ?? '', 2000);
      const line = lines.reverse().find((l) => l.includes(marker));
      if (line) result = JSON.parse(line.slice(line.indexOf(marker) + marker.length)) as RecorderState;
    } catch {
      // no console output (yet): judged from the state reason below
    }
    const byUser = /UserInitiated/i.test(instance.StateReason?.Code ?? '');
    return result?.outcome
      ? {
          status: result.outcome.status,
          bytes: result.bytes,
          mediaSeconds: result.mediaSeconds,
          filePath: null,
          reason: result.outcome.reason,
          expectedSeconds: result.coverage?.expectedSeconds ?? null,
          coveredSeconds: result.coverage?.coveredSeconds ?? null,
          gaps: result.coverage?.gaps ?? [],
          reconnects: result.coverage?.reconnects ?? 0,
          // Its end is after the join and the delivery: what the coverage saw ends where the recorder says.
          measuredUntil: result.measuredUntil ?? result.endedAt ?? undefined,
          stoppedByOperator: result.stopCause === 'operator',
          content: result.content ?? null,
        }
      : {
          status: byUser ? 'partial' : 'failed',
          bytes: 0,
          mediaSeconds: null,
          filePath: null,
          reason: byUser
            ? 'Instance terminated before the recorder reported a result'
            : 'The instance ended without a recorder result',
        };
  }

  private toImage(image: Image): ProviderImage {
    const tags = tagsOf(image.Tags);
    const states: Record<string, AmiState> = { available: 'available', pending: 'pending' };
    const sizeGb = (image.BlockDeviceMappings ?? []).reduce((sum, m) => sum + (m.Ebs?.VolumeSize ?? 0), 0);
    return {
      imageId: image.ImageId ?? '',
      name: image.Name ?? '',
      description: image.Description ?? '',
      version: tags[TAG.version] ?? '0.0.0',
      state: states[image.State ?? ''] ?? 'failed',
      sizeGb,
      createdAt: image.CreationDate
        ? new Date(image.CreationDate).toISOString()
        : this.options.clock.now().toISOString(),
      tags,
      sourceInstanceId: tags[TAG.source] ?? null,
    };
  }
}
