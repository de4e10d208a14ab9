import { DescribeInstancesCommand } from '@aws-sdk/client-ec2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemHealthResponseSchema } from '../../../contract/monitoring';
import { TEMPORARY_SIGNING_REFUSED } from '../../../server/capture/aws/configuration-checks';
import { startMotoAccount, type MotoAccount } from '../../../testkit/moto-account';
import { scaled } from '../../../testkit/time-scale';
import { createTestApp } from '../helpers/test-app';

// PostgreSQL pass: skipped: it checks AWS settings and writes no rows of its own

/*
 * The cloud configuration's start-up checks, as health components of GET /api/monitoring/system:
 * credentials, who signs recorders' uploads (never temporary credentials: refused for launches too),
 * and the recorder image. Each app is built with process.env as the case needs (the SDK reads it once).
 */

describe("the aws configuration's health components (moto)", () => {
  let account: MotoAccount | undefined;
  const saved = { ...process.env };

  beforeAll(async () => {
    account = await startMotoAccount('checks');
  }, scaled(60_000));

  afterAll(async () => {
    await account?.stop();
    process.env = saved;
  });

  /** An aws app on moto with `env`, and process.env changed by `credentials` while it is built. */
  async function appWith(env: Record<string, string>, credentials: Record<string, string | undefined> = {}) {
    const before = { ...process.env };
    for (const [key, value] of Object.entries(credentials)) {
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
    }
    const t = await createTestApp({
      env: {
        CAPTURE_PROVIDER: 'aws',
        AWS_ENDPOINT_URL: account!.moto.url,
        AWS_REGION: 'us-east-1',
        AWS_IMAGE_ID: account!.imageId,
        RECORDINGS_STORE: 's3://checks/captures',
        S3_ENDPOINT: account!.moto.url,
        ...env,
      },
      build: { healthCheckIntervalMs: 0 },
    });
    const token = await t.login();
    const health = async () => {
      const response = await t.request({ method: 'GET', url: '/api/monitoring/system', token });
      return systemHealthResponseSchema.parse(response.json()).data;
    };
    const close = async () => {
      await t.close();
      process.env = before;
    };
    return { t, token, health, close };
  }

  it('are healthy with long-lived keys and an image that exists, saying what they found', async () => {
    const app = await appWith({});
    try {
      const { components, failing } = await app.health();
      expect(failing).toEqual([]);
      expect(components.aws_credentials).toMatchObject({ status: 'healthy', detail: 'Long-lived access keys' });
      expect(components.aws_upload_signing?.detail).toMatch(/signed with long-lived access keys/);
      expect(components.aws_image?.detail).toMatch(
        new RegExp(`^AWS_IMAGE_ID ${account!.imageId} \\(.*\\) is available$`),
      );
    } finally {
      await app.close();
    }
  });

  it('refuse temporary credentials without an instance profile: unhealthy, and a launch answers 503 saying why', async () => {
    const app = await appWith({}, { AWS_SESSION_TOKEN: 'a-session-token' });
    try {
      const { components, failing } = await app.health();
      expect(failing).toEqual(['aws_upload_signing']);
      expect(components.aws_upload_signing).toMatchObject({ status: 'unhealthy', detail: TEMPORARY_SIGNING_REFUSED });
      expect(components.aws_credentials).toMatchObject({ status: 'healthy', detail: 'Temporary credentials' });

      const before = (await account!.ec2.send(new DescribeInstancesCommand({}))).Reservations?.length ?? 0;
      const launch = await app.t.request({
        method: 'POST',
        url: '/api/instances/launch',
        token: app.token,
        payload: { configs: [{ url: 'http://127.0.0.1:9/checks.m3u8', duration: 600 }] },
      });
      expect(launch.statusCode, launch.body).toBe(503);
      expect(launch.json().detail).toContain(TEMPORARY_SIGNING_REFUSED);
      expect((await account!.ec2.send(new DescribeInstancesCommand({}))).Reservations?.length ?? 0).toBe(before);
    } finally {
      await app.close();
    }
  });

  it('accept temporary credentials when recorders upload with an instance profile', async () => {
    const app = await appWith({ AWS_INSTANCE_PROFILE: 'capture-recorder' }, { AWS_SESSION_TOKEN: 'a-session-token' });
    try {
      const { components } = await app.health();
      expect(components.aws_upload_signing).toMatchObject({
        status: 'healthy',
        detail: 'Recorders upload with the role of instance profile capture-recorder',
      });
    } finally {
      await app.close();
    }
  });

  it('name what is missing when the server has no credentials at all', async () => {
    const app = await appWith(
      {},
      {
        AWS_ACCESS_KEY_ID: undefined,
        AWS_SECRET_ACCESS_KEY: undefined,
        AWS_PROFILE: undefined,
        AWS_SHARED_CREDENTIALS_FILE: '/nonexistent/credentials',
        AWS_CONFIG_FILE: '/nonexistent/config',
      },
    );
    try {
      const { components, failing } = await app.health();
      expect(failing).toEqual(expect.arrayContaining(['aws_credentials', 'aws_upload_signing', 'aws_image']));
      expect(components.aws_credentials?.detail).toMatch(/^No AWS credentials found \(.+\): set AWS_ACCESS_KEY_ID/);
      expect(components.aws_image?.detail).toMatch(/Could not load credentials/);
    } finally {
      await app.close();
    }
  });

  it('name an AWS_IMAGE_ID that does not exist', async () => {
    const app = await appWith({ AWS_IMAGE_ID: 'ami-0000000000000dead' });
    try {
      const { components, failing } = await app.health();
      expect(failing).toEqual(['aws_image']);
      expect(components.aws_image?.detail).toMatch(/ami-0000000000000dead/);
    } finally {
      await app.close();
    }
  });
});
