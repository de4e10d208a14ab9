import type {
  BlockDeviceMapping,
  Image,
  InstanceMarketOptionsRequest,
  InstanceMetadataOptionsRequest,
} from '@aws-sdk/client-ec2';

/*
 * What every recorder instance is started with besides its image and user-data: the instance
 * metadata service only with session tokens (IMDSv2) and reachable from the instance itself, not from
 * a container or a forwarded request on it (hop limit 1), and its root volume encrypted (with the
 * account's default EBS key) and deleted with the instance.
 */

export const METADATA_OPTIONS: InstanceMetadataOptionsRequest = {
  HttpEndpoint: 'enabled',
  HttpTokens: 'required',
  HttpPutResponseHopLimit: 1,
};

/**
 * AWS_CAPACITY=spot: a one-time spot request, ended (not stopped) if AWS takes the machine back: the
 * fleet then relaunches the recording as it does a machine that died.
 */
export const SPOT_MARKET: InstanceMarketOptionsRequest = {
  MarketType: 'spot',
  SpotOptions: { SpotInstanceType: 'one-time', InstanceInterruptionBehavior: 'terminate' },
};

/** The root volume of `image`, encrypted; the image's own type, and its size unless `sizeGb` (AWS_VOLUME_SIZE_GB) says. */
export function encryptedRoot(image: Image | undefined, sizeGb?: number): BlockDeviceMapping[] {
  const device = image?.RootDeviceName ?? '/dev/xvda';
  const root = image?.BlockDeviceMappings?.find((mapping) => mapping.DeviceName === device)?.Ebs;
  return [
    {
      DeviceName: device,
      Ebs: {
        Encrypted: true,
        DeleteOnTermination: true,
        ...(sizeGb || root?.VolumeSize ? { VolumeSize: sizeGb ?? root?.VolumeSize } : {}),
        ...(root?.VolumeType ? { VolumeType: root.VolumeType } : {}),
      },
    },
  ];
}
