import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { firstRunResponseSchema } from '../../../contract/auth';
import { loadConfig } from '../../../server/config';
import { createTestApp, type TestApp } from '../helpers/test-app';

describe('first run', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const firstRun = async () => {
    const response = await t.request({ method: 'GET', url: '/api/auth/first-run' });
    expect(response.statusCode).toBe(200);
    return { body: response.body, data: firstRunResponseSchema.strict().parse(response.json()).data };
  };

  it('says, without a session, whether the initial password file exists, and never its content', async () => {
    expect((await firstRun()).data).toEqual({ initial_password_file: false });
    const file = path.join(t.config.dataDir, 'initial-admin-password');
    fs.writeFileSync(file, 'Generated-secret-123\n', { mode: 0o600 });
    const answer = await firstRun();
    expect(answer.data).toEqual({ initial_password_file: true });
    expect(answer.body).not.toContain('Generated-secret-123');
    fs.rmSync(file);
    expect((await firstRun()).data).toEqual({ initial_password_file: false });
  });

  it('runs the built-in test broadcast unless DEMO_STREAM=0, in production too', () => {
    expect(loadConfig({}).demoStream).toBe(true);
    expect(loadConfig({ NODE_ENV: 'production' }).demoStream).toBe(true);
    expect(loadConfig({ NODE_ENV: 'production', DEMO_STREAM: '0' }).demoStream).toBe(false);
  });
});
