import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../server/config';
import { configProblems } from '../helpers/config-problems';

const AWS = { CAPTURE_PROVIDER: 'aws', RECORDINGS_STORE: 's3://sermons/friday' };

describe('cloud fleet settings', () => {
  it('give each provider its lead time (local 0 s, aws 300 s) and a 600 s grace, unless told otherwise', () => {
    expect(loadConfig({})).toMatchObject({ captureLeadSeconds: 0, captureGraceSeconds: 600, awsExtraTags: {} });
    expect(loadConfig(AWS)).toMatchObject({ captureLeadSeconds: 300, captureGraceSeconds: 600 });
    expect(loadConfig({ ...AWS, CAPTURE_LEAD_SECONDS: '90', CAPTURE_GRACE_SECONDS: '120' })).toMatchObject({
      captureLeadSeconds: 90,
      captureGraceSeconds: 120,
    });
  });

  it('read the instance types and subnets a launch may try, else the single ones', () => {
    expect(loadConfig({})).toMatchObject({ awsInstanceTypes: ['t3.medium'], awsSubnetIds: [] });
    expect(loadConfig({ AWS_INSTANCE_TYPE: 'c6i.large', AWS_SUBNET_ID: 'subnet-a' })).toMatchObject({
      awsInstanceTypes: ['c6i.large'],
      awsSubnetIds: ['subnet-a'],
    });
    expect(
      loadConfig({
        AWS_INSTANCE_TYPES: 't3.small, t3a.small',
        AWS_SUBNET_IDS: 'subnet-a,subnet-b',
        AWS_SUBNET_ID: 'subnet-x',
      }),
    ).toMatchObject({ awsInstanceTypes: ['t3.small', 't3a.small'], awsSubnetIds: ['subnet-a', 'subnet-b'] });
  });

  it('refuse a lead time or grace out of range, saying the range', () => {
    expect(configProblems({ CAPTURE_LEAD_SECONDS: '-5' })).toEqual([
      'CAPTURE_LEAD_SECONDS: CAPTURE_LEAD_SECONDS must be 0 to 3600',
    ]);
    expect(configProblems({ CAPTURE_LEAD_SECONDS: 'soon' })).toEqual([
      'CAPTURE_LEAD_SECONDS: CAPTURE_LEAD_SECONDS must be a number',
    ]);
    expect(configProblems({ CAPTURE_GRACE_SECONDS: '10' })).toEqual([
      'CAPTURE_GRACE_SECONDS: CAPTURE_GRACE_SECONDS must be 60 to 86400',
    ]);
  });

  it('read operator tags as key=value pairs, refusing malformed ones and the server’s own keys', () => {
    expect(loadConfig({ AWS_EXTRA_TAGS: 'team=media, cost-centre = friday' }).awsExtraTags).toEqual({
      team: 'media',
      'cost-centre': 'friday',
    });
    expect(configProblems({ AWS_EXTRA_TAGS: 'team' })).toEqual([
      'AWS_EXTRA_TAGS: AWS_EXTRA_TAGS: "team" is not key=value (e.g. team=media,cost-centre=friday)',
    ]);
    expect(configProblems({ AWS_EXTRA_TAGS: 'managed-by=me' })).toEqual([
      'AWS_EXTRA_TAGS: AWS_EXTRA_TAGS: "managed-by" is a tag the server writes itself',
    ]);
  });

  it('read hourly prices as type=dollars pairs, refusing anything else', () => {
    expect(loadConfig({}).awsHourlyPrices).toEqual({});
    expect(loadConfig({ AWS_HOURLY_PRICES: 't3.small=0.02, c6i.large = 0.09' }).awsHourlyPrices).toEqual({
      't3.small': 0.02,
      'c6i.large': 0.09,
    });
    for (const bad of ['t3.small', 't3.small=cheap', 't3.small=-1', '=0.02', 't3.small=0.02=1'])
      expect(configProblems({ AWS_HOURLY_PRICES: bad }), bad).toEqual([
        `AWS_HOURLY_PRICES: AWS_HOURLY_PRICES: "${bad}" is not type=dollars-per-hour (e.g. t3.small=0.0208)`,
      ]);
  });

  it('read the capacity, volume size and instance cap, refusing values out of range', () => {
    expect(loadConfig({})).toMatchObject({
      awsCapacity: 'on-demand',
      awsVolumeSizeGb: undefined,
      awsMaxInstances: undefined,
    });
    expect(loadConfig({ AWS_CAPACITY: 'spot', AWS_VOLUME_SIZE_GB: '20', AWS_MAX_INSTANCES: '150' })).toMatchObject({
      awsCapacity: 'spot',
      awsVolumeSizeGb: 20,
      awsMaxInstances: 150,
    });
    expect(configProblems({ AWS_CAPACITY: 'cheap' })).toEqual(['AWS_CAPACITY: AWS_CAPACITY must be on-demand or spot']);
    expect(configProblems({ AWS_VOLUME_SIZE_GB: '4' })).toEqual([
      'AWS_VOLUME_SIZE_GB: AWS_VOLUME_SIZE_GB must be 8 to 16384',
    ]);
    expect(configProblems({ AWS_MAX_INSTANCES: '0' })).toEqual([
      'AWS_MAX_INSTANCES: AWS_MAX_INSTANCES must be 1 to 10000',
    ]);
    expect(configProblems({ AWS_MAX_INSTANCES: '2.5' })).toEqual([
      'AWS_MAX_INSTANCES: AWS_MAX_INSTANCES must be a whole number',
    ]);
  });
});
