import crypto from 'node:crypto';
import type * as Ec2Sdk from '@aws-sdk/client-ec2';
import type { EC2Client, Image, Instance as Ec2Instance, Tag } from '@aws-sdk/client-ec2';
import type { AmiState } from '../../../contract/ami';
import type { InstanceState } from '../../../contract/instances';
import type { Clock } from '../../lib/clock';
import { newId } from '../ids';
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
  type ProviderRecording,
} from '../provider';
import { DEFAULT_RECORDER_SETTINGS, INSTANCE_FILES, STATE_FORMAT_VERSION, type RecorderState } from '../recorder-state';
import { latestImage } from '../versions';
import { awsError } from './errors';
import type { DeliveryRequest } from '../../storage/delivery';
import type { RecorderDelivery } from '../recorder-delivery';
import type { RecorderConfig } from '../recorder-state';
import type { RecorderRuntimeLink } from './recorder-bundle';
import { buildUserData, remoteRecorderConfig, RESULT_MARKER } from './user-data';

export const MANAGED_BY = { key: 'managed-by', value: 'capture-command-center' } as const;
const TAG = {
  name: 'Name',
  mosque: 'mosque_id',
  recording: 'recording-id',
  launch: 'launch-id',
  job: 'job-id',
  key: 'idempotency-key',
  url: 'capture-url',
  duration: 'capture-duration',
  size: 'capture-size',
  method: 'capture-method',
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
  subnetId?: string;
  securityGroupId?: string;
  clock: Clock;
  stallTimeoutSeconds?: number;
  /** ALLOW_PRIVATE_STREAM_HOSTS: recorders may reach internal addresses (their egress guard checks nothing). */
  allowPrivateStreamHosts?: boolean;
  /** Attempts per call, retries included (the SDK backs off on throttling); default the SDK's (AWS_MAX_ATTEMPTS, else 3). */
  maxAttempts?: number;
  /** AWS_INSTANCE_PROFILE: recorders run with this role and upload with it; unset, each gets a POST policy. */
  instanceProfile?: string;
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
  };
}

/** A replacement machine fetches its predecessor's ledger as it boots: an hour is plenty. */
const LEDGER_LINK_SECONDS = 3600;
const tagsOf = (tags: Tag[] | undefined): Record<string, string> =>
  Object.fromEntries((tags ?? []).filter((t) => t.Key).map((t) => [t.Key as string, t.Value ?? '']));
