import type { BlockDeviceMapping, Image, InstanceMetadataOptionsRequest } from '@aws-sdk/client-ec2';

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

/** The root volume of `image`, encrypted; the image's own size and type are kept. */
export function encryptedRoot(image: Image | undefined): BlockDeviceMapping[] {
  const device = image?.RootDeviceName ?? '/dev/xvda';
  const root = image?.BlockDeviceMappings?.find((mapping) => mapping.DeviceName === device)?.Ebs;
  return [
    {
      DeviceName: device,
      Ebs: {
        Encrypted: true,
        DeleteOnTermination: true,
        ...(root?.VolumeSize ? { VolumeSize: root.VolumeSize } : {}),
        ...(root?.VolumeType ? { VolumeType: root.VolumeType } : {}),
      },
    },
  ];
}
