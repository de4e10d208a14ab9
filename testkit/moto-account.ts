import { DescribeImagesCommand, EC2Client } from '@aws-sdk/client-ec2';
import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3';
import { startMoto, type MotoServer } from './capture';

/** A test file's AWS account on moto: EC2 and S3 clients, one bucket and an image to launch from. */
export interface MotoAccount {
  moto: MotoServer;
  ec2: EC2Client;
  s3: S3Client;
  /** The first x86_64 image moto lists as Amazon's. */
  imageId: string;
  /** Stops moto and gives process.env back as it was. */
  stop(): Promise<void>;
}

/**
 * Starts moto with the SDK's fake credentials in process.env (the server's AWS clients read them there;
 * no instance metadata is asked for), makes `bucket` and finds an image. The keys are long-lived ones
 * (no session token): the server refuses to sign recorders' uploads with temporary credentials.
 */
export async function startMotoAccount(bucket: string): Promise<MotoAccount> {
  const saved = { ...process.env };
  Object.assign(process.env, {
    AWS_ACCESS_KEY_ID: 'testing',
    AWS_SECRET_ACCESS_KEY: 'testing',
    AWS_EC2_METADATA_DISABLED: 'true',
  });
  const moto = await startMoto();
  const ec2 = new EC2Client({ region: 'us-east-1', endpoint: moto.url });
  const s3 = new S3Client({ region: 'us-east-1', endpoint: moto.url, forcePathStyle: true });
  await s3.send(new CreateBucketCommand({ Bucket: bucket }));
  const images = await ec2.send(
    new DescribeImagesCommand({ Owners: ['amazon'], Filters: [{ Name: 'architecture', Values: ['x86_64'] }] }),
  );
  return {
    moto,
    ec2,
    s3,
    imageId: images.Images?.[0]?.ImageId ?? '',
    stop: async () => {
      ec2.destroy();
      s3.destroy();
      await moto.stop();
      process.env = saved;
    },
  };
}
