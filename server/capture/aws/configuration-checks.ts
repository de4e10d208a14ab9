import type { S3RecordingStore } from '../../storage/s3-store';
import type { AwsCaptureProvider } from './driver';

/*
 * What the cloud configuration lacks, as health components of the Monitoring page (checked at start
 * and on every health pass, never a log line per reconcile): credentials the server can find, who signs
 * recorders' uploads, and a recorder image to launch. Whether EC2 answers in the region is the `aws`
 * component (the driver's own health).
 */

type Check = () => Promise<{ status: 'healthy' | 'unhealthy'; detail: string }>;

/**
 * Why a POST policy is not signed with temporary credentials: the policy is only as valid as the
 * credentials that signed it, and those (a role's session, an SSO login) expire, often within the hour,
 * while recorders upload until two hours after their window.
 */
export const TEMPORARY_SIGNING_REFUSED =
  "Recorders' uploads would be signed with temporary credentials (a session token), which expire before the recorders finish uploading: set AWS_INSTANCE_PROFILE so recorders upload with their own role, or give the server long-lived access keys";

/** Refuses (throws) to sign recorders' POST policies with temporary credentials. */
export async function refuseTemporarySigning(store: S3RecordingStore): Promise<void> {
  if ((await store.signingCredentials()).temporary) throw new Error(TEMPORARY_SIGNING_REFUSED);
}

const healthy = (detail: string) => ({ status: 'healthy' as const, detail });
const unhealthy = (detail: string) => ({ status: 'unhealthy' as const, detail });
const reason = (error: unknown) => (error instanceof Error ? error.message : String(error));

export function awsConfigurationChecks(options: {
  driver: AwsCaptureProvider;
  store: S3RecordingStore;
  instanceProfile: string | undefined;
}): Record<string, Check> {
  const { driver, store, instanceProfile } = options;
  return {
    aws_credentials: async () => {
      try {
        const { temporary, expiration } = await store.signingCredentials();
        if (!temporary) return healthy('Long-lived access keys');
        return healthy(
          `Temporary credentials${expiration ? `, renewed by the SDK; these expire at ${expiration.toISOString()}` : ''}`,
        );
      } catch (error) {
        return unhealthy(
          `No AWS credentials found (${reason(error)}): set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, a profile, or run the server with an instance role`,
        );
      }
    },
    aws_upload_signing: async () => {
      if (instanceProfile) return healthy(`Recorders upload with the role of instance profile ${instanceProfile}`);
      try {
        await refuseTemporarySigning(store);
        return healthy("Recorders' uploads are signed with long-lived access keys");
      } catch (error) {
        return unhealthy(reason(error));
      }
    },
    aws_image: async () => {
      try {
        return healthy(await driver.describeRecorderImage());
      } catch (error) {
        return unhealthy(reason(error));
      }
    },
  };
}
