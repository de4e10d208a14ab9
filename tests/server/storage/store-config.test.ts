import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../server/config';
import { configProblems } from '../helpers/config-problems';

describe('recordings store settings', () => {
  it('keep recordings on the local disk unless told otherwise', () => {
    expect(loadConfig({})).toMatchObject({
      recordingsStore: 'local',
      s3Endpoint: undefined,
      awsInstanceProfile: undefined,
    });
  });

  it('read a bucket, its S3-compatible endpoint and the recorders’ instance profile', () => {
    const config = loadConfig({
      RECORDINGS_STORE: 's3://sermons/friday',
      S3_ENDPOINT: 'http://127.0.0.1:9000',
      AWS_INSTANCE_PROFILE: 'capture-recorder',
    });
    expect(config).toMatchObject({
      recordingsStore: 's3://sermons/friday',
      s3Endpoint: 'http://127.0.0.1:9000',
      awsInstanceProfile: 'capture-recorder',
    });
  });

  it('refuse to start with a store they cannot use, saying what is wrong', () => {
    expect(configProblems({ RECORDINGS_STORE: '/srv/recordings' })).toEqual([
      'RECORDINGS_STORE: RECORDINGS_STORE must be "local" or s3://bucket/prefix (a valid bucket name, e.g. s3://sermons/recordings)',
    ]);
    expect(configProblems({ RECORDINGS_STORE: 's3://Bad_Bucket/x' })).toHaveLength(1);
    expect(configProblems({ RECORDINGS_STORE: 's3://sermons', S3_ENDPOINT: 'minio:9000' })).toEqual([
      'S3_ENDPOINT: S3_ENDPOINT must be an http(s) URL (e.g. http://127.0.0.1:9000 for MinIO)',
    ]);
    expect(configProblems({ S3_ENDPOINT: 'http://127.0.0.1:9000' })).toEqual([
      'S3_ENDPOINT: S3_ENDPOINT is set but RECORDINGS_STORE is not an s3:// location',
    ]);
  });

  it('refuse EC2 recorders without a bucket to deliver to, naming both settings', () => {
    const problem =
      'CAPTURE_PROVIDER: CAPTURE_PROVIDER=aws needs RECORDINGS_STORE=s3://bucket/prefix: EC2 recorders deliver to that bucket, and an instance keeps nothing once it ends (or set CAPTURE_PROVIDER=local)';
    expect(configProblems({ CAPTURE_PROVIDER: 'aws' })).toEqual([problem]);
    expect(configProblems({ CAPTURE_PROVIDER: 'aws', RECORDINGS_STORE: 'local' })).toEqual([problem]);
    expect(configProblems({ CAPTURE_PROVIDER: 'aws', RECORDINGS_STORE: 's3://sermons/recordings' })).toEqual([]);
  });

  it('share an EC2 instance among at most 20 recordings, one each unless told otherwise', () => {
    expect(loadConfig({}).recordingsPerInstance).toBe(1);
    expect(loadConfig({ RECORDINGS_PER_INSTANCE: '4' }).recordingsPerInstance).toBe(4);
    const problem = ['RECORDINGS_PER_INSTANCE: RECORDINGS_PER_INSTANCE must be a whole number from 1 to 20'];
    for (const bad of ['0', '21', '2.5', 'four'])
      expect(configProblems({ RECORDINGS_PER_INSTANCE: bad }), bad).toEqual(problem);
  });
});
