import type { Config } from '../config';
import type { Clock } from '../lib/clock';
import { recorderDelivery } from '../storage/delivery';
import { S3RecordingStore } from '../storage/s3-store';
import { RecorderRuntimeLinks } from './aws/recorder-bundle';
import type { RecordingStore } from '../storage/recording-store';
import { AwsCaptureProvider } from './aws/driver';
import type { LiveReportWarn } from './aws/live-report';
import { refuseTemporarySigning } from './aws/configuration-checks';
import { storedResult } from './aws/stored-result';
import { LocalCaptureProvider } from './local/driver';
import type { CaptureProvider } from './provider';

export type { CaptureProvider } from './provider';

/**
 * The driver CAPTURE_PROVIDER names: local recorder processes (default) or EC2 instances. Their
 * recorders deliver to `store` when it is a bucket; `log` is told of their live reports that cannot be used.
 */
export function createCaptureDriver(
  config: Config,
  clock: Clock,
  store?: RecordingStore,
  log?: { warn: LiveReportWarn },
): CaptureProvider {
  if (config.captureProvider === 'aws') {
    return new AwsCaptureProvider({
      region: config.awsRegion,
      endpoint: config.awsEndpointUrl,
      imageId: config.awsImageId,
      instanceType: config.awsInstanceTypes[0],
      instanceTypes: config.awsInstanceTypes,
      subnetIds: config.awsSubnetIds,
      securityGroupId: config.awsSecurityGroupId,
      stallTimeoutSeconds: config.stallTimeoutSeconds,
      contentAlarmSeconds: config.contentAlarmSeconds,
      allowPrivateStreamHosts: config.allowPrivateStreamHosts,
      instanceProfile: config.awsInstanceProfile,
      recordingsPerInstance: config.recordingsPerInstance,
      store: store instanceof S3RecordingStore ? awsStore(store, clock) : undefined,
      leadSeconds: config.captureLeadSeconds,
      extraTags: config.awsExtraTags,
      maxInstances: config.awsMaxInstances,
      capacity: config.awsCapacity,
      volumeSizeGb: config.awsVolumeSizeGb,
      log,
      clock,
    });
  }
  return new LocalCaptureProvider({
    dataDir: config.dataDir,
    hostName: config.hostName,
    ffmpegPath: config.ffmpegPath,
    stallTimeoutSeconds: config.stallTimeoutSeconds,
    contentAlarmSeconds: config.contentAlarmSeconds,
    ffprobePath: config.ffprobePath,
    ytDlpPath: config.ytDlpPath,
    leadSeconds: config.captureLeadSeconds,
    allowPrivateStreamHosts: config.allowPrivateStreamHosts,
    niceness: config.recorderNiceness,
    recorderSettings: {
      ...(config.recorderRetrySeconds ? { retryInitialSeconds: config.recorderRetrySeconds } : {}),
      ...(config.recorderRetryMaxSeconds ? { retryMaxSeconds: config.recorderRetryMaxSeconds } : {}),
      ...(config.recorderOverloadSeconds ? { overloadBacklogSeconds: config.recorderOverloadSeconds } : {}),
    },
    // A local recorder gets no credentials (only a POST policy for its own recording).
    delivery: store
      ? (request) => recorderDelivery(store, { ...request, via: 'presigned-post' }, clock.now())
      : undefined,
    clock,
  });
}

/** What the aws driver does with an s3 store: its recorders' delivery, runtime, ledgers, places and results. */
export function awsStore(store: S3RecordingStore, clock: Clock, runtime = new RecorderRuntimeLinks(store)) {
  // The recorder goes into the bucket at start: the first launch of a Friday does not upload it inside its request.
  runtime.prepare();
  return {
    delivery: async (request: Parameters<typeof recorderDelivery>[1]) => {
      if (request.via === 'presigned-post') await refuseTemporarySigning(store);
      return recorderDelivery(store, request, clock.now());
    },
    runtimeLink: (seconds: number) => runtime.link(seconds),
    readLink: (key: string, seconds: number) => store.signedUrl(key, seconds),
    result: (mediaKey: string, launchedAt: Date) => storedResult(store, mediaKey, launchedAt),
    put: async (key: string, text: string, onlyIfAbsent = false) => {
      if (onlyIfAbsent) return store.putTextIfAbsent(key, text, 'text/plain');
      await store.putText(key, text, 'text/plain');
      return true;
    },
    readIfChanged: (key: string, etag: string | null) => store.readTextIfChanged(key, etag),
  };
}
