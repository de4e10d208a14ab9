import type { Config } from '../config';
import type { Clock } from '../lib/clock';
import { AwsCaptureProvider } from './aws/driver';
import { LocalCaptureProvider } from './local/driver';
import type { CaptureProvider } from './provider';

export type { CaptureProvider } from './provider';

/** The driver CAPTURE_PROVIDER names: local recorder processes (default) or EC2 instances. */
export function createCaptureDriver(config: Config, clock: Clock): CaptureProvider {
  if (config.captureProvider === 'aws') {
    return new AwsCaptureProvider({
      region: config.awsRegion,
      endpoint: config.awsEndpointUrl,
      imageId: config.awsImageId,
      instanceType: config.awsInstanceType,
      subnetId: config.awsSubnetId,
      securityGroupId: config.awsSecurityGroupId,
      stallTimeoutSeconds: config.stallTimeoutSeconds,
      clock,
    });
  }
  return new LocalCaptureProvider({
    dataDir: config.dataDir,
    ffmpegPath: config.ffmpegPath,
    stallTimeoutSeconds: config.stallTimeoutSeconds,
    ffprobePath: config.ffprobePath,
    ytDlpPath: config.ytDlpPath,
    recorderSettings: {
      ...(config.recorderRetrySeconds ? { retryInitialSeconds: config.recorderRetrySeconds } : {}),
      ...(config.recorderRetryMaxSeconds ? { retryMaxSeconds: config.recorderRetryMaxSeconds } : {}),
    },
    clock,
  });
}