const toTags = (record: Record<string, string>): Tag[] => Object.entries(record).map(([Key, Value]) => ({ Key, Value }));
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
  readonly scope: string;
  /** The SDK and its client, loaded on the first EC2 call: a server on the local driver never loads them. */
  private ec2: Promise<Ec2> | undefined;
  /** Results of ended instances (read once from their console output; they never change). */
  private readonly endedResults = new Map<string, ProviderRecording>();

  constructor(private readonly options: AwsProviderOptions) {
    this.scope = `aws:${options.region}`;
  }

  private connect(): Promise<Ec2> {
    this.ec2 ??= import('@aws-sdk/client-ec2').then((sdk) => ({
      sdk,
      client: new sdk.EC2Client({
        region: this.options.region,
        endpoint: this.options.endpoint,
        ...(this.options.maxAttempts ? { maxAttempts: this.options.maxAttempts } : {}),
      }),
    }));
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
    if (!imageId) throw new ProviderError('unavailable', 'No recorder image to launch: set AWS_IMAGE_ID or create an AMI first');
    const name = options.name ?? `capture-${config.mosque_id ?? 'adhoc'}-${launchId.slice(-6)}`;
    const now = this.options.clock.now();
    const window = recordingWindow(config, options, now);
    // Named by its window's start: a machine relaunched for the same recording delivers the same file.
    const stamp = window.windowStart.replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z');
    const recorderConfig = remoteRecorderConfig(
      {
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
        ...window,
        // The demo stream is on the server's loopback, never reachable from EC2: no trusted hosts there.
        egress: { allowPrivate: this.options.allowPrivateStreamHosts ?? false, trustedHosts: [] },
        // EC2 machines keep their own time (NTP); the window is taken as it is.
        clockOffsetMs: 0,
        createdAt: now.toISOString(),
      },
      `${stamp}.mp4`,
    );
    const prepared = await this.prepareRecorder(recorderConfig, options.recordingId ?? launchId, options.continues ?? false);
    const profile = this.options.instanceProfile;
    const tags: Record<string, string> = {
      [TAG.name]: name,
      [MANAGED_BY.key]: MANAGED_BY.value,
      [TAG.mosque]: config.mosque_id ?? '',
      [TAG.recording]: options.recordingId ?? launchId,
      [TAG.launch]: launchId,
      [TAG.key]: key,
      [TAG.url]: config.url.slice(0, 256),
      [TAG.duration]: String(config.duration),
      [TAG.size]: `${config.width}x${config.height}`,
      [TAG.method]: config.method,
      ...(options.jobId ? { [TAG.job]: options.jobId.slice(0, 256) } : {}),
      // Where its result is read back (metadata.json beside the file): ids and dates only, well under 256 characters.
      ...(prepared.filePath ? { [TAG.file]: prepared.filePath } : {}),
    };
    const result = await this.call('RunInstances', ({ sdk, client }) =>
      client.send(
        new sdk.RunInstancesCommand({
          ImageId: imageId,
          InstanceType: this.options.instanceType as never,
          MinCount: 1,
          MaxCount: 1,
          ClientToken: `ccc-${key}`,
          UserData: Buffer.from(prepared.userData).toString('base64'),
          InstanceInitiatedShutdownBehavior: 'terminate',
          ...(profile ? { IamInstanceProfile: profile.startsWith('arn:') ? { Arn: profile } : { Name: profile } } : {}),
          ...(this.options.subnetId ? { SubnetId: this.options.subnetId } : {}),
          ...(this.options.securityGroupId ? { SecurityGroupIds: [this.options.securityGroupId] } : {}),
          TagSpecifications: [
            { ResourceType: 'instance', Tags: toTags(tags) },
            { ResourceType: 'volume', Tags: toTags({ [MANAGED_BY.key]: MANAGED_BY.value, [TAG.launch]: launchId }) },
          ],
        }),
      ),
    );
    const instance = result.Instances?.[0];
    if (!instance?.InstanceId) throw new ProviderError('failed', 'AWS EC2 RunInstances returned no instance');
    return { ...this.launched(instance, launchId), filePath: prepared.filePath, existing: false };
  }

  /**
   * The user-data of a recorder: with an s3 store it delivers there (with the instance's role, or a
   * POST policy for its recording) and fetches the runtime by a pre-signed link (and, replacing a
   * recorder that died, the segment ledger that one shipped); else it runs the image's runtime and its
   * recording stays on the instance.
   */
  private async prepareRecorder(config: RecorderConfig, recordingId: string, continues: boolean): Promise<{ userData: string; filePath: string | null }> {
    const store = this.options.store;
    try {
      const via = this.options.instanceProfile ? 'role' : 'presigned-post';
      const fileName = config.outputPath.slice(config.outputPath.lastIndexOf('/') + 1);
      const delivery = store ? await store.delivery({ recordingId, mosqueId: config.mosqueId, windowStart: config.windowStart, windowEnd: config.windowEnd, fileName, via }) : null;
      const seconds = delivery ? Math.ceil((Date.parse(delivery.expiresAt) - this.options.clock.now().getTime()) / 1000) : 0;
      const runtime = store && delivery ? await store.runtimeLink(seconds) : null;
      const prefix = delivery ? delivery.mediaKey.slice(0, delivery.mediaKey.lastIndexOf('/') + 1) : '';
      const ledger = store && delivery && continues ? await store.readLink(`${prefix}${INSTANCE_FILES.ledger}`, LEDGER_LINK_SECONDS) : null;
      return { userData: buildUserData({ ...config, delivery }, { runtime, ledger }), filePath: delivery?.mediaKey ?? null };
    } catch (error) {
      throw new ProviderError('unavailable', `Could not prepare the recorder: ${(error as Error).message}`);
    }
  }

  async terminate(instanceId: string): Promise<void> {
    await this.call('TerminateInstances', ({ sdk, client }) => client.send(new sdk.TerminateInstancesCommand({ InstanceIds: [instanceId] })));
  }

  async list(): Promise<ProviderInstance[]> {
    const instances: ProviderInstance[] = [];
    for (const ec2 of await this.describe([{ Name: `tag:${MANAGED_BY.key}`, Values: [MANAGED_BY.value] }])) {
      instances.push(await this.view(ec2));
    }
    return instances;
  }

  async logs(instanceId: string, lines: number): Promise<string[]> {
    const output = await this.call('GetConsoleOutput', ({ sdk, client }) => client.send(new sdk.GetConsoleOutputCommand({ InstanceId: instanceId })));
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
      client.send(new sdk.DescribeImagesCommand({ Owners: ['self'], Filters: [{ Name: `tag:${MANAGED_BY.key}`, Values: [MANAGED_BY.value] }] })),
    );
    return (result.Images ?? []).filter((image) => image.ImageId && image.State !== 'deregistered').map((image) => this.toImage(image));
  }

  async deleteImage(imageId: string): Promise<void> {
    const result = await this.call('DescribeImages', ({ sdk, client }) => client.send(new sdk.DescribeImagesCommand({ ImageIds: [imageId], Owners: ['self'] })));
    const image = result.Images?.[0];
    if (!image) throw new ProviderError('not_found', `AMI ${imageId} not found`);
    if (image.State === 'pending') throw new ProviderError('conflict', `AMI ${imageId} is still being created; delete it once it is available`);
    const snapshots = (image.BlockDeviceMappings ?? []).map((m) => m.Ebs?.SnapshotId).filter((id): id is string => Boolean(id));
    await this.call('DeregisterImage', ({ sdk, client }) => client.send(new sdk.DeregisterImageCommand({ ImageId: imageId })));
    for (const snapshotId of snapshots) {
      await this.call('DeleteSnapshot', ({ sdk, client }) => client.send(new sdk.DeleteSnapshotCommand({ SnapshotId: snapshotId })));
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
      await client.send(new sdk.DescribeInstancesCommand({ MaxResults: 5, Filters: [{ Name: `tag:${MANAGED_BY.key}`, Values: [MANAGED_BY.value] }] }));
      return done('operational', `EC2 ${this.options.region} reachable`);
    } catch (error) {
      const failure = awsError(error, 'DescribeInstances');
      return done(/throttled|unavailable right now/.test(failure.message) ? 'degraded' : 'down', failure.message);
    }
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

  private async view(instance: Ec2Instance): Promise<ProviderInstance> {
    const tags = tagsOf(instance.Tags);
    const state = STATES[instance.State?.Name ?? ''] ?? 'pending';
    const ended = state === 'stopped' || state === 'terminated';
    const [width, height] = (tags[TAG.size] ?? '').split('x').map(Number);
    const id = instance.InstanceId ?? '';
    return {
      providerInstanceId: id,
      launchId: tags[TAG.launch] ?? null,
      name: tags[TAG.name] ?? id,
      state,
      stateReason: ended ? (instance.StateReason?.Message ?? instance.StateTransitionReason ?? null) : null,
      instanceType: instance.InstanceType ?? this.options.instanceType,
      config: tags[TAG.url]
        ? {
            url: tags[TAG.url],
            duration: Number(tags[TAG.duration]) || 0,
            width: width || 0,
            height: height || 0,
            mosque_id: tags[TAG.mosque] || null,
            method: tags[TAG.method] ?? 'api',
          }
        : null,
      jobId: tags[TAG.job] ?? null,
      imageId: instance.ImageId ?? null,
      mediaFlowing: state === 'running',
      recording: ended ? await this.endedRecording(id, instance) : { status: 'recording', bytes: 0, mediaSeconds: null, filePath: null, reason: null },
    };
  }

  /**
   * The result of an ended instance, read once: the metadata.json its recorder left in the store, else
   * the recorder's CAPTURE_RESULT line in its console output. A store that could not be read is asked
   * again on the next pass. Without the store's result the reading is provisional: lateResult() reads
   * the store again for the fleet, which keeps asking for a while after the window.
   */
  private async endedRecording(id: string, instance: Ec2Instance): Promise<ProviderRecording> {
    const known = this.endedResults.get(id);
    if (known) return known;
    let stored: ProviderRecording | undefined;
    let storeRead = true;
    try {
      stored = await this.storedRecording(instance);
    } catch {
      storeRead = false;
    }
    const recording = stored ?? { ...(await this.consoleRecording(id, instance)), provisional: this.options.store !== undefined };
    if (storeRead) this.endedResults.set(id, recording);
    return recording;
  }

  /** The result the instance's recorder left in the store since the instance launched; undefined when there is none. */
  private async storedRecording(instance: Ec2Instance): Promise<ProviderRecording | undefined> {
    const file = tagsOf(instance.Tags)[TAG.file];
    if (!file || !this.options.store) return undefined;
    return this.options.store.result(file, instance.LaunchTime ?? new Date(0));
  }

  async lateResult(instanceId: string): Promise<ProviderRecording | undefined> {
    const [instance] = await this.describe([{ Name: 'instance-id', Values: [instanceId] }]);
    const stored = instance ? await this.storedRecording(instance) : undefined;
    if (stored) this.endedResults.set(instanceId, stored);
    return stored;
  }

  /** The recorder's CAPTURE_RESULT line from the console of an ended instance, else what its end tells. */
  private async consoleRecording(id: string, instance: Ec2Instance): Promise<ProviderRecording> {
    let result: RecorderState | undefined;
    try {
      const lines = await this.logs(id, 2000);
      const line = lines.reverse().find((l) => l.includes(RESULT_MARKER));
      if (line) result = JSON.parse(line.slice(line.indexOf(RESULT_MARKER) + RESULT_MARKER.length)) as RecorderState;
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
          measuredUntil: result.endedAt ?? undefined,
          stoppedByOperator: result.stopCause === 'operator',
        }
      : {
          status: byUser ? 'partial' : 'failed',
          bytes: 0,
          mediaSeconds: null,
          filePath: null,
          reason: byUser ? 'Instance terminated before the recorder reported a result' : 'The instance ended without a recorder result',
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
      createdAt: image.CreationDate ? new Date(image.CreationDate).toISOString() : this.options.clock.now().toISOString(),
      tags,
      sourceInstanceId: tags[TAG.source] ?? null,
    };
  }
}
